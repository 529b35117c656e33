"""Games and their seats: creating a game (its secret dice seed drawn here), taking a side, and
finding a server's games, a channel's game and a member's games."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from game.commands import Enlist
from game.dice import derived_number, is_seed, seed_from_number
from game.errors import RulesError, UnknownName
from game.model import Game, Phase
from game.phases.preparation import drafted_game
from game.rules_data import RulesData
from game.scenario import builtin_scenarios, load_scenario_text
from game.schema.common import MAX_NAME
from game.service.authority import LOCAL_GUILD, Actor, seated
from game.service.cache import Bounded
from game.service.clock_service import Clock
from game.service.commands import Commands
from game.service.errors import (
    ChannelBusy,
    NotPermitted,
    SeatTaken,
    ServiceError,
    SquadronRefused,
)
from game.service.frontend import FrontEnd
from game.service.guild_data import GuildData
from game.service.models import GameRecord, Seat
from game.service.reading import info_of
from game.service.referee import RefereeService, is_referee_system
from game.service.repository import Loaded, VersionConflict
from game.service.results import GameChannel, GameInfo, MyGame, ScenarioCheck, SeatInfo
from game.service.sides import moment, seat_keys
from game.service.squadrons import Squadrons
from game.service.store import RETRIES, GameStore
from game.setup import TABLES
from game.squadron import SquadronError, SquadronList, parse_squadron, random_squadron

DRAFTED = "drafted"  # the scenario name of a game set up by the chapter-7 sequence


def starting_state(scenario: str, scenario_text: str | None, size: str, name: str | None, rules: RulesData) -> Game:
    """A new game's state from a built-in scenario, an uploaded one, or the drafted set-up."""
    drafted = scenario == DRAFTED and scenario_text is None
    if drafted:
        if size not in TABLES:
            raise UnknownName(f"There is no game size {size!r}.", f"Sizes: {', '.join(TABLES)}.")
        return drafted_game(size, 0, name=name or "")
    if scenario_text is None:
        known = builtin_scenarios()
        if scenario not in known:
            raise UnknownName(f"There is no built-in scenario {scenario[:MAX_NAME]!r}.",
                              f"Scenarios: {', '.join([*known, DRAFTED])}.")
        scenario_text = known[scenario]
    return load_scenario_text(scenario_text, f"{scenario[:MAX_NAME]}.toml", rules)  # the name if it has none


def tutorial_seats(seats: list[Seat], actor: Actor, display_name: str) -> list[Seat]:
    """A tutorial's seats: its creator learns on the first side, the computer captain plays the rest."""
    first, *rest = seats
    first.user_id, first.display_name = actor.user_id, display_name[:100] or actor.user_id
    for seat in rest:
        seat.is_ai, seat.display_name = True, f"Computer captain ({seat.player})"
    return seats


def _free_seat(loaded: Loaded, player: str | None) -> Seat:
    free = [s for s in loaded.seats if s.user_id is None and not s.is_ai]
    if player is None:
        if not free:
            raise SeatTaken("Every side is taken.", "Watch the game, or ask a GM to start another.")
        return free[0]
    seat = next((s for s in loaded.seats if s.player == player), None)
    if seat is None:
        raise UnknownName(f"There is no side {player!r} in this game.",
                          f"Sides: {', '.join(s.player for s in loaded.seats)}.")
    if seat.user_id is not None or seat.is_ai:
        raise SeatTaken(f"Side {player} is taken by {seat.display_name}.",
                        f"Free sides: {', '.join(s.player for s in free) or 'none'}.")
    return seat


