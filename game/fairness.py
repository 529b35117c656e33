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
    rolls: int  # roll events recomputed
    dice: int  # dice recomputed
    unrecorded: int  # rolls made before dice were verifiable (they carry no position)
    mismatches: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def summary(self) -> str:
        if not self.ok:
            shown = "; ".join(self.mismatches[:3]) + (f"; and {len(self.mismatches) - 3} more" if len(self.mismatches) > 3 else "")
            return f"❌ {len(self.mismatches)} problem(s) in the dice record: {shown}."
        older = f" ({self.unrecorded} older rolls predate verifiable dice)" if self.unrecorded else ""
        return f"✅ All {self.rolls} rolls ({self.dice} dice) match the seed{older}."


def verify_log(initial: Game, log: Iterable[tuple[int, Any]], seed: str, rules: RulesData,
               published: str | None = None) -> Verification:
    """Recompute every roll of a game from its log: (command number, event) pairs in log order.
    `published` is the commitment announced at the start, checked against the seed first."""
    problems: list[str] = []
    if not is_seed(seed):
        return Verification(0, 0, 0, ("the seed is not 64 hexadecimal digits",))
    if published is not None and commitment(seed) != published:
        problems.append("the seed does not match the SHA-256 published when the game began")
    sides = rules.die.sides
    state = initial
    rolls = dice = unrecorded = 0
    command: int | None = None
    position = next_die = 0
    for seq, (cmd, event) in enumerate(log, start=1):
        if cmd != command:
            command, position, next_die = cmd, state.log_position, 0
        if isinstance(event, ROLL_EVENTS):
            if event.at < 0:
                unrecorded += 1
            else:
                if event.at != next_die:
                    problems.append(f"event {seq}: its dice start at {event.at}, the decision had drawn {next_die}")
                expected, n = _expected(event, seed, position, sides, rules)
                got = _faces_of(event)
                if tuple(got) != tuple(expected):
                    problems.append(f"event {seq} ({type(event).__name__}): recorded {_show(got)}, "
                                    f"the seed gives {_show(expected)}")
                rolls += 1
                dice += n
                next_die = event.at + n
        state = apply(state, event)
    return Verification(rolls, dice, unrecorded, tuple(problems))


ROLL_EVENTS = (ev.DiceRolled, ev.DiceRerolled, ev.SetupCardsDrawn)  # every event whose content the dice chose


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
