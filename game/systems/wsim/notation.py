"""WS&IM command lines <-> commands, both ways (docs/systems/wsim.md).

    plot Victory L1R2 | plot Victory 0 (A)         board Victory OBP1,2 Redoutable DBP3 | board Victory NBP
    load Victory left DS                           repair Victory hull|rigging|stop
    sails Victory full|battle                      heading Victory 4
    fire Victory left Redoutable range 2 [aim hull|rigging] [half] [rake bow|stern] [mod -1]
    hits 3 2H1C1R      mark Victory 1H2C          collide|unfoul|ungrapple Victory Redoutable
    grapple Victory Redoutable [motionless 1]     melee Victory Redoutable     blast Orient Victory Swiftsure
    roll 2d6 [for …]   printed rake Bow 2 = 4     next [F]     end [reason]
"""

from __future__ import annotations

import re
from typing import Any

from game.errors import ParseError
from game.systems.common import format_line, read_line, resolve_name
from game.systems.wsim import commands as c
from game.systems.wsim.fire import parse_hits
from game.systems.wsim.model import AMMO, SIDES, Party, WsimGame
from game.systems.wsim.plot import parse_moves, parse_notes
from game.tokens import quote

VERBS = (
    "plot", "board", "load", "repair", "sails", "heading", "fire", "hits", "mark", "collide", "unfoul", "grapple",
    "ungrapple", "melee", "blast", "roll", "printed", "next", "end",
)
_PARTY = re.compile(r"^(OBP|DBP|TBP)(\d(?:,\d)*)$", re.IGNORECASE)


def parse(line: str, state: WsimGame | None = None) -> Any:
    t, verb, shared = read_line(line, VERBS)
    if shared is not None:
        return shared

    ids = tuple(s.id for s in state.ships) if state is not None else None

    def ship() -> str:
        return t.name(ids)

    p = t.player
    if verb == "plot":
        name = ship()
        moves = "".join(parse_moves(t.take("the moves (e.g. L1R2, or 0)")))
        notes = parse_notes(t.rest())
        return c.Plot(name, moves, notes, p)
    if verb == "board":
        name = ship()
        return c.Board(name, parse_parties(t.rest(), state), p)
    if verb == "load":
        name = ship()
        side = t.take_choice("a broadside", SIDES)
        ammo = t.take("the ammunition").upper()
        if ammo not in AMMO:
            raise ParseError(f"{ammo!r} is not a load.", "Loads: R (round), DS (double), C (chain), G (grape).")
        t.end()
        return c.Load(name, side, ammo, p)
    if verb == "repair":
        name = ship()
        kind = t.take("hull, rigging or stop").lower()
        if kind in ("gun", "guns"):
            raise ParseError("Gun repairs are not available with the Casus Belli Fire rules.", "Repair hull or rigging.")
        if kind not in ("hull", "rigging", "stop"):
            raise ParseError(f"Expected hull, rigging or stop, got {kind!r}.")
        t.end()
        return c.Repair(name, kind, p)
    if verb == "sails":
        name = ship()
        setting = t.take_choice("full or battle", ("full", "battle"))
        t.end()
        return c.Sails(name, setting, p)
    if verb == "heading":
        name = ship()
        h = t.take_int("a heading 1-6")
        t.end()
        return c.SetHeading(name, h, p)
    if verb == "fire":
        name = ship()
        side = t.take_choice("a broadside", SIDES)
        target = ship()
        t.take_choice("`range`", ("range",))
        rng = t.take_int("the range in hexes")
        aim, half, rake, mod = "", False, "", 0
        while not t.done():
            word = t.take("an option").lower()
            if word == "aim":
                aim = t.take_choice("hull or rigging", ("hull", "rigging"))
            elif word == "half":
                half = True
            elif word == "rake":
                rake = t.take_choice("bow or stern", ("bow", "stern"))
            elif word == "mod":
                mod = t.take_int("a modifier")
            else:
                raise ParseError(f"Did not understand {word!r} in {line!r}.", "Options: aim hull|rigging, half, rake bow|stern, mod N.")
        return c.FireBroadside(name, side, target, rng, aim, half, rake, mod, p)
    if verb == "hits":
        n = t.take_int("the fire number")
        hits = parse_hits("".join(t.rest()) or "").text()
        return c.EnterHits(n, hits, p)
    if verb == "mark":
        name = ship()
        return c.Mark(name, parse_hits("".join(t.rest())).text(), p)
    if verb in ("collide", "unfoul", "ungrapple", "melee"):
        a, b = ship(), ship()
        t.end()
        cls = {"collide": c.Collide, "unfoul": c.Unfoul, "ungrapple": c.Ungrapple}.get(verb)
        return cls(a, b, p) if cls is not None else c.MeleeAttack(a, b, p)
    if verb == "grapple":
        a, b = ship(), ship()
        still = 0
        if not t.done():
            t.take_choice("`motionless`", ("motionless",))
            still = t.take_int("the number of motionless ships")
        t.end()
        return c.Grapple(a, b, still, p)
    if verb == "blast":
        name = ship()
        targets = []
        while not t.done():
            targets.append(ship())
        if not targets:
            raise ParseError("blast names the exploding ship, then every ship adjacent to it.")
        return c.Blast(name, tuple(targets), p)
    raise ParseError(f"Unknown command {verb!r}.", f"Commands: {', '.join(VERBS)}.")