class Lobby:
    def __init__(self, store: GameStore, data: GuildData, squadrons: Squadrons, commands: Commands, clock: Clock,
                 front: FrontEnd, referee: RefereeService, seeds: Callable[[], str]) -> None:
        self.store = store
        self.data = data
        self.squadrons = squadrons
        self.commands = commands
        self.clock = clock
        self.front = front
        self.referee = referee
        self._new_seed = seeds  # where each game's secret dice seed comes from (tests inject theirs)
        self._channels: Bounded = Bounded(10_000)  # (guild, channel) -> its unfinished game's id or None
        store.when_over(self._ended)

    async def _ended(self, record: GameRecord, state: Game) -> None:
        """The channel's game is over: its id, if kept, is no longer the channel's game in progress
        (its copy may leave the cache before the channel is asked again)."""
        self.forget_channel(record.guild_id, record.channel_id)

    def forget_channel(self, guild_id: str, channel_id: str) -> None:
        """A game was made there: "no game here", if it was kept, is no longer true."""
        self._channels.pop((guild_id, channel_id), None)

    def forget_guild(self, guild_id: str) -> None:
        """The server's data was purged: none of its channels' games is known any more."""
        for key in [k for k in self._channels if k[0] == guild_id]:
            self._channels.pop(key, None)

    async def create_game(
        self,
        actor: Actor,
        channel_id: str,
        scenario: str = "quickstart",
        scenario_text: str | None = None,
        seed: int | None = None,
        name: str | None = None,
        thread_id: str | None = None,
        size: str = "skirmish",
        scenario_seed: bool = False,
        display_name: str = "",
    ) -> GameInfo:
        """A game from a scenario, or with scenario "drafted" a game of the given size that starts
        with the chapter-7 set-up once each side has joined with a saved squadron. A tutorial
        (`tutorial = true`) begins at once: its creator (`display_name`) takes its first side and the
        computer captain the others.

        The dice seed is drawn in secret. Only the offline table and the script runner (one person at
        one screen) may choose it: `seed`, or with `scenario_seed` the scenario file's own number."""
        if (seed is not None or scenario_seed) and not actor.local:
            raise NotPermitted("Nobody chooses the dice of a game here: each game draws a secret seed.",
                               "Its SHA-256 is posted when the game begins and the seed when it ends (/game verify).")
        await self._channel_free(actor, thread_id or channel_id)
        version, rules = await self.data.current(actor.guild_id)
        state = starting_state(scenario, scenario_text, size, name, rules)
        return await self._create(actor, channel_id, state, version, seed, name, thread_id, scenario_seed,
                                  display_name)

    async def create_from(self, actor: Actor, channel_id: str, make: Callable[[RulesData], Game],
                          thread_id: str | None = None) -> GameInfo:
        """A game from a starting state another part made with the server's rules (a campaign's
        battle from its squadrons as they stand), its dice seed drawn in secret as for any game."""
        await self._channel_free(actor, thread_id or channel_id)
        version, rules = await self.data.current(actor.guild_id)
        return await self._create(actor, channel_id, make(rules), version, None, None, thread_id, False, "")

    async def _channel_free(self, actor: Actor, channel_id: str) -> None:
        busy = await self.store.repo.game_in_channel(actor.guild_id, channel_id)
        if busy is not None:
            raise ChannelBusy(
                f"This channel already has a game in progress ({busy.name}, #{busy.id}).",
                "Finish or concede it, or start the new game in its own thread.",
            )

    async def _create(self, actor: Actor, channel_id: str, state: Game, version: str, seed: int | None,
                      name: str | None, thread_id: str | None, scenario_seed: bool, display_name: str) -> GameInfo:
        repo = self.store.repo
        await self.data.keep_version(actor.guild_id, version)
        if seed is not None:
            dice_seed = seed_from_number(seed)
        elif scenario_seed:
            dice_seed = seed_from_number(state.seed)
        else:
            dice_seed = self._new_seed()
        if not is_seed(dice_seed):
            raise ServiceError("The dice seed source gave something that is not a 256-bit seed.")
        state = replace(state, seed=0)  # the state never holds the dice seed: the record keeps it, secret
        record = GameRecord(
            guild_id=actor.guild_id, channel_id=thread_id or channel_id, thread_id=thread_id,
            name=(name or state.name)[:MAX_NAME], system=state.system, edition=state.edition, seed=0, dice_seed=dice_seed,
            status="open", initial_state="", data_version=version,
        )
        seats = [Seat(game_id=0, player=p, display_name=f"Player {p}") for p in state.players]
        guided = state.tutorial and not actor.local  # at one screen (the CLI) the sides are taken as ever
        if guided:
            seats = tutorial_seats(seats, actor, display_name)
        record = await repo.create_game(record, state, seats, self.front.announcement(state.system))
        assert record.id is not None
        self.forget_channel(actor.guild_id, record.channel_id)
        if guided:
            await self.clock.plan_afresh(record.id)  # every side is taken: the clock starts, as on the last join
        return await self.info(record.id)

    async def check_scenario(self, actor: Actor, scenario: str = "quickstart", scenario_text: str | None = None,
                             size: str = "skirmish") -> ScenarioCheck:
        """The name of the game create_game would make of this scenario and whether it is a tutorial,
        or the RulesError it would raise for it: a front end checks before it makes anything for the
        game (a thread; a tutorial always gets one)."""
        state = starting_state(scenario, scenario_text, size, None, await self.data.rules(actor.guild_id))
        return ScenarioCheck(state.name, state.tutorial)

    async def join(self, actor: Actor, game_id: int, player: str | None = None, display_name: str = "",
                   ai: bool = False, squadron: str | None = None) -> GameInfo:
        """Take a side (or give it to the computer captain). A drafted game needs a squadron: one of
        the actor's saved lists (the computer captain brings a random legal one)."""
        store = self.store
        enlist = await self._squadron_for(actor, game_id, squadron, ai)
        async with store.lock(game_id):
            for attempt in range(RETRIES):
                loaded = await store.load(game_id, actor, fresh=attempt > 0)
                seat = _free_seat(loaded, player)
                if ai:
                    seat.is_ai, seat.user_id, seat.display_name = True, None, f"Computer captain ({seat.player})"
                else:
                    seat.user_id, seat.display_name = actor.user_id, display_name[:100] or actor.user_id
                try:
                    await store.repo.update_seat(seat, loaded.record)
                    break
                except VersionConflict:  # another process changed the game: look at the seats again
                    store.forget(game_id)
            else:
                raise ServiceError("The game is busy; try again in a moment.")
        if all(s.user_id is not None or s.is_ai for s in loaded.seats):
            # every side is taken: the game's clock starts for whoever it now waits for
            await self.clock.plan_afresh(game_id)
        if enlist is not None:
            try:
                await self.commands.submit(Actor(f"ai:{seat.player}", actor.guild_id), game_id,
                                           Enlist(seat.player, enlist))
            except (RulesError, ServiceError):
                async with store.lock(game_id):  # the side is free again: nothing half-done
                    loaded = await store.load(game_id, fresh=True)
                    seat = next(s for s in loaded.seats if s.player == seat.player)
                    seat.user_id, seat.is_ai, seat.display_name = None, False, f"Player {seat.player}"
                    await store.repo.update_seat(seat, loaded.record)
                raise
        return await self.info(game_id)

    async def _squadron_for(self, actor: Actor, game_id: int, name: str | None, ai: bool) -> SquadronList | None:
        loaded = await self.store.load(game_id, actor)
        prep = loaded.state.prep
        if prep is None or loaded.state.phase is not Phase.PREPARATION:
            if name:
                raise SquadronRefused("This game's squadrons come from its scenario.",
                                      "Join without a squadron, or create a drafted game for your list.")
            return None
        if ai and not name:
            rules = await self.store.rules_for(loaded.record)
            enlisted = sum(1 for q in loaded.state.squadrons if q.name)  # a second computer side gets another list
            return random_squadron(derived_number(loaded.record.dice_seed, f"squadron:{enlisted}"), prep.size, rules)
        if not name:
            raise SquadronRefused(f"This is a drafted {prep.size}: join with one of your saved squadrons.",
                                  "Build one with /squadron new (or save a file with /squadron save), then "
                                  "/game join squadron: NAME.")
        try:
            return parse_squadron(await self.squadrons.text(actor, name))  # the engine checks it on enlisting
        except SquadronError as exc:
            raise SquadronRefused(f"The saved squadron cannot be read: {exc}.") from None

    async def info(self, game_id: int) -> GameInfo:
        loaded = await self.store.load_any(game_id)
        if is_referee_system(loaded.record.system):  # listed here, played through game/service/referee.py
            ref = self.referee.info_of(loaded)
            phase = Phase.OVER.value if ref.status == "over" else ref.phase  # what the channel lookup reads
            return GameInfo(ref.id, ref.name, ref.guild_id, ref.channel_id, ref.status,
                            tuple(SeatInfo(p, u, n, False) for p, u, n in ref.seats), ref.turn, phase,
                            ref.dice_commitment, ref.system)
        return info_of(loaded)

    async def my_games(self, user_id: str) -> list[MyGame]:
        """Every unfinished game the user plays in, in any server and any system: the ones waiting on
        them first (soonest deadline first), then the rest. A referee system's seats are named as its
        setup names them."""
        out = []
        for gid in await self.store.repo.live_games_of_user(user_id):
            try:
                loaded = await self.store.load_any(gid)
            except ServiceError:
                continue  # a damaged game is reported at start-up, not here
            mine = seated(loaded.seats, Actor(user_id, loaded.record.guild_id))
            due = moment(loaded.system, loaded.state).waiting
            named = seat_keys(loaded.state) if is_referee_system(loaded.record.system) else {}
            phase = loaded.state.phase
            out.append(MyGame(gid, loaded.record.name, loaded.record.guild_id, loaded.record.channel_id,
                              loaded.state.turn, phase.value if isinstance(phase, Phase) else str(phase),
                              tuple(named.get(p, p) for p in mine if p in due),
                              await self.store.repo.next_deadline(gid)))
        far = datetime.max.replace(tzinfo=UTC)
        return sorted(out, key=lambda g: (not g.waiting_on_me, g.deadline or far, -g.id))

    async def list_games(self, guild_id: str) -> list[GameInfo]:
        return [await self.info(r.id) for r in await self.store.repo.games_of_guild(guild_id) if r.id is not None]

    async def games_page(self, guild_id: str, page: int = 1, per_page: int = 10) -> tuple[list[GameInfo], int]:
        """One page of the guild's games (unfinished first, newest first) and how many there are."""
        records, total = await self.store.repo.games_page(guild_id, per_page, (max(1, page) - 1) * per_page)
        return [await self.info(r.id) for r in records if r.id is not None], total

    async def game_channels(self) -> list[GameChannel]:
        """Every channel and thread that has or had a game, of every system (Oak & Iron and the
        referee-assistant ones share the games table), by server and channel; games of the offline
        table are in no server and left out."""
        return [GameChannel(i, guild, channel, thread, status == "over")
                for i, guild, channel, thread, status in await self.store.repo.game_places(LOCAL_GUILD)]

    async def game_here(self, guild_id: str, channel_id: str, include_over: bool = False) -> int | None:
        """The id of the channel's game, without reading the game: what a command needs first. A game
        known to be over (its copy in the store says so) is looked up again. With several processes
        the channel is always asked (one row, not the game): another may have ended the kept game and
        made the next one there, and neither the kept id nor this process's copy of the game knows."""
        key = (guild_id, channel_id)
        if not include_over and key in self._channels and not self.store.shared:
            gid: int | None = self._channels.get(key)
            if gid is None:
                return None
            cached = self.store.cached.get(gid)
            if cached is None or cached.state.phase is not Phase.OVER:
                return gid
        r = await self.store.repo.game_in_channel(guild_id, channel_id, include_over)
        if not include_over:
            self._channels[key] = r.id if r is not None else None
        return r.id if r is not None else None

    async def game_in_channel(self, guild_id: str, channel_id: str, include_over: bool = False) -> GameInfo | None:
        key = (guild_id, channel_id)
        # with several processes, "no game here" is not kept: another process may have made one since
        if not include_over and key in self._channels and not (self.store.shared and self._channels.get(key) is None):
            gid = self._channels.get(key)
            if gid is None:
                return None
            found = await self.info(gid)
            if found.phase != Phase.OVER.value:
                return found
        r = await self.store.repo.game_in_channel(guild_id, channel_id, include_over)
        if not include_over:
            self._channels[key] = r.id if r is not None else None
        return await self.info(r.id) if r and r.id is not None else None
