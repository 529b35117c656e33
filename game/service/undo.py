"""Taking back the last command, in any system: what may be taken back is the system's to say
(`undo_refused`: never what a player has seen and could profit from seeing again: dice, a revealed
card or order, a new phase), and the undo writes the system's restore event with the state as it
stood before. Who may ask is the system's too: in Oak & Iron a GM does it at once, a player asks and
the opponent consents (the computer captain always does); in a referee system its referee does it
(game/service/referee.py)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from game import events as ev
from game.codec import from_data
from game.service.authority import Actor, as_seated, undo_consent
from game.service.errors import GameBusy, NotSeated, UndoRefused
from game.service.repository import Loaded, Stored, VersionConflict
from game.service.results import Outcome
from game.service.store import RETRIES, GameStore
from game.systems.base import GM_AUTHORITY, GameSystem


class Undo:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def request(self, actor: Actor, game_id: int, request_id: str | None = None) -> Outcome:
        """Ask to take back the last activation. A GM's request is carried out at once; a
        player's waits for the opponent's consent (`approve`), which the computer captain gives
        for every activation an undo may take back."""
        store = self.store
        loaded = await store.load(game_id, actor)
        actor = as_seated(loaded.seats, actor)
        if actor.gm:
            return await self._undo(actor, game_id, request_id, "undone by a GM ({by})")
        mine = store.players_of(loaded, actor)
        others = [s for s in loaded.seats if mine and not loaded.state.allied(s.player, mine[0])]
        if others and all(s.is_ai for s in others):
            return await self._undo(actor, game_id, request_id, "undone with the computer captain's consent")

        async def asked(loaded: Loaded) -> Any:
            players = store.players_of(loaded, actor)
            if not players:
                raise NotSeated("Only a player or a GM may ask to undo.")
            await self._target(loaded)  # refuse now what could never be undone
            return ev.UndoRequested(players[0], loaded.record.last_seq, actor.user_id)

        return await self._once(actor, game_id, request_id, asked)

    async def approve(self, actor: Actor, game_id: int, request_id: str | None = None) -> Outcome:
        """The asker's opponent consents (or a GM does it, and the log says so)."""
        loaded = await self.store.load(game_id, actor, fresh=True)
        req = loaded.state.undo_request
        if req is None:
            raise UndoRefused("Nobody has asked to undo.", "A player asks first (undo), then the opponent consents.")
        asker, seq = req
        asked = [e for _, _, e in await self.store.repo.events(game_id, loaded.record.last_seq)
                 if isinstance(e, ev.UndoRequested)]
        reason = undo_consent(loaded.state, loaded.seats, as_seated(loaded.seats, actor), asker,
                              asked[-1].by if asked else "")
        if seq != loaded.record.last_seq - 1:
            raise UndoRefused("Play has moved on since the undo was asked for.")
        return await self._undo(actor, game_id, request_id, reason)

    async def _target(self, loaded: Stored[Any]) -> tuple[int, list[tuple[int, int, Any]]]:
        """The command an undo would take back, and the log; refused when that would take back what
        players have already seen (the system says what: `undo_refused`)."""
        assert loaded.record.id is not None
        sysm = loaded.system
        log_rows = await self.store.repo.events(loaded.record.id, system=sysm)
        commands: dict[int, list[Any]] = {}
        for _, cmd, e in log_rows:
            commands.setdefault(cmd, []).append(e)
        below = loaded.record.commands + 1  # commands from here on are taken back already
        for cmd in sorted(commands, reverse=True):
            if cmd >= below:
                continue
            undone = [e for e in commands[cmd] if type(e).__name__ == "StateRestored"]
            if undone:
                below = getattr(undone[-1], "undid", 0)
                if not below:
                    break  # a system that does not say what an undo took back: never undo past it
                continue
            why = sysm.undo_refused(commands[cmd], loaded.state)
            if why is None:
                continue  # no activation (a pick, a clock change): the one before is what an undo takes
            if why:
                raise UndoRefused(f"The last {self._what(sysm)} cannot be taken back: {why}.",
                                  f"Only {self._only(sysm)} can be undone.")
            return cmd, log_rows
        raise UndoRefused(f"There is no {self._what(sysm)} to undo.")

    @staticmethod
    def _what(sysm: GameSystem[Any, Any, Any]) -> str:
        return "activation" if GM_AUTHORITY in sysm.capabilities else "command"

    @staticmethod
    def _only(sysm: GameSystem[Any, Any, Any]) -> str:
        if GM_AUTHORITY in sysm.capabilities:
            return "an activation that rolled no dice and revealed nothing"
        return "a command that rolled no dice, revealed nothing and sealed no order after a reveal"

    async def restore(self, loaded: Stored[Any], actor: Actor, reason: str) -> Any:
        """The event that takes back the last command that may be taken back: the system's restore,
        with the state as it stood before that command."""
        target, log_rows = await self._target(loaded)
        sysm = loaded.system
        state = from_data(sysm.state_type, json.loads(loaded.record.initial_state))
        for _, cmd, e in log_rows:
            if cmd >= target:
                break
            state = sysm.apply(state, e)
        return sysm.restored(state, reason, actor.user_id, target)

    async def _undo(self, actor: Actor, game_id: int, request_id: str | None, reason: str) -> Outcome:
        async def restored(loaded: Loaded) -> Any:
            return await self.restore(loaded, actor, reason)

        return await self._once(actor, game_id, request_id, restored)

    async def _once(self, actor: Actor, game_id: int, request_id: str | None,
                    event_of: Callable[[Loaded], Awaitable[Any]]) -> Outcome:
        """Commit the one event `event_of` makes of the game as it stands, under the game's lock and
        again on fresh state if another process moved it on; a request already carried out answers
        as it did the first time."""
        store = self.store
        if request_id and (seen := await store.answered(actor, request_id)) is not None:
            return seen
        async with store.lock(game_id):
            for attempt in range(RETRIES):
                loaded = await store.load(game_id, actor, fresh=attempt > 0)
                event = await event_of(loaded)
                try:
                    return await store.commit(loaded, actor, [event], request_id)
                except VersionConflict:
                    store.forget(game_id)
            raise GameBusy("The game is busy: other orders kept arriving.", "Try again in a moment.")
