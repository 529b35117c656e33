"""A finished game's summary for its chronicle card: turns, Strike Points, ships lost and each side's
dice luck, read from the final state and the whole log. Pure: the service adds the duration and the
verify status (game/service/chronicle.py), render/summary_card.py draws it.

Dice luck is successes rolled minus successes expected: each roll a side made (every DiceRolled, and
the dice a re-roll threw again) counts its successes against the dice thrown times the chance one die
succeeds for that kind of roll (the die's sides in the rules data). +1.5 means a side rolled one and a
half more hits than the dice promised on average; it says nothing of how well anyone played. It is
only computed once the game is over: before that the faces a player alone saw could leak.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from game import events as ev
from game.model import Game, Phase, Status
from game.rules_data import Die

LOST = frozenset({Status.SUNK, Status.CAPTURED, Status.REMOVED, Status.LEFT_TABLE, Status.OUT_OF_ACTION})


@dataclass(frozen=True)
class SideSummary:
    side: str  # a player, or a fleet battle's team
    strike_points: int
    ships: int
    lost: int
    rolled: int  # successes rolled
    expected: float  # successes the dice promised on average
    dice: int

    @property
    def luck(self) -> float:
        return round(self.rolled - self.expected, 1)


@dataclass(frozen=True)
class Summary:
    name: str
    turns: int
    winner: str | None
    result: str
    sides: tuple[SideSummary, ...]


@dataclass(frozen=True)
class CardText:
    """What the card says beyond the summary: the figures the service adds."""

    title: str
    duration: str
    members: Mapping[str, tuple[str, ...]]
    verified: bool
    game_id: int


def chance(die: Die, kind: str) -> float | None:
    """The chance one die succeeds for a kind of roll; None for a kind the die does not know."""
    wanted = die.success.get(kind)
    if wanted is None or not die.sides:
        return None
    return sum(1 for s in die.sides if s in wanted) / len(die.sides)


def summarise(final: Game, logged: Iterable[Any], die: Die) -> Summary:
    """The summary of a finished game (ValueError before its end: the dice stay private till then)."""
    if final.phase is not Phase.OVER:
        raise ValueError("a game is summarised once it is over")
    rolled: dict[str, int] = {}
    expected: dict[str, float] = {}
    dice: dict[str, int] = {}
    for e in logged:
        if isinstance(e, ev.DiceRolled):
            # its faces are the dice thrown now (a check's kept dice are listed apart)
            thrown, kind, player = len(e.faces), e.kind, e.player
            got = die.successes(kind, e.faces) if kind in die.success else 0
        elif isinstance(e, ev.DiceRerolled):
            thrown, kind, player = len(e.positions), e.kind, e.player
            got = die.successes(kind, tuple(e.faces[i] for i in e.positions if i < len(e.faces))) \
                if kind in die.success else 0
        else:
            continue
        p = chance(die, kind)
        if p is None or not player or thrown <= 0:
            continue  # a roll of no side (the sea's), or of a kind the die cannot score
        side = final.team_of(player)
        rolled[side] = rolled.get(side, 0) + got
        expected[side] = expected.get(side, 0.0) + thrown * p
        dice[side] = dice.get(side, 0) + thrown
    points = dict(final.strike_points)
    sides = []
    for side in final.teams:
        ships = [s for s in final.ships if final.team_of(s.owner) == side]
        sides.append(SideSummary(
            side=side, strike_points=points.get(side, sum(points.get(p, 0) for p in final.players_of(side))),
            ships=len(ships), lost=sum(1 for s in ships if s.statuses & LOST),
            rolled=rolled.get(side, 0), expected=round(expected.get(side, 0.0), 2), dice=dice.get(side, 0)))
    return Summary(final.name, final.turn, final.winner, final.result, tuple(sides))


def luck_text(luck: float) -> str:
    if abs(luck) < 0.05:
        return "±0.0 (as the dice promised)"
    return f"{luck:+.1f} ({'luckier' if luck > 0 else 'unluckier'} than average)"


def turns_text(n: int) -> str:
    return f"{n} turn{'' if n == 1 else 's'}"
