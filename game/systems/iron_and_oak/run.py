"""A pass over an Iron & Oak order procedure (procedures.py): the procedure's state, its questions
and its rolls, and how a player's answer is read."""

from __future__ import annotations

import shlex

from game.errors import IllegalAction
from game.model import evolve
from game.systems.common import Step
from game.systems.dice import Opposed, parse_spec
from game.systems.iron_and_oak import events as ev
from game.systems.iron_and_oak.grid import OFF
from game.systems.iron_and_oak.model import (
    IOGame,
    IOShip,
    Procedure,
    Question,
)
from game.systems.tables import Cell, TableSet


class Pause(Exception):  # noqa: N818 - control flow: the procedure waits for an answer
    pass


class Run:
    """One pass over the procedure under way."""

    def __init__(self, step: Step[IOGame], tables: TableSet) -> None:
        self.step = step
        self.tables = tables

    # -- state --------------------------------------------------------------------

    @property
    def proc(self) -> Procedure:
        p = self.step.state.procedure
        assert p is not None
        return p

    @property
    def ship(self) -> IOShip:
        return self.step.state.ship(self.proc.ship)

    def other(self, name: str) -> IOShip:
        return self.step.state.ship(name)

    def opponents(self, ship: IOShip | None = None) -> tuple[str, ...]:
        owner = (ship or self.ship).player
        return tuple(p for p in self.step.state.players if p != owner)

    def fact(self, key: str) -> str | None:
        return self.proc.fact(key)

    def remember(self, key: str, value: str) -> None:
        facts = tuple((k, v) for k, v in self.proc.facts if k != key) + ((key, value),)
        self.step.emit(ev.ProcedureChanged(evolve(self.proc, facts=facts)))

    def need(self, key: str, kind: str, ask: str, who: tuple[str, ...], choices: tuple[str, ...] = ()) -> str:
        value = self.fact(key)
        if value is not None:
            return value
        self.step.emit(ev.ProcedureChanged(evolve(self.proc, question=Question(key, kind, ask, who, choices))))
        raise Pause

    def goto(self, name: str) -> None:
        self.step.emit(ev.ProcedureChanged(evolve(self.proc, step=name)))

    def call(self, sub: str, then: str) -> None:
        self.remember(f"return:{sub}", then)
        self.goto(sub)

    def back(self, sub: str) -> None:
        self.goto(self.fact(f"return:{sub}") or "end")

    def say(self, text: str) -> None:
        self.step.prompt(text)

    def change(self, ship: IOShip, what: str) -> None:
        self.step.emit(ev.ShipChanged(ship, what))

    # -- rolls --------------------------------------------------------------------

    def check(self, name: str, purpose: str, c_drm: int = 0, r_drm: int = 0, ship: IOShip | None = None) -> Opposed:
        t = self.tables["opposed_checks"]
        challenge = str(t.lookup(name, "challenge").value)  # type: ignore[union-attr]
        response = str(t.lookup(name, "response").value)  # type: ignore[union-attr]
        s = ship or self.ship
        opp = self.opponents(s)
        return self.step.opposed(purpose, challenge, response, c_drm, r_drm, s.player, opp[0] if opp else "")

    def printed(self, table: str, row: int, column: str | None = None) -> str | None:
        cell = self.tables[table].lookup(row, column, self.step.state.printed)
        return str(cell.value) if isinstance(cell, Cell) else None


# ---------------------------------------------------------------- answers


def normalise(q: Question, text: str, state: IOGame) -> str:
    """The answer in canonical form, or IllegalAction saying what the question takes."""
    t = text.strip()
    words = shlex.split(t)
    low = t.lower()
    if q.kind == "int":
        try:
            return str(int(t))
        except ValueError:
            raise IllegalAction(f"{q.ask} takes a whole number, got {t!r}.") from None
    if q.kind == "yesno":
        if low in ("yes", "y", "no", "n"):
            return "yes" if low.startswith("y") else "no"
        raise IllegalAction(f"{q.ask} takes yes or no.")
    if q.kind == "dice":
        return parse_spec(t).text
    if q.kind == "response":
        if len(words) not in (1, 3) or (len(words) == 3 and words[1].lower() != "drm"):
            raise IllegalAction("The response is written `DICE [drm N]` (or a fixed number instead of dice).")
        base = words[0]
        base = str(int(base)) if base.lstrip("+-").isdigit() else parse_spec(base).text
        drm = int(words[2]) if len(words) == 3 else 0
        return f"{base} {drm}"
    if q.kind == "cards":
        try:
            a, b = (int(w) for w in words)
        except ValueError:
            raise IllegalAction("Write the two DRMs from played Quick/Slow Maneuver cards: mover then target (e.g. `0 -1`).") from None
        return f"{a} {b}"
    if q.kind == "hazards":
        return _hazards(words)
    if q.kind == "order":
        if sorted(w.lower() for w in words) != sorted(q.choices):
            raise IllegalAction(f"Put these in the order you choose, each once: {' '.join(q.choices)}.")
        return " ".join(w.lower() for w in words)
    if q.kind == "box":
        if low in ("stay", OFF, "aground"):
            return low
        name = state.grid.name(t)
        if name is None:
            raise IllegalAction(f"{t!r} is not a Grid Box of this map ({state.grid.extent}).",
                                "Answer a Grid Box, `stay`, `off` (it leaves the map) or `aground` (on a marked bank).")
        return name
    if q.kind == "sunk":
        if low == "none":
            return "none"
        ids = {s.id.lower(): s.id for s in state.ships}
        names = [ids.get(w.lower()) for w in words]
        if not names or None in names:
            raise IllegalAction("Answer `none`, or the name(s) of the ship(s) that sank.")
        return " ".join(n for n in names if n)
    if not t:
        raise IllegalAction("The answer is empty.")
    return t


def _hazards(words: list[str]) -> str:
    """`none`, or the hazards in the order the opponent chooses: shoal N, hulk, obstruction, heavy, mine."""
    if [w.lower() for w in words] == ["none"]:
        return "none"
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        if w == "shoal":
            if i + 1 >= len(words) or not words[i + 1].isdigit():
                raise IllegalAction("`shoal` is followed by the Shoal Depth, e.g. `shoal 2`.")
            out.append(f"shoal:{int(words[i + 1])}")
            i += 2
            continue
        if w not in ("hulk", "obstruction", "heavy", "mine"):
            raise IllegalAction(f"{words[i]!r} is not a hazard.", "Hazards: shoal N, hulk, obstruction, heavy (obstruction), mine; or none.")
        out.append(w)
        i += 1
    if not out:
        raise IllegalAction("Name the hazards, or answer none.")
    return " ".join(out)
