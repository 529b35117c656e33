"""Taking back the last activation: a GM does it at once; a player asks and the opponent consents
(the computer captain always does). An undo never takes back what a player has seen and could
profit from seeing again: dice, a revealed card, a new phase."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from game import events as ev
from game.apply import apply
from game.model import Phase
from game.service.authority import Actor, as_seated, undo_consent
from game.service.errors import GameBusy, NotSeated, UndoRefused
from game.service.repository import Loaded, VersionConflict, decode_state
from game.service.results import Outcome
from game.service.store import RETRIES, GameStore

UNDO_BARRIERS = (ev.DiceRolled, ev.DiceRerolled, ev.SetupCardsDrawn, ev.CardsRevealed, ev.EventCardDrawn,
                 ev.GameEnded)
_BARRIER_ORDER = ("it revealed a card", "its dice have been rolled and seen", "the game has ended",
                  "a new phase has begun")
# commands that are not activations (an ActedFor alone with a hand-over: a GM took the seat)
_NOT_ACTIVATIONS = {ev.UndoRequested, ev.CardPicked, ev.SeatHandedOver, ev.ClockChanged, ev.ActedFor}


def _barrier_reason(event: Any) -> str:
    if isinstance(event, ev.CardsRevealed | ev.EventCardDrawn):
        return "it revealed a card"
    if isinstance(event, ev.GameEnded):
        return "the game has ended"
    if isinstance(event, ev.PhaseBegan):
        return "a new phase has begun"
    return "its dice have been rolled and seen"


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

    async def _target(self, loaded: Loaded) -> tuple[int, list[tuple[int, int, Any]]]:
        """The command an undo would take back, and the log; refused when that would take back dice,
        a revealed card or a new phase that players have already seen."""
        assert loaded.record.id is not None
        log_rows = await self.store.repo.events(loaded.record.id)
        commands: dict[int, list[Any]] = {}
        for _, cmd, e in log_rows:
            commands.setdefault(cmd, []).append(e)
        for cmd in sorted(commands, reverse=True):
            kinds = {type(e) for e in commands[cmd]}
            if ev.StateRestored in kinds:
                break  # never undo past an earlier undo
            if kinds <= _NOT_ACTIVATIONS:
                continue
            seen = [e for e in commands[cmd] if isinstance(e, UNDO_BARRIERS)
                    or (isinstance(e, ev.PhaseBegan) and e.phase in (Phase.END, Phase.INITIATIVE))]
            if seen:
                reasons = sorted({_barrier_reason(e) for e in seen}, key=_BARRIER_ORDER.index)
                raise UndoRefused(
                    "The last activation cannot be taken back: " + " and ".join(reasons[:2]) + ".",
                    "Only an activation that rolled no dice and revealed nothing can be undone.")
            return cmd, log_rows
        raise UndoRefused("There is no activation to undo.")

    async def _undo(self, actor: Actor, game_id: int, request_id: str | None, reason: str) -> Outcome:
        async def restored(loaded: Loaded) -> Any:
            target, log_rows = await self._target(loaded)
            state = decode_state(loaded.record.initial_state)
            for _, cmd, e in log_rows:
                if cmd >= target:
                    break
                state = apply(state, e)
            return ev.StateRestored(state, reason, actor.user_id)

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
