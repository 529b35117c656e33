"""Live updates: each open page holds a Server-Sent Events stream (aiohttp's StreamResponse) woken by
the store's commit hook (`WebPages.on_commit`, the hook the outbox's commits also pass) when the web
runs in the bot's process, and by a poll of the watched games' stored versions when it runs apart
(`quarterdeck web`) or beside other processes. A woken stream sends the game's newest state once,
however many commits it missed: a slow reader never holds a queue of old states."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from game.service.web_pages import WebPages

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25  # a page apart from the bot hears of a move this soon: one small query per tick


class TooMany(Exception):
    """No room for another stream (in all, or for this client)."""


class Hub:
    def __init__(self, pages: WebPages, max_streams: int = 2_000, per_client: int = 8,
                 poll_seconds: float = POLL_SECONDS) -> None:
        self.pages = pages
        self.max_streams = max_streams
        self.per_client = per_client
        self.poll_seconds = poll_seconds
        self._watchers: dict[int, set[asyncio.Event]] = {}
        self._known: dict[int, int] = {}  # game -> the newest version a watcher was told of
        self._clients: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None
        self.closing = False  # the server is shutting down: every stream ends at its next wake
        pages.on_commit(self.told)

    @property
    def streams(self) -> int:
        return sum(len(w) for w in self._watchers.values())

    def told(self, game_id: int, version: int) -> None:
        """A commit: wake the game's streams (never blocks; a stream already awake reads the newest)."""
        if version <= self._known.get(game_id, -1):
            return
        self._known[game_id] = version
        for woken in self._watchers.get(game_id, ()):
            woken.set()

    @contextlib.asynccontextmanager
    async def watch(self, game_id: int, client: str, version: int) -> AsyncIterator[asyncio.Event]:
        if self.streams >= self.max_streams or self._clients.get(client, 0) >= self.per_client:
            raise TooMany
        woken = asyncio.Event()
        self._watchers.setdefault(game_id, set()).add(woken)
        self._clients[client] = self._clients.get(client, 0) + 1
        self._known[game_id] = max(self._known.get(game_id, -1), version)
        try:
            yield woken
        finally:
            watchers = self._watchers.get(game_id, set())
            watchers.discard(woken)
            if not watchers:
                self._watchers.pop(game_id, None)
                self._known.pop(game_id, None)
            self._clients[client] -= 1
            if not self._clients[client]:
                del self._clients[client]

    async def poll_once(self) -> None:
        watched = sorted(self._watchers)
        for gid, version in (await self.pages.versions(watched)).items():
            self.told(gid, version)

    async def poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            if not self._watchers:
                continue
            try:
                await self.poll_once()
            except Exception:  # the database away for a moment: the pages wait, and the next poll tries again
                log.exception("polling the watched games' versions")

    def close_streams(self) -> None:
        """Wake every stream to end it: an open page would otherwise hold the server's shutdown until
        its next keep-alive (aiohttp's on_shutdown signal is where its docs close such streams)."""
        self.closing = True
        for watchers in self._watchers.values():
            for woken in watchers:
                woken.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.poll_forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
