"""A finished game's chronicle: its summary card's figures (game/chronicle.py, with the duration and the
dice verified from the revealed seed), the server's chronicle channel (a GM's setting), and the
Rematch, which any player of the game may ask for once.

The card is written to the outbox in the commit that ends the game (two rows: the game's channel,
and the chronicle channel if the server has one when the row goes out), so a crash between the
ending and the post never loses it. A rematch is a new game with the sides swapped, the same starting
position (a scenario's, or a drafted game's preparation with each player's same squadron) and the
same clock; `games.rematch_of` is unique, so a second press (from any process) makes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from game import events as ev
from game.chronicle import Summary, summarise
from game.dice import is_seed
from game.model import Phase
from game.schema.common import MAX_NAME
from game.service import orders_store
from game.service.audit import Audit
from game.service.authority import Actor, require_gm
from game.service.clock_service import Clock
from game.service.errors import AlreadyDecided, ChannelBusy, NotSeated, ServiceError, ServiceRefusal
from game.service.frontend import FrontEnd
from game.service.models import GameClock, GameRecord, Seat
from game.service.outbox import Post
from game.service.posts import ChronicleCard, stored
from game.service.reading import info_of
from game.service.repository import decode_state
from game.service.results import GameInfo
from game.service.store import GameStore


def card_posts(seats: Sequence[Seat], events: Sequence[Any], state: Any, first: int, last: int) -> list[Post]:
    """The card's two rows, in the commit that ends the game (the store's post maker): after its board."""
    if not any(isinstance(e, ev.GameEnded) for e in events):
        return []
    return [stored(ChronicleCard()), stored(ChronicleCard(chronicle=True))]


@dataclass(frozen=True)
class Card:
    """What the summary card shows of a finished game. Every figure is public once it is over."""

    game_id: int
    guild_id: str
    channel_id: str
    summary: Summary
    duration: timedelta
    members: dict[str, tuple[str, ...]]  # side -> the names that played it at the end
    verified: bool  # the dice recomputed from the revealed seed match the log
    verify_text: str
    seed: str
    chronicle_channel: str | None  # the server's chronicle channel, if a GM set one
    rematch: int | None  # the rematch's game id, once someone asked for it


def duration_text(d: timedelta) -> str:
    minutes = max(0, int(d.total_seconds()) // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    return f"{hours} h {mins} min" if hours else f"{mins} min"


class Chronicle:
    def __init__(self, store: GameStore, audit: Audit, clock: Clock, front: FrontEnd, seeds: Callable[[], str],
                 on_create: Callable[[str, str], None]) -> None:
        self.store = store
        self.on_create = on_create  # the lobby's "no game in this channel", if it kept one, is no longer true
        self.audit = audit
        self.clock = clock
        self.front = front
        self.seeds = seeds
        front.also_post(card_posts)  # with a front end that posts: after the board that says "Game over"

    async def card(self, game_id: int) -> Card:
        """The card of a finished game (refused before its end: its dice are secret until then)."""
        loaded = await self.store.load(game_id, fresh=True)
        if loaded.state.phase is not Phase.OVER:
            raise ServiceRefusal("A game's chronicle is written once it is over.")
        rows = await self.store.repo.events(game_id)
        rules = await self.store.rules_for(loaded.record)
        summary = summarise(loaded.state, [e for _, _, e in rows], rules.die)
        check = await self.audit.verify(None, game_id)
        members: dict[str, tuple[str, ...]] = {}
        for side in loaded.state.teams:
            players = loaded.state.players_of(side)
            members[side] = tuple(s.display_name or f"Player {s.player}" for s in loaded.seats if s.player in players)
        record = loaded.record
        settings = await self.store.guild_settings(record.guild_id)
        return Card(game_id, record.guild_id, record.channel_id, summary, record.updated_at - record.created_at,
                    members, check.verification.ok and not check.test_dice, check.verification.summary(),
                    check.seed, settings.chronicle_channel_id, await self.store.repo.rematch_of(game_id))

    async def set_channel(self, actor: Actor, channel_id: str | None) -> None:
        """Where this server's finished games are chronicled (None: nowhere but their own channel)."""
        require_gm(actor, "choose the chronicle channel")
        settings = await self.store.guild_settings(actor.guild_id)
        settings.chronicle_channel_id = channel_id
        await self.store.save_guild_settings(settings)

    async def rematch(self, actor: Actor, game_id: int, thread_id: str | None = None) -> GameInfo:
        """A new game with the sides swapped, asked for by one of the finished game's players; once per
        game (AlreadyDecided after). In `thread_id` when given (the channel has another game)."""
        loaded = await self.store.load(game_id, actor, fresh=True)
        if loaded.state.phase is not Phase.OVER:
            raise ServiceRefusal("A rematch is offered once the game is over.")
        humans = [s for s in loaded.seats if not s.is_ai and s.user_id]
        if not any(s.user_id == actor.user_id for s in humans):
            raise NotSeated("Only a player of this game may ask for its rematch.")
        if await self.store.repo.rematch_of(game_id) is not None:
            raise AlreadyDecided("This game's rematch was already asked for.")
        old = loaded.record
        place = thread_id or old.channel_id
        busy = await self.store.repo.game_in_channel(old.guild_id, place)
        if busy is not None:
            raise ChannelBusy(f"This channel already has a game in progress ({busy.name}, #{busy.id}).")
        start = decode_state(old.initial_state)
        if start.tutorial:
            raise ServiceRefusal("A tutorial has no rematch: start it again with /game create.")
        players = list(start.players)
        swapped = dict(zip(players, reversed(players), strict=True))  # A's player takes B's side, and so on
        by_player = {s.player: s for s in loaded.seats}
        seats = []
        for p in players:
            was = by_player.get(swapped[p])
            ai = bool(was and was.is_ai)
            name = f"Computer captain ({p})" if ai else was.display_name if was else f"Player {p}"
            seats.append(Seat(game_id=0, player=p, user_id=was.user_id if was else None, display_name=name, is_ai=ai))
        seed = self.seeds()
        if not is_seed(seed):
            raise ServiceError("The dice seed source gave something that is not a 256-bit seed.")
        record = GameRecord(guild_id=old.guild_id, channel_id=place, thread_id=thread_id or old.thread_id,
                            name=rematch_name(game_id, old.name), system=old.system, edition=old.edition, seed=0, dice_seed=seed,
                            status="open", initial_state="", data_version=old.data_version, rematch_of=game_id)
        announce = self.front.announcement(start.system)
        try:
            record = await self.store.repo.create_game(record, replace(start, seed=0, name=record.name), seats,
                                                       announce)
        except IntegrityError:  # another press (another process) made it first
            raise AlreadyDecided("This game's rematch was already asked for.") from None
        assert record.id is not None
        self.on_create(record.guild_id, record.channel_id)
        clock = await orders_store.game_clock(self.store.repo, game_id)
        await orders_store.save_clock(self.store.repo, GameClock(
            game_id=record.id, reminder_hours=clock.reminder_hours, deadline_hours=clock.deadline_hours,
            on_deadline=clock.on_deadline, skip_quiet=clock.skip_quiet))
        await self._enlist_again(game_id, record.id, swapped)
        await self.clock.plan_afresh(record.id)
        return info_of(await self.store.load(record.id))

    async def _enlist_again(self, old_id: int, new_id: int, swapped: dict[str, str]) -> None:
        """A drafted game's squadrons come back as they were enlisted, each with its player's new side."""
        enlisted = [e for _, _, e in await self.store.repo.events(old_id) if isinstance(e, ev.SquadronEnlisted)]
        if not enlisted:
            return
        back = {v: k for k, v in swapped.items()}
        again = []
        for e in enlisted:
            side = back[e.squadron.player]
            again.append(ev.SquadronEnlisted(
                replace(e.squadron, player=side),
                tuple(replace(s, owner=side, controller=side) for s in e.ships)))
        async with self.store.lock(new_id):
            loaded = await self.store.load(new_id, fresh=True)
            await self.store.commit(loaded, Actor("rematch", loaded.record.guild_id), again, None)


_REMATCH = re.compile(r"^Rematch of #\d+: ")


def rematch_name(game_id: int, name: str) -> str:
    """A rematch says it is one, so that nobody takes it for the game it answers (a campaign's
    "battle 1", whose result stands): "Rematch of #12: Channel War: battle 1"."""
    return f"Rematch of #{game_id}: {_REMATCH.sub('', name)}"[:MAX_NAME]
