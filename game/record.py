"""A captain's record from one finished game: the pure part of /captain (docs/records.md).

From a game's event log, its initial state and who held each seat, `game_figures` gives each
player's result, ships, enemy ships sunk and captured, and their dice: every die they rolled for a
hit or a test they wanted to pass, grouped by its chance of success. Groups from many games merge
(`DiceTally.merge`), and `luck` compares the successes seen with those fair dice would give.

Only a finished game may be passed in: while a game runs its dice are secret (the seed is not
revealed, and a roll's faces would say something about a hand), so the service never counts one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from game import events as ev
from game.model import Game, Status
from game.rules_data import Die

# Roll kinds whose successes the roller wants: a hit, or a test passed. Other rolls (a critical
# against the target, sinking, collisions) mean different things to the roller, so they are left
# out rather than counted as good or bad luck.
HIT_KINDS = ("hit_", "close_combat_")
TEST_KINDS = frozenset({"skill_test", "challenge_test"})
# At most this many dice the tail chance is computed exactly (the Poisson-binomial distribution, by
# convolving one binomial per chance of success); beyond it, a normal approximation with continuity
# correction, whose error is then far below the precision shown.
EXACT_UP_TO = 1000


@dataclass(frozen=True)
class DiceTally:
    """Dice grouped by chance of success: (chance, dice rolled, successes seen)."""

    groups: tuple[tuple[Fraction, int, int], ...] = ()

    @property
    def dice(self) -> int:
        return sum(n for _, n, _ in self.groups)

    @property
    def successes(self) -> int:
        return sum(k for _, _, k in self.groups)

    def merge(self, other: DiceTally) -> DiceTally:
        out: dict[Fraction, tuple[int, int]] = {}
        for p, n, k in (*self.groups, *other.groups):
            n0, k0 = out.get(p, (0, 0))
            out[p] = (n0 + n, k0 + k)
        return DiceTally(tuple((p, n, k) for p, (n, k) in sorted(out.items())))


@dataclass(frozen=True)
class Luck:
    dice: int
    observed: int
    expected: float
    chance: float  # of fair dice giving at least `observed` successes: small means lucky
    method: str  # exact | normal | none (no dice)


def luck(tally: DiceTally) -> Luck:
    expected = float(sum(p * n for p, n, _ in tally.groups))
    n, k = tally.dice, tally.successes
    if n == 0:
        return Luck(0, 0, 0.0, 1.0, "none")
    if n <= EXACT_UP_TO:
        dist = [1.0]
        for p, m, _ in tally.groups:
            pf = float(p)
            pmf = [math.comb(m, i) * pf**i * (1 - pf) ** (m - i) for i in range(m + 1)]
            dist = _convolve(dist, pmf)
        return Luck(n, k, expected, min(1.0, sum(dist[k:])), "exact")
    variance = float(sum(p * (1 - p) * m for p, m, _ in tally.groups))
    if variance == 0:
        return Luck(n, k, expected, 1.0 if k <= expected else 0.0, "normal")
    z = (k - 0.5 - expected) / math.sqrt(variance)
    return Luck(n, k, expected, 0.5 * math.erfc(z / math.sqrt(2)), "normal")


def _convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


@dataclass(frozen=True)
class PlayerGame:
    """One player's part in one finished game."""

    player: str
    member: str
    result: str  # win | draw | loss
    opponents: tuple[str, ...]  # the members on the other side
    ships: tuple[str, ...]  # the classes of the ships they brought
    sunk: int  # enemy ships sunk
    captured: int  # enemy ships they took
    lost: int  # their own ships sunk or taken
    hits: DiceTally = field(default_factory=DiceTally)
    tests: DiceTally = field(default_factory=DiceTally)


