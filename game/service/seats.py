"""Handing a side over during a game: to another member, or to the computer captain. The log says
who played each turn (Reading.seat_history), and a GM takes a seat for themselves only as they may
act for it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from game import events as ev
from game.errors import UnknownName
from game.model import Phase
from game.service.authority import Actor, acting_for, as_seated
from game.service.errors import NotPermitted, NotSeated, SeatTaken, ServiceError, ServiceRefusal
from game.service.proxies import proxies_for
from game.service.repository import VersionConflict
from game.service.results import Outcome
from game.service.store import GameStore


class Seats:
    def __init__(self, store: GameStore, ranked: Callable[[int], Awaitable[bool]]) -> None:
        self.store = store
        self.ranked = ranked  # a ranked league game's seats change hands only through a GM

    async def hand_over(self, actor: Actor, game_id: int, to_user: str | None = None, to_name: str = "",
                        player: str | None = None, request_id: str | None = None, override: bool = False) -> Outcome:
        """Give a side to another member (`to_user`) or, with none, to the computer captain. The side's
        player may do it, or a GM for any side; a GM takes a seat for themselves only as they may act
        for it (authority.acting_for, with `override`). The log says who played each turn."""
        store = self.store
        async with store.lock(game_id):
            loaded = await store.load(game_id, actor, fresh=True)
            actor = as_seated(loaded.seats, actor)
            players = store.players_of(loaded, actor)
            who = player or (players[0] if len(players) == 1 else "")
            if not who:
                raise NotSeated("Say which side to hand over." if players else "Only a side's player (or a GM) can hand it over.",
                                f"Your sides: {', '.join(players)}." if players else "Join a side first.")
            if who not in players and not actor.gm:
                raise NotSeated(f"Side {who} is not yours to hand over.", "Hand over your own side, or ask a GM.")
            if not actor.gm and await self.ranked(game_id):
                raise NotPermitted("This is a ranked league game: only a GM may hand over its seats.",
                                   "Ask a GM (/game handover), so the league's results stay the players' own.")
            seat = next((s for s in loaded.seats if s.player == who), None)
            if seat is None:
                raise UnknownName(f"There is no side {who[:20]!r} in this game.",
                                  f"Sides: {', '.join(s.player for s in loaded.seats)}.")
            if loaded.state.phase is Phase.OVER:
                raise ServiceRefusal("The game is over: its seats stay as they were.")
            # a fleet battle's squadrons of one side may share a member (a team league's partner takes
            # over from a member who had to leave); never a squadron of each side
            if to_user is not None and any(s.user_id == to_user and s.player != who
                                           and not loaded.state.allied(s.player, who) for s in loaded.seats):
                raise SeatTaken("That member already plays another side of this game.",
                                "Give the side to someone without a seat, or to the computer captain.")
            if (to_user is not None and to_user == seat.user_id) or (to_user is None and seat.is_ai):
                raise SeatTaken(f"Side {who} is already theirs.")
            taken = None
            if to_user == actor.user_id:
                taken = acting_for(loaded.state, loaded.seats, actor, who,
                                   await proxies_for(store.repo, loaded, actor, override))
            before = seat.display_name
            if to_user is None:
                seat.user_id, seat.is_ai, seat.display_name = None, True, f"Computer captain ({who})"
            else:
                seat.user_id, seat.is_ai, seat.display_name = to_user, False, (to_name[:100] or to_user)
            event = ev.SeatHandedOver(who, before, seat.display_name, actor.user_id, to_user is None)
            try:
                return await store.commit(loaded, actor, [*([taken] if taken else []), event], request_id,
                                          seats=[seat])
            except VersionConflict:
                store.forget(game_id)  # the seat was changed only in this copy
                raise ServiceError("The game moved on while the side was handed over.", "Try again.") from None
