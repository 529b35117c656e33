"""Dice for the referee-assistant systems: the notations their play aids use, every roll an event.

    2d6, 2d6+3, d6-1      NdS: the sum of N dice of S sides, plus a modifier
    d10d8, d10d6+1        a keep-highest pool: one die of each size, keep the highest (Iron & Oak)
    d10                   one die

Faces come only from a `game.dice.DiceSource` (numeric dice are the sides "1".."S"), so the
project's play dice, verifiable dice and test dice all serve these systems unchanged. Every roll
is written into a `DiceRolled` event with its faces: a replay never rolls again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from game.dice import DiceSource
from game.errors import ParseError

MAX_DICE = 60  # more than any table here asks for; a typo like 600d6 is refused, not rolled
MAX_SIDES = 100


@cache
def numeric_sides(sides: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(1, sides + 1))


@dataclass(frozen=True)
class DiceSpec:
    """What to roll. `pool` lists one die size per die; `keep` says how they combine."""

    pool: tuple[int, ...]
    keep: str = "sum"  # sum | highest
    modifier: int = 0

    @property
    def text(self) -> str:
        if self.keep == "highest":
            base = "".join(f"d{s}" for s in self.pool)
        elif len(self.pool) == 1:
            base = f"d{self.pool[0]}"
        else:
            base = f"{len(self.pool)}d{self.pool[0]}"
        return base + (f"{self.modifier:+d}" if self.modifier else "")

    def with_modifier(self, modifier: int) -> DiceSpec:
        return DiceSpec(self.pool, self.keep, modifier)


_SUM = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")
_POOL = re.compile(r"^((?:d\d+){2,})([+-]\d+)?$")


def parse_spec(text: str) -> DiceSpec:
    """`2d6`, `d6+1`, `d10d8`, `d10d4-2` -> a DiceSpec; anything else is a ParseError."""
    t = text.strip().lower().replace(" ", "").replace("−", "-")
    m = _POOL.match(t)
    if m:
        pool = tuple(int(s) for s in re.findall(r"d(\d+)", m.group(1)))
        _check_sides(pool, text)
        return DiceSpec(pool, "highest", int(m.group(2) or 0))
    m = _SUM.match(t)
    if m:
        n = int(m.group(1) or 1)
        sides = int(m.group(2))
        if not 1 <= n <= MAX_DICE:
            raise ParseError(f"{text!r} rolls {n} dice.", f"Roll from 1 to {MAX_DICE} dice at a time.")
        _check_sides((sides,), text)
        return DiceSpec((sides,) * n, "sum", int(m.group(3) or 0))
    raise ParseError(
        f"{text!r} is not a dice notation.",
        "Write NdS (2d6, d6+1) or a keep-highest pool such as d10d8.",
    )


def _check_sides(pool: tuple[int, ...], text: str) -> None:
    bad = [s for s in pool if not 2 <= s <= MAX_SIDES]
    if bad:
        raise ParseError(f"{text!r} has a die of {bad[0]} sides.", f"Dice have 2 to {MAX_SIDES} sides.")


@dataclass(frozen=True)
class DiceRolled:
    """One roll as it fell. `kept` is the sum or the highest face; `total` adds the modifier."""

    purpose: str
    notation: str
    faces: tuple[int, ...]
    sides: tuple[int, ...]  # the size of each die, in the order of `faces`
    kept: int
    modifier: int
    total: int
    colours: tuple[str, ...] = ()  # one per die for coloured rolls, else empty
    by: str = ""  # the player the roll belongs to, when it matters
    keep: str = "sum"  # sum | highest


def roll_faces(dice: DiceSource, pool: tuple[int, ...]) -> tuple[int, ...]:
    """One face per die in the pool; dice of the same size are asked for together."""
    faces: list[int] = [0] * len(pool)
    for size in dict.fromkeys(pool):
        where = [i for i, s in enumerate(pool) if s == size]
        got = dice.roll(len(where), numeric_sides(size))
        if len(got) != len(where):
            raise RuntimeError(f"the dice source gave {len(got)} faces for {len(where)} d{size}")
        for i, face in zip(where, got, strict=True):
            faces[i] = _face_value(face, size)
    return tuple(faces)


def _face_value(face: str, size: int) -> int:
    try:
        value = int(face)
    except ValueError:
        raise RuntimeError(f"the dice source gave {face!r} for a d{size}") from None
    if not 1 <= value <= size:
        raise RuntimeError(f"the dice source gave {face!r} for a d{size}")
    return value


def roll(dice: DiceSource, spec: DiceSpec, purpose: str, by: str = "") -> DiceRolled:
    faces = roll_faces(dice, spec.pool)
    kept = max(faces) if spec.keep == "highest" else sum(faces)
    return DiceRolled(purpose, spec.text, faces, spec.pool, kept, spec.modifier, kept + spec.modifier, by=by,
                      keep=spec.keep)


def roll_coloured(
    dice: DiceSource, groups: tuple[tuple[str, int, int], ...], purpose: str, by: str = ""
) -> DiceRolled:
    """Dice told apart by colour, e.g. (("white", 2, 6), ("red", 1, 6)): two white d6 and a red d6.
    `kept` is the sum of all faces; callers read the colours they need with `coloured`."""
    pool: list[int] = []
    colours: list[str] = []
    for colour, n, size in groups:
        pool.extend([size] * n)
        colours.extend([colour] * n)
    faces = roll_faces(dice, tuple(pool))
    notation = " + ".join(f"{n}d{size} {colour}" for colour, n, size in groups)
    return DiceRolled(purpose, notation, faces, tuple(pool), sum(faces), 0, sum(faces), tuple(colours), by)


def coloured(r: DiceRolled, colour: str) -> tuple[int, ...]:
    return tuple(f for f, c in zip(r.faces, r.colours, strict=True) if c == colour)


@dataclass(frozen=True)
class Opposed:
    """A Challenge against a Response (Iron & Oak): both kept dice after their modifiers.

    The challenger succeeds only on a strictly higher result; a tie fails (the reviews' "equal or
    less is a miss", not the rulebook: inferred). `response_triple` is Response ≥ 3 × Challenge."""

    challenge: int
    response: int

    @property
    def success(self) -> bool:
        return self.challenge > self.response

    @property
    def challenge_double(self) -> bool:
        return self.challenge >= 2 * self.response

    @property
    def challenge_triple(self) -> bool:
        return self.challenge >= 3 * self.response

    @property
    def response_double(self) -> bool:
        return self.response >= 2 * self.challenge

    @property
    def response_triple(self) -> bool:
        return self.response >= 3 * self.challenge

    def flags(self) -> str:
        if self.response_triple:
            return "response ×3"
        if self.challenge_triple:
            return "challenge ×3"
        if self.response_double:
            return "response ×2"
        if self.challenge_double:
            return "challenge ×2"
        return ""
