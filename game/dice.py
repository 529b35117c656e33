"""Where dice come from. The engine asks a DiceSource; every face it gets is written into an event,
so replaying a game never rolls again.

Play dice are `FairDice`: each die is HMAC-SHA256 of the game's secret seed and the die's position
(the log position the decision started at, and the die's number within that decision). Nobody can
foresee a face without the seed, which no view carries; a decision retried after a crash draws the
same faces, so crashing the bot never re-rolls; and once the seed is revealed at the end of the
game, anyone can recompute every roll from the log (game/fairness.py).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol

SEED_BYTES = 32


class DiceSource(Protocol):
    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        """n faces, each one side of the die described by `sides` (one entry per side)."""
        ...


def die_index(seed: str, position: int, k: int, sides: int) -> int:
    """The side (0 … sides-1) shown by die k of the decision that started at log position `position`.
    The 256-bit digest taken modulo a handful of sides has no bias worth the name (< 2^-250)."""
    digest = hmac.new(bytes.fromhex(seed), f"{position}:{k}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % sides


def derived_number(seed: str, label: str) -> int:
    """A number of the game's own that no player can foresee (the computer captain's judgement, its
    random squadron), kept apart from the dice by its label."""
    digest = hmac.new(bytes.fromhex(seed), f"derived:{label}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def seed_from_number(n: int) -> str:
    """A seed chosen on purpose (test scenarios, the demo, the script runner): the same number always
    gives the same dice. Games in the bot never use this; they draw a secret seed."""
    return hashlib.sha256(f"quarterdeck-chosen-seed:{n}".encode()).hexdigest()


def is_seed(text: str) -> bool:
    if len(text) != 2 * SEED_BYTES:
        return False
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


class FairDice:
    """Play dice for one decision. `drawn` counts the dice handed out so far: an event records the
    count before its roll (`at`), which is how the verifier finds each die's key again."""

    def __init__(self, seed: str, position: int, drawn: int = 0) -> None:
        if not is_seed(seed):
            raise ValueError("a dice seed is 64 hexadecimal digits")
        self.seed = seed
        self.position = position
        self.drawn = drawn

    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        out = []
        for _ in range(max(0, n)):
            out.append(sides[die_index(self.seed, self.position, self.drawn, len(sides))])
            self.drawn += 1
        return tuple(out)


class SampledDice:
    """Dice for thinking ahead (the computer captain trying an order): its own random numbers, never
    the game's seed, so trying an order shows nothing about the faces the game will roll."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self.drawn = 0

    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        self.drawn += max(0, n)
        return tuple(self._rng.choice(sides) for _ in range(max(0, n)))


class DiceExhausted(RuntimeError):
    pass


class ScriptedDice:
    """Test dice: hands out the given faces in order; an optional fallback serves the rest."""

    def __init__(self, faces: Iterable[str] = (), fallback: DiceSource | None = None) -> None:
        self._queue: deque[str] = deque(faces)
        self.fallback = fallback
        self.drawn = 0

    def push(self, faces: Iterable[str]) -> None:
        self._queue.extend(faces)

    @property
    def remaining(self) -> tuple[str, ...]:
        return tuple(self._queue)

    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        out: list[str] = []
        for _ in range(max(0, n)):
            if self._queue:
                face = self._queue.popleft()
                if face not in sides:
                    raise ValueError(f"scripted face {face!r} is not on the die {sorted(set(sides))}")
                out.append(face)
            elif self.fallback is not None:
                out.extend(self.fallback.roll(1, sides))
            else:
                raise DiceExhausted(f"the script ran out of dice ({n} wanted)")
        self.drawn += len(out)
        return tuple(out)


def drawn(dice: DiceSource) -> int:
    """How many dice a source has handed out in this decision (-1 when it does not count)."""
    return int(getattr(dice, "drawn", -1))
