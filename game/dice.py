"""Where dice come from. The engine asks a DiceSource; every face it gets is written into an event,
so replaying a game never rolls again."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol


class DiceSource(Protocol):
    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        """n faces, each one side of the die described by `sides` (one entry per side)."""
        ...


class SeededDice:
    """Play dice: the game's seed plus the log position, so a decision retried after a crash
    rolls the same faces (no re-rolling by crashing the bot)."""

    def __init__(self, seed: int, position: int = 0) -> None:
        self._rng = random.Random(f"quarterdeck:{seed}:{position}")

    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(self._rng.choice(sides) for _ in range(max(0, n)))


class DiceExhausted(RuntimeError):
    pass


class ScriptedDice:
    """Test dice: hands out the given faces in order; an optional fallback serves the rest."""

    def __init__(self, faces: Iterable[str] = (), fallback: DiceSource | None = None) -> None:
        self._queue: deque[str] = deque(faces)
        self.fallback = fallback

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
        return tuple(out)
