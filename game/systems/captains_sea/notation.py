"""Captain's Sea command lines <-> commands (docs/systems/captains_sea.md).

    initiative US               bearing Constitution C      hull Constitution
    impulses Constitution 1 4 7 10 | impulses Constitution none
    maneuver Constitution turn-port                          (secret)
    fire Constitution Guerriere hits 5 high [leeward|windward] [mod -1]
    offset high N | offset low N                             (the referee's reading of rule 11's base rows)
    morale Guerriere failed|passed       crew Guerriere handy|normal|unfit      crew Guerriere status 2
    mp A D                                                   (a look-up: initiative bearing, other bearing)
    roll 3d6 [for …]    printed fire_check_red ≥11 6 = yes    next    end
"""

from __future__ import annotations

import re
from typing import Any

from game.errors import ParseError
from game.systems.captains_sea import commands as c
from game.systems.captains_sea.model import BEARINGS, IMPULSES, MORALES, CSGame
from game.systems.common import as_int, format_line, read_line
from game.tokens import quote

VERBS = ("initiative", "bearing", "hull", "impulses", "maneuver", "fire", "offset", "morale", "crew", "mp",
         "roll", "printed", "next", "end")
_MANEUVER = re.compile(r"^[\w][\w'-]{0,29}$")


def _bearing(word: str) -> str:
    b = word.upper()
    if b not in BEARINGS:
        raise ParseError(f"{word!r} is not a bearing.", "Bearings run A to H.")
    return b


def parse(line: str, state: CSGame | None = None) -> Any:
    t, verb, shared = read_line(line, VERBS)
    if shared is not None:
        return shared
    p = t.player

    ids = tuple(s.id for s in state.ships) if state is not None else None

    def ship() -> str:
        return t.name(ids)

    if verb == "initiative":
        winner = t.name(state.players if state is not None else None, "player")
        t.end()
        return c.SetInitiative(winner, p)
    if verb == "bearing":
        name = ship()
        b = _bearing(t.take("a bearing A-H"))
        t.end()
        return c.SetBearing(name, b, p)
    if verb == "hull":
        name = ship()
        t.end()
        return c.HullBonus(name, p)
    if verb == "impulses":
        name = ship()
        words = t.rest()
        if [w.lower() for w in words] == ["none"]:
            return c.MarkImpulses(name, (), p)
        marks = tuple(sorted(as_int(w, "an impulse") for w in words))
        if not marks:
            raise ParseError("impulses lists the impulses marked (1-12), or none.")
        if any(not 1 <= m <= IMPULSES for m in marks) or len(set(marks)) != len(marks):
            raise ParseError(f"Impulses run 1 to {IMPULSES}, each marked once.")
        return c.MarkImpulses(name, marks, p)
    if verb == "maneuver":
        name = ship()
        m = t.take("the maneuver")
        t.end()
        if not _MANEUVER.match(m):
            raise ParseError(f"{m!r} is not a maneuver name.", "One word of letters, digits, - or ' (up to 30).")
        return c.ChooseManeuver(name, m, p)
    if verb == "fire":
        name, target = ship(), ship()
        t.take_choice("`hits`", ("hits",))
        hits = t.take_int("the hits achieved")
        aim = t.take_choice("high or low", ("high", "low"))
        wind, mod = "", 0
        while not t.done():
            word = t.take("an option").lower()
            if word in ("leeward", "windward"):
                wind = word
            elif word == "mod":
                mod = t.take_int("a modifier")
            else:
                raise ParseError(f"Did not understand {word!r} in {line!r}.", "Options: leeward | windward, mod N.")
        return c.FireAt(name, target, hits, aim, wind, mod, p)
    if verb == "offset":
        aim = t.take_choice("high or low", ("high", "low"))
        n = t.take_int("the row offset")
        t.end()
        return c.SetOffset(aim, n, p)
    if verb == "morale":
        name = ship()
        result = t.take_choice("failed or passed", ("failed", "passed"))
        t.end()
        return c.MoraleOutcome(name, result == "failed", p)
    if verb == "crew":
        name = ship()
        word = t.take("handy, normal, unfit or status N").lower()
        if word == "status":
            n = t.take_int("the Crew Status space")
            t.end()
            return c.SetCrew(name, "", n, p)
        if word not in MORALES:
            raise ParseError(f"Expected handy, normal, unfit or status N, got {word!r}.")
        t.end()
        return c.SetCrew(name, word, -1, p)
    if verb == "mp":
        a, b = _bearing(t.take("the initiative bearing")), _bearing(t.take("the other bearing"))
        t.end()
        return c.LookupMP(a, b, p)
    raise ParseError(f"Unknown command {verb!r}.", f"Commands: {', '.join(VERBS)}.")


def format_command(cmd: Any) -> str:
    return format_line(cmd, _format)


def _format(cmd: Any) -> str:
    q = quote
    match cmd:
        case c.SetInitiative():
            return f"initiative {q(cmd.winner)}"
        case c.SetBearing():
            return f"bearing {q(cmd.ship)} {cmd.bearing}"
        case c.HullBonus():
            return f"hull {q(cmd.ship)}"
        case c.MarkImpulses():
            return f"impulses {q(cmd.ship)} " + (" ".join(map(str, cmd.impulses)) or "none")
        case c.ChooseManeuver():
            return f"maneuver {q(cmd.ship)} {cmd.maneuver}"
        case c.FireAt():
            words = ["fire", q(cmd.ship), q(cmd.target), "hits", str(cmd.hits), cmd.aim]
            if cmd.wind:
                words.append(cmd.wind)
            if cmd.mod:
                words += ["mod", f"{cmd.mod:+d}"]
            return " ".join(words)
        case c.SetOffset():
            return f"offset {cmd.aim} {cmd.value}"
        case c.MoraleOutcome():
            return f"morale {q(cmd.ship)} {'failed' if cmd.failed else 'passed'}"
        case c.SetCrew():
            return f"crew {q(cmd.ship)} " + (cmd.morale if cmd.morale else f"status {cmd.status}")
        case c.LookupMP():
            return f"mp {cmd.initiative_bearing} {cmd.other_bearing}"
    raise TypeError(f"not a Captain's Sea command: {cmd!r}")
