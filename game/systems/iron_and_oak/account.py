"""One line of plain English per Iron & Oak event. Never shows a face-down order card."""

from __future__ import annotations

from typing import Any

from game.systems.common import account_shared
from game.systems.iron_and_oak import events as ev


def account(e: Any) -> str:
    shared = account_shared(e)
    if shared is not None:
        return shared
    match e:
        case ev.ShipChanged(ship=ship, what=what) if what:
            return f"{ship.id} {what}."
        case ev.ProcedureChanged(procedure=p) if p is not None and p.question is not None:
            return f"{' or '.join(p.question.who)}: {p.question.ask}? (`answer …`)"
        case ev.ProcedureChanged(procedure=p) if p is not None and p.step == "start" and not p.facts:
            return f"{p.ship} carries out its order: {p.order}."
        case ev.BoxChanged(box=box, what=what) if what:
            return f"{box.id}: {what}."
        case ev.PositionsChanged(what=what) if what:
            return f"{what}."
    return ""
