"""Dice anyone can check. Each game draws a secret seed; its SHA-256 (the commitment) is published when
the game starts and the seed itself when it ends. With the seed, every die in the log can be
recomputed: a roll event records where its dice start within its decision (`at`), and the decision's
key is the log position it started at, which a replay of the log gives back.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from game import events as ev
from game.apply import apply
from game.dice import SEED_BYTES, FairDice, die_index, is_seed
from game.model import Game
from game.phases.preparation import draw_setup_cards
from game.rules_data import RulesData


def new_seed() -> str:
    """A game's secret dice seed: 256 bits from the operating system's secure source."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """What is published before the first roll: it binds the game to its seed without showing it."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


@dataclass(frozen=True)
class Verification:
    rolls: int  # roll events recomputed and found to match
    dice: int  # dice recomputed
    unrecorded: int  # rolls of an older game made before dice were verifiable: not checked
    mismatches: tuple[str, ...]
    older_seed: int = 0  # the readable seed number an older game began with (0: a game with secret dice)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def summary(self) -> str:
        if not self.ok:
            shown = "; ".join(self.mismatches[:3]) + (f"; and {len(self.mismatches) - 3} more" if len(self.mismatches) > 3 else "")
            return f"❌ {len(self.mismatches)} problem(s) in the dice record: {shown}."
        if self.unrecorded:  # never counted as matching: said apart, with the claim it rests on
            return (f"⚠️ {self.rolls} rolls ({self.dice} dice) match the seed; {self.unrecorded} older rolls were "
                    "not checked: the log records a game begun before verifiable dice (with the readable seed "
                    f"number {self.older_seed}). If a SHA-256 was posted when this game began, this is not its log.")
        return f"✅ All {self.rolls} rolls ({self.dice} dice) match the seed."


def verify_log(initial: Game, log: Iterable[tuple[int, Any]], seed: str, rules: RulesData,
               published: str | None = None) -> Verification:
    """Recompute every roll of a game from its log: (command number, event) pairs in log order.
    `published` is the commitment announced at the start, checked against the seed first.

    A roll without a position cannot be checked, so it is a problem, except in a game whose starting
    state records that it began before verifiable dice (the readable seed number such games were
    created with; every game since starts with 0 and keeps its seed secret), and there only before
    its first checkable roll: a game turned verifiable once, when the bot was upgraded."""
    problems: list[str] = []
    if not is_seed(seed):
        return Verification(0, 0, 0, ("the seed is not 64 hexadecimal digits",))
    if published is not None and commitment(seed) != published:
        problems.append("the seed does not match the SHA-256 published when the game began")
    sides = rules.die.sides
    state = initial
    older = initial.seed != 0
    rolls = dice = unrecorded = 0
    checked = False  # a roll with a position has been seen: every later one must have one too
    command: int | None = None
    position = next_die = 0
    for seq, (cmd, event) in enumerate(log, start=1):
        if cmd != command:
            command, position, next_die = cmd, state.log_position, 0
        if isinstance(event, ROLL_EVENTS):
            name = type(event).__name__
            if event.at < 0 and older and not checked:
                unrecorded += 1
            elif event.at < 0:
                problems.append(f"event {seq} ({name}) carries no dice position, so it cannot be checked")
            elif (wrong := _positions_outside(event)) is not None:
                problems.append(f"event {seq} ({name}): {wrong}")
            else:
                checked = True
                if event.at != next_die:
                    problems.append(f"event {seq}: its dice start at {event.at}, the decision had drawn {next_die}")
                expected, n = _expected(event, seed, position, sides, rules)
                got = _faces_of(event)
                if tuple(got) != tuple(expected):
                    problems.append(f"event {seq} ({name}): recorded {_show(got)}, the seed gives {_show(expected)}")
                else:
                    rolls += 1
                dice += n
                next_die = event.at + n
        state = apply(state, event)
    return Verification(rolls, dice, unrecorded, tuple(problems), initial.seed if older else 0)


ROLL_EVENTS = (ev.DiceRolled, ev.DiceRerolled, ev.SetupCardsDrawn)  # every event whose content the dice chose


def _positions_outside(event: Any) -> str | None:
    """What is wrong with a re-roll that names dice its roll does not have (None: nothing)."""
    if not isinstance(event, ev.DiceRerolled):
        return None
    outside = [p for p in event.positions if not 0 <= p < len(event.faces)]
    if not outside:
        return None
    return f"re-rolls dice {', '.join(map(str, outside))} of a roll of {len(event.faces)}"


def _faces_of(event: Any) -> Sequence[Any]:
    if isinstance(event, ev.DiceRolled):
        return event.faces
    if isinstance(event, ev.DiceRerolled):
        return [event.faces[p] for p in event.positions]
    assert isinstance(event, ev.SetupCardsDrawn)
    return [event.objective, *event.offered, *event.event_deck]


def _expected(event: Any, seed: str, position: int, sides: tuple[str, ...],
              rules: RulesData) -> tuple[Sequence[Any], int]:
    if isinstance(event, ev.SetupCardsDrawn):
        source = FairDice(seed, position, drawn=event.at)
        objective, offered, deck = draw_setup_cards(source, rules)
        return [objective, *offered, *deck], source.drawn - event.at
    n = len(event.faces) if isinstance(event, ev.DiceRolled) else len(event.positions)
    return [sides[die_index(seed, position, event.at + i, len(sides))] for i in range(n)], n


def _show(faces: Sequence[Any]) -> str:
    text = " ".join(str(f) for f in faces)
    return text if len(text) <= 80 else text[:77] + "…"