def parse_parties(words: list[str], state: WsimGame | None) -> tuple[Party, ...]:
    if [w.upper() for w in words] == ["NBP"]:
        return ()
    if not words:
        raise ParseError("board needs boarding parties or NBP.", "e.g. `board Victory OBP1,2 Redoutable DBP3`.")
    parties: list[Party] = []
    i = 0
    while i < len(words):
        m = _PARTY.match(words[i])
        if m is None:
            raise ParseError(f"{words[i]!r} is not a boarding party.", "Parties: OBP, DBP, TBP plus crew sections (OBP1,2), or NBP.")
        kind, sections = m.group(1).upper(), tuple(int(x) for x in m.group(2).split(","))
        i += 1
        target = ""
        if kind in ("OBP", "TBP"):
            if i >= len(words) or _PARTY.match(words[i]):
                raise ParseError(f"{kind} needs the ship it boards or joins.", f"e.g. `{kind}{m.group(2)} Redoutable`.")
            target = words[i]
            if state is not None:
                target = resolve_name(target, tuple(s.id for s in state.ships), "ship")
            i += 1
        parties.append(Party(kind, sections, target))
    return tuple(parties)


def format_parties(parties: tuple[Party, ...]) -> str:
    if not parties:
        return "NBP"
    return " ".join(
        f"{p.kind}{','.join(str(s) for s in p.sections)}" + (f" {quote(p.target)}" if p.target else "") for p in parties
    )


def format_command(cmd: Any) -> str:
    return format_line(cmd, _format)


def _format(cmd: Any) -> str:
    q = quote
    match cmd:
        case c.Plot():
            return " ".join(["plot", q(cmd.ship), cmd.moves, *cmd.notes])
        case c.Board():
            return f"board {q(cmd.ship)} {format_parties(cmd.parties)}"
        case c.Load():
            return f"load {q(cmd.ship)} {cmd.side} {cmd.ammo}"
        case c.Repair():
            return f"repair {q(cmd.ship)} {cmd.kind}"
        case c.Sails():
            return f"sails {q(cmd.ship)} {cmd.setting}"
        case c.SetHeading():
            return f"heading {q(cmd.ship)} {cmd.heading}"
        case c.FireBroadside():
            words = ["fire", q(cmd.ship), cmd.side, q(cmd.target), "range", str(cmd.range)]
            if cmd.aim:
                words += ["aim", cmd.aim]
            if cmd.half:
                words.append("half")
            if cmd.rake:
                words += ["rake", cmd.rake]
            if cmd.mod:
                words += ["mod", f"{cmd.mod:+d}"]
            return " ".join(words)
        case c.EnterHits():
            return f"hits {cmd.number} {cmd.hits}"
        case c.Mark():
            return f"mark {q(cmd.ship)} {cmd.hits}"
        case c.Collide() | c.Unfoul() | c.Ungrapple() | c.MeleeAttack():
            verb = {c.Collide: "collide", c.Unfoul: "unfoul", c.Ungrapple: "ungrapple", c.MeleeAttack: "melee"}[type(cmd)]
            return f"{verb} {q(cmd.ship)} {q(cmd.other if not isinstance(cmd, c.MeleeAttack) else cmd.target)}"
        case c.Grapple():
            return f"grapple {q(cmd.ship)} {q(cmd.other)}" + (f" motionless {cmd.motionless}" if cmd.motionless else "")
        case c.Blast():
            return " ".join(["blast", q(cmd.ship), *(q(x) for x in cmd.targets)])
    raise TypeError(f"not a WS&IM command: {cmd!r}")
