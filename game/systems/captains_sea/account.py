"""One line of plain English per Captain's Sea event. Never names a face-down maneuver."""

from __future__ import annotations

from typing import Any

from game.systems.captains_sea import events as ev
from game.systems.common import account_shared


def account(e: Any) -> str:
    shared = account_shared(e)
    if shared is not None:
        return shared
    match e:
        case ev.ShipChanged(ship=ship, what=what) if what:
            return f"{ship.id} {what}."
        case ev.InitiativeSet(player=p) if p:
            return f"{p} has the initiative."
        case ev.ImpulseReached(impulse=i, ships=ships) if i:
            return f"Impulse {i}: {', '.join(ships)} activate."
        case ev.OffsetSet(aim=aim, value=v):
            return (f"The referee's base row for Firing {aim.title()}: {v:+d} to the two dice (rule 11 is not on the PAC: "
                    "the value is the referee's).")
        case ev.VolleyResolved(volley=v):
            damage = v.damage if v.damage is not None else "read the printed table"
            morale = str(v.morale_rolls) if v.morale_rolls is not None else "read the printed table"
            if v.morale_rolls is not None and v.morale_source:
                morale += f" ({v.morale_source})"
            checks = ""
            if v.fire_checks:
                red = {"yes": "", "no": " (not a red column: none)", "?": " if this column is printed red on your PAC"}[v.red_column]
                checks = f"; {v.fire_checks} fire check(s){red}"
            return (f"{v.ship} fires {v.aim} at {v.target}, {v.hits} hits achieved: white {v.white[0]}+{v.white[1]} "
                    f"({v.parts}) = {v.damage_roll}: {damage}{checks}; red {v.red} → {v.morale_roll}: "
                    f"Morale rolls {morale}.")
    return ""