def game_figures(initial: Game, final: Game, events: Iterable[Any], seats: Mapping[str, str],
                 die: Die) -> list[PlayerGame]:
    """Each seated player's figures. `seats` maps a player to the member who held the seat at the end
    (a computer captain's seat names `ai:…`); `final` is the state after the last event."""
    # ships sunk and taken are read from the final state, not the events: an undone sinking is no sinking
    sunk: dict[str, set[str]] = {}  # ships sunk, by owner
    taken: dict[str, set[str]] = {}  # ships held by a captor at the end, by the captor
    for s in final.ships:
        if Status.SUNK in s.statuses:
            sunk.setdefault(s.owner, set()).add(s.id)
        elif s.controller and s.controller != s.owner and not final.allied(s.controller, s.owner):
            taken.setdefault(s.controller, set()).add(s.id)
    owner = {s.id: s.owner for s in final.ships}
    # every die rolled counts, undone or not: each was a fair draw whatever became of it
    hits: dict[str, dict[Fraction, list[int]]] = {}
    tests: dict[str, dict[Fraction, list[int]]] = {}
    for e in events:
        if isinstance(e, ev.DiceRolled):
            _count(hits, tests, die, e.player, e.kind, e.faces, e.successes)
        elif isinstance(e, ev.DiceRerolled):
            new = tuple(e.faces[i] for i in e.positions)
            _count(hits, tests, die, e.player, e.kind, new, die.successes(e.kind, new) if e.kind in die.success else -1)
    out = []
    for q in final.squadrons:
        member = seats.get(q.player)
        if member is None:
            continue
        side = final.team_of(q.player)
        result = "draw" if final.winner is None else "win" if final.winner in (side, q.player) else "loss"
        enemies = [p for p in final.players if not final.allied(p, q.player)]
        out.append(PlayerGame(
            q.player, member, result,
            tuple(sorted({seats[p] for p in enemies if p in seats})),
            tuple(sorted(s.cls for s in initial.ships if s.owner == q.player)),
            sum(len(sunk.get(p, ())) for p in enemies),
            len(taken.get(q.player, ())),
            len(sunk.get(q.player, ())) + sum(1 for ships in taken.values() for s in ships if owner[s] == q.player),
            _tally(hits.get(q.player, {})), _tally(tests.get(q.player, {}))))
    return out


def _count(hits: dict[str, dict[Fraction, list[int]]], tests: dict[str, dict[Fraction, list[int]]], die: Die,
           player: str, kind: str, faces: tuple[str, ...], successes: int) -> None:
    if not player or not faces or kind not in die.success:
        return
    wanted = die.success[kind]
    if successes != sum(1 for f in faces if f in wanted):
        return  # an effect counted other faces: the chance is not the die's for this kind, leave it out
    if kind.startswith(HIT_KINDS):
        book = hits
    elif kind in TEST_KINDS:
        book = tests
    else:
        return
    p = Fraction(sum(1 for s in die.sides if s in wanted), len(die.sides))
    entry = book.setdefault(player, {}).setdefault(p, [0, 0])
    entry[0] += len(faces)
    entry[1] += successes


def _tally(groups: Mapping[Fraction, list[int]]) -> DiceTally:
    return DiceTally(tuple((p, n, k) for p, (n, k) in sorted(groups.items())))


@dataclass(frozen=True)
class Turnout:
    """One member's activations in one game: played themselves, or played for them (a GM, a stand-in
    or the computer captain, past a deadline or while away), and how long each of their answers took."""

    played: int = 0
    covered: int = 0
    responses: tuple[float, ...] = ()  # seconds from the last other command to theirs


def turnout(rows: Iterable[tuple[int, str, datetime, Any]], seats: Mapping[str, str]) -> dict[str, Turnout]:
    """From (command, actor, time, event) rows in log order. An activation counts as covered when its
    command says another acted for the seat (ActedFor) or was given by someone other than the member."""
    member_of = dict(seats)
    played: dict[str, int] = {}
    covered: dict[str, int] = {}
    responses: dict[str, list[float]] = {}
    last_other: tuple[str, datetime] | None = None  # actor and time of the previous command
    command: int | None = None
    acted_for: set[str] = set()
    for cmd, actor, when, e in rows:
        if cmd != command:
            if last_other is not None and actor != last_other[0] and actor in member_of.values():
                responses.setdefault(actor, []).append((when - last_other[1]).total_seconds())
            command, acted_for = cmd, set()
        last_other = (actor, when)
        if isinstance(e, ev.ActedFor):
            acted_for.add(e.player)
        elif isinstance(e, ev.ActivationBegan):
            member = member_of.get(e.activation.player)
            if member is None:
                continue
            book = covered if e.activation.player in acted_for or actor != member else played
            book[member] = book.get(member, 0) + 1
    return {m: Turnout(played.get(m, 0), covered.get(m, 0), tuple(responses.get(m, ())))
            for m in set(member_of.values())}
