"""What a posting front end (the bot) needs of the service besides playing: the posts a commit
writes into the outbox, the game's status message, announcements, notes and jobs it schedules,
and the slash commands it last synced."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from game import events as ev
from game.model import Game, Phase
from game.phases.common import owes_pick
from game.service.models import Seat, utcnow
from game.service.outbox import Post
from game.service.scheduler import schedule
from game.service.store import GameStore


def posts_for(seats: Sequence[Seat], events: Sequence[Any], state: Game, first: int, last: int) -> list[Post]:
    """What the bot posts about a command: the board with its account, the status, and a DM to each
    player who now owes a pick. Enlisting a squadron is part of taking a seat: the game's first board
    comes when every seat is taken (announce)."""
    if all(isinstance(e, ev.SquadronEnlisted) for e in events):
        return []
    return [Post("board", {"first": first, "last": last}), Post("status", {}), *nudges(seats, state)]


def nudges(seats: Sequence[Seat], state: Game) -> list[Post]:
    """A DM for each pick owed, once per player and turn (the key), to a seated member only."""
    if state.phase not in (Phase.SETUP, Phase.INITIATIVE) or state.choices:
        return []
    users = {s.player: s.user_id for s in seats if not s.is_ai and s.user_id and s.user_id.isdigit()}
    return [Post("nudge", {"player": q.player, "user": users[q.player], "turn": state.turn},
                 key=f"nudge:{q.player}:{state.turn}")
            for q in state.squadrons if owes_pick(state, q.player) and q.player in users]


class Front:
    def __init__(self, store: GameStore, outbox: bool) -> None:
        self.store = store
        self._outbox = False
        self.outbox = outbox

    @property
    def outbox(self) -> bool:
        """With a front end that posts (the bot), each command writes what to post into the outbox."""
        return self._outbox

    @outbox.setter
    def outbox(self, on: bool) -> None:
        if on and not self._outbox:
            self.store.post_with(posts_for)
        self._outbox = self._outbox or on

    def announcement(self, system: str) -> list[Post]:
        """A new game is announced where it is played, with the SHA-256 of its dice seed, for every
        player and spectator to compare with the seed revealed at the end."""
        return [Post("created", {"system": system})] if self.outbox else []

    async def announce(self, game_id: int) -> list[int]:
        """Put the board (with no new account), the status and the owed pick nudges in the outbox: the
        game begins, or someone asked to see it (/game status)."""
        loaded = await self.store.load(game_id)
        return await self.store.repo.enqueue(game_id, [Post("board", {}), Post("status", {}),
                                                       *nudges(loaded.seats, loaded.state)])

    async def enqueue(self, game_id: int, kind: str, payload: dict[str, Any]) -> list[int]:
        """Something for the bot to post about a game that no command wrote (a reminder, a note)."""
        return await self.store.repo.enqueue(game_id, [Post(kind, payload)])

    async def schedule(self, kind: str, due_in: timedelta, game_id: int | None = None,
                       payload: dict[str, Any] | None = None) -> int:
        return await schedule(self.store.repo, kind, utcnow() + due_in, game_id, payload or {})

    async def status_message(self, game_id: int) -> str | None:
        return (await self.store.load(game_id)).record.status_message_id

    async def set_status_message(self, game_id: int, message_id: str) -> None:
        loaded = await self.store.load(game_id)
        loaded.record.status_message_id = message_id
        await self.store.repo.set_status_message(game_id, message_id)

    async def synced_commands(self, scope: str) -> str | None:
        """The digest of the slash commands last synced to `scope` ("global" or a guild id)."""
        return await self.store.repo.bot_state(f"commands:{scope}")

    async def remember_synced_commands(self, scope: str, digest: str) -> None:
        await self.store.repo.set_bot_state(f"commands:{scope}", digest)
