"""The service's cache of loaded games: bounded (least recently used first out), and a game idle
for long, or finished for a while, leaves it. A game's lock leaves with it, but only while nobody
holds or waits for it: a second lock for the same game would let two commands interleave.

A game that left is simply read from the database again on its next use; every write is committed
there before the cached copy changes, so nothing is lost by dropping one."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

IDLE_SECONDS = 3600.0  # an unfinished game nobody touched for an hour
FINISHED_SECONDS = 120.0  # a finished game: long enough for its last posts, /game verify and replay
SHARED_TTL = 30.0  # seconds a guild's settings and a member's hours are kept when other processes may change them


def in_use(lock: asyncio.Lock | None) -> bool:
    return lock is not None and (lock.locked() or bool(getattr(lock, "_waiters", None)))


class GameCache(OrderedDict[int, Any]):
    """game id -> Loaded, in order of use. Reads go through `get` (which counts as a use)."""

    def __init__(self, limit: int, locks: dict[int, asyncio.Lock], idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("CACHED_GAMES must be at least 1")
        self.limit = limit
        self.idle_seconds = idle_seconds
        self._locks = locks
        self._clock = clock
        self._expires: dict[int, float] = {}

    def get(self, key: int, default: Any = None) -> Any:
        found = super().get(key, default)
        if found is not default:
            self.move_to_end(key)
            self._expires[key] = max(self._expires.get(key, 0.0), self._clock() + self.idle_seconds)
        return found

    def __setitem__(self, key: int, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        self._expires[key] = self._clock() + self.idle_seconds
        self.sweep()

    def __delitem__(self, key: int) -> None:
        super().__delitem__(key)
        self._expires.pop(key, None)
        if not in_use(self._locks.get(key)):
            self._locks.pop(key, None)

    def pop(self, key: int, default: Any = None) -> Any:
        if key not in self:
            return default
        value = super().__getitem__(key)
        del self[key]
        return value

    def clear(self) -> None:
        for key in list(self):
            del self[key]

    def finished(self, key: int) -> None:
        """The game is over: it leaves soon, and first when room is needed."""
        if key in self:
            self.move_to_end(key, last=False)
            self._expires[key] = self._clock() + min(FINISHED_SECONDS, self.idle_seconds)

    def sweep(self) -> None:
        """Drop expired games, then the least recently used until within the limit; a game whose lock
        is in use stays (its command is running: it is not idle)."""
        now = self._clock()
        for key in [k for k, t in self._expires.items() if t <= now]:
            if not in_use(self._locks.get(key)):
                del self[key]
        for key in list(self)[:-1]:  # never the newest: it was just read for use
            if len(self) <= self.limit:
                break
            if not in_use(self._locks.get(key)):
                del self[key]
        for key in [k for k in self._locks if k not in self and not in_use(self._locks[k])]:
            del self._locks[key]  # locks of games read and dropped, or never cached


class Bounded(OrderedDict[Any, Any]):
    """A small LRU map for per-guild and per-channel answers (autocomplete asks on every keystroke)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            self.move_to_end(key)
            return super().__getitem__(key)
        return default

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)
