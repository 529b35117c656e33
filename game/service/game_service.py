"""The game service: every front end (bot, offline table, script runner) calls this.

A command is decided against the game's current state, its events are committed in one
transaction (optimistic version check), and only then acknowledged. Commands for one game run one
at a time in this process (a lock per game); the version check keeps two processes from
interleaving, and a refusal that may come from a stale copy is decided again on fresh state. A
request id makes a retried command apply once and answer as the first time, in any process.

Names in a command are resolved against what its sender may see, never the full state, so an error
cannot show another side's cards; the dice come from the game's secret seed (game/dice.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from game import events as ev
from game.account import overrides_line
from game.ai.captain import deciders
from game.ai.legal import legal_commands
from game.apply import apply, apply_all
from game.commands import (
    Command,
    Concede,
    Enlist,
    FixDice,
    PickCard,
)
from game.dice import derived_number, is_seed, seed_from_number
from game.errors import DiceNotAllowed, RulesError, UnknownName
from game.fairness import Verification, commitment, new_seed, verify_log
from game.model import Game, Phase
from game.names import mention
from game.notation import format_command, parse
from game.options import Options
from game.phases.preparation import drafted_game
from game.replay import Frame, frames
from game.rules_data import DATA_FILES, RulesData, default_texts, load_rules, rules_from_texts
from game.scenario import builtin_scenarios, load_scenario_text
from game.schema.common import MAX_NAME
from game.service import clock_service, orders_service, posts
from game.service.authority import (
    LOCAL_GUILD,
    Actor,
    Proxies,
    acting_for,
    as_seated,
    authorise,
    require_gm,
    seated,
    undo_consent,
)
from game.service.cache import SHARED_TTL, Bounded, GameCache
from game.service.clock_service import DeadlineResult, Reminder
from game.service.decision import Decision, Retime, Wait, current_waits, decision_of, still_waiting
from game.service.errors import (
    AlreadyDecided,
    ChannelBusy,
    GameDamaged,
    GameNotFound,
    NotPermitted,
    NotSeated,
    OtherSystem,
    SeatTaken,
    ServiceError,
    SquadronRefused,
    UndoRefused,
    WrongGuild,
)
from game.service.frontend import FrontEnd
from game.service.jobs import choose_job, decide_job, options_job, public_options_job
from game.service.models import (
    DataVersion,
    GameRecord,
    GuildSettings,
    SavedSquadron,
    ScheduledJob,
    Seat,
    utcnow,
)
from game.service.orders_service import OrderNote
from game.service.outbox import Post
from game.service.posts import Board, Created, Nudge, Status, stored
from game.service.proxies import proxies_for, stand_ins
from game.service.referee import RefereeService
from game.service.repository import DuplicateRequest, Loaded, Repository, VersionConflict, decode_state
from game.service.scheduler import Job
from game.service.workers import Workers
from game.service.workers import default as default_workers
from game.setup import TABLES
from game.squadron import SquadronList
from game.standing import Standing
from game.views import View, event_for, redact, view_of

log = logging.getLogger(__name__)

RETRIES = 5
DRAFTED = "drafted"  # the scenario name of a game set up by the chapter-7 sequence

__all__ = [
    "DRAFTED", "LOCAL_GUILD", "Actor", "AlreadyDecided", "ChannelBusy", "Expect", "GameDamaged", "GameNotFound", "GameService", "NotPermitted",
    "NotSeated", "Outcome", "SeatTaken", "ServiceError", "SquadronRefused", "UndoRefused", "WrongGuild",
]

# an undo never takes back what a player has seen and could profit from seeing again
UNDO_BARRIERS = (ev.DiceRolled, ev.DiceRerolled, ev.SetupCardsDrawn, ev.CardsRevealed, ev.EventCardDrawn,
                 ev.GameEnded)


@dataclass(frozen=True)
class SquadronInfo:
    name: str
    size: str
    faction: str
    points: int
    ships: int
    complete: bool = True  # legal: not a list still being built


@dataclass(frozen=True)
class Expect:
    """The decision a button or menu was made for. A command sent with it is refused, under the game's
    lock and before anything else is looked at, once the game has moved past that decision: a button
    from yesterday's roll never acts on today's."""

    roll: int | None = None  # the number of the RollAwaitsChoice event that opened the waiting roll
    turn: int | None = None  # the turn whose initiative pick a hand menu offers
    position: int | None = None  # the log length an options menu was read at
    decision: Decision | None = None  # what a scheduled action was planned for (game/service/decision.py)


@dataclass(frozen=True)
class Outcome:
    game_id: int
    first_seq: int
    last_seq: int
    events: tuple[Any, ...]  # as the actor may see them
    view: View
    replayed: bool = False  # the request id had been seen: this is the first answer again
    posts: tuple[int, ...] = ()  # the outbox rows written with the events (what the bot will post)


@dataclass(frozen=True)
class GameInfo:
    id: int
    name: str
    guild_id: str
    channel_id: str
    status: str
    seats: tuple[tuple[str, str | None, str, bool], ...]  # (player, user, display name, AI)
    turn: int
    phase: str
    dice_commitment: str = ""  # SHA-256 of the secret dice seed, published when the game begins


@dataclass(frozen=True)
class MyGame:
    """One of a user's unfinished games, wherever it is played."""

    id: int
    name: str
    guild_id: str
    channel_id: str
    turn: int
    phase: str
    waiting_on_me: tuple[str, ...]  # the user's sides the game waits for
    deadline: datetime | None


@dataclass(frozen=True)
class GameChannel:
    """Where one game of a Discord server is played, for `python -m bot --check`. `channel_id` is the
    place the game posts in: its thread for a game in a thread (the thread's parent channel is not
    stored; Discord tells it)."""

    game_id: int
    guild_id: str
    channel_id: str
    thread_id: str | None
    over: bool


@dataclass(frozen=True)
class PlanRefused:
    """A planned order that could not be carried out: said privately to whoever planned it."""

    user_id: str
    player: str
    line: str
    reason: str


@dataclass(frozen=True)
class DiceCheck:
    """A finished game's dice recomputed from its log and its revealed seed."""

    verification: Verification
    seed: str
    commitment: str
    test_dice: bool


@dataclass(frozen=True)
class RebuildReport:
    loaded: int
    damaged: tuple[tuple[int, str], ...]  # games that could not be rebuilt, and why


@dataclass(frozen=True)
class AuditReport:
    game_id: int
    events: int
    mismatches: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.mismatches


class GameService:
    def __init__(
        self,
        engine: AsyncEngine,
        snapshot_every: int = 50,
        rules: RulesData | None = None,
        max_db_concurrency: int = 8,
        seeds: Callable[[], str] = new_seed,
        shared: bool | None = None,
        workers: Workers | None = None,
        cached_games: int = 1000,
        outbox: bool = False,
    ) -> None:
        self.repo = Repository(engine, snapshot_every)
        self.front = FrontEnd(self.repo)  # what the front ends (the bot) use rather than the storage
        # with a front end that posts (the bot), each command writes what to post into the outbox
        self.outbox = outbox
        self.rules = rules or load_rules()
        self._new_seed = seeds  # where each game's secret dice seed comes from (tests inject theirs)
        # decisions and computer captains run here: inline (the default) or in worker processes
        self.workers = workers if workers is not None else default_workers()
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: GameCache = GameCache(cached_games, self._locks)
        self._fixed_dice: dict[int, deque[str]] = {}
        self._settings: dict[str, GuildSettings] = {}
        self._settings_read: dict[str, float] = {}  # when each guild's settings were read (shared database)
        # what autocomplete asks on every keystroke, kept until this process changes it (a process that
        # shares the database with others reads what they may change again: self.shared)
        self._channels: Bounded = Bounded(10_000)  # (guild, channel) -> its unfinished game's id or None
        self._squadron_rows: Bounded = Bounded(1_000)  # (guild, owner) -> their saved squadrons
        self._options_at: Bounded = Bounded(2_000)  # (game, version, …) -> the options then
        self._rules: dict[str, RulesData] = {}
        self._told: Bounded = Bounded(10_000)  # (game, player) -> log position a wait was told at
        # game clocks and members' hours, read on every change of turn: kept like the guild settings,
        # and bounded like every per-game cache
        self._clocks: Bounded = Bounded(10_000)
        self._hours: Bounded = Bounded(10_000)
        self._hours_read: Bounded = Bounded(10_000)  # when each member's hours were read (shared database)
        # more concurrent transactions than the connection pool holds would only queue inside it
        self._db_slots = asyncio.Semaphore(max_db_concurrency)
        # with a database several processes write (PostgreSQL), a cached game is checked against the
        # stored version before it is read: another process may have moved the game on
        self.shared = engine.dialect.name != "sqlite" if shared is None else shared

    @cached_property
    def referee(self) -> RefereeService:
        """The referee-assistant systems' games (game/service/referee.py), on the same storage and
        the same source of secret dice seeds."""
        return RefereeService(self.repo, self._new_seed, announcement=self._announcement,
                              on_create=lambda guild, channel: self._channels.pop(
            (guild, channel), None))  # "no game here", if it was kept, is no longer true

    # ------------------------------------------------------------------ game data per guild

    async def export_data(self, guild_id: str, system: str = "oak_and_iron") -> dict[str, str]:
        """The data files a new game of this guild would use: the built-in ones with the guild's
        imports in their place."""
        files = default_texts(system)
        files.update(await self._overrides(guild_id))
        return files

    async def import_data(self, actor: Actor, file_name: str, text: str, system: str = "oak_and_iron") -> str:
        """Replace one data file for this guild's new games (GM only). The whole set is validated
        first; a malformed file is refused naming the file, the entry and the field. Running games
        keep the data they started with."""
        require_gm(actor, "import game data")
        if file_name not in DATA_FILES:
            raise UnknownName(f"{file_name!r} is not a data file.", f"Data files: {', '.join(DATA_FILES)}.")
        overrides = await self._overrides(actor.guild_id)
        overrides[file_name] = text
        from game.data_trial import trial_game  # a DataError names the fault: in a file, or in a trial game

        await self.workers.run(trial_game, rules_from_texts(system, {**default_texts(system), **overrides}), file_name,
                               thread=True)
        settings = await self._guild_settings(actor.guild_id)
        settings.data_overrides = json.dumps(overrides)
        await self.save_guild_settings(settings)
        return _version_id(system, overrides)

    async def reset_data(self, actor: Actor) -> None:
        require_gm(actor, "reset the game data")
        settings = await self._guild_settings(actor.guild_id)
        settings.data_overrides = "{}"
        await self.save_guild_settings(settings)

    async def _overrides(self, guild_id: str) -> dict[str, str]:
        settings = await self._guild_settings(guild_id)
        data: dict[str, str] = json.loads(settings.data_overrides or "{}")
        return data

    async def rules_for(self, record: GameRecord) -> RulesData:
        """The data a game started with (built-in, or a guild's imported version)."""
        if record.data_version == "builtin":
            return self.rules
        found = self._rules.get(record.data_version)
        if found is None:
            stored = await self.repo.data_version(record.data_version)
            if stored is None:
                raise ServiceError(f"Game data version {record.data_version} is missing from the database.")
            files = {**default_texts(stored.system), **json.loads(stored.files)}
            found = self._rules[record.data_version] = rules_from_texts(stored.system, files)
        return found

    async def rules_of_game(self, game_id: int) -> RulesData:
        return await self.rules_for((await self._load(game_id)).record)

    # ------------------------------------------------------------------ saved squadrons

    async def save_squadron(self, actor: Actor, text: str) -> SquadronInfo:
        """Check a squadron list against every building rule and keep it for reuse (replacing a list
        of the same name). A list that breaks a rule is refused with each problem named."""
        from game.squadron import SquadronError, parse_squadron, squadron_points, validate

        rules = await self._guild_rules(actor.guild_id)
        try:
            sq = parse_squadron(text)
        except SquadronError as exc:
            raise SquadronRefused(f"The squadron list cannot be read: {exc}.", "Fix the fields named.") from None
        problems = validate(sq, rules)
        if problems:
            raise SquadronRefused("The squadron breaks the building rules: " + "; ".join(map(str, problems)) + ".",
                                  "Fix each entry and field named, then save it again.")
        points = squadron_points(sq, rules)
        self._squadron_rows.pop((actor.guild_id, actor.user_id), None)
        await self.repo.save_squadron(SavedSquadron(guild_id=actor.guild_id, owner_id=actor.user_id, name=sq.name,
                                                    size=sq.size, faction=sq.faction, points=points, text=text))
        return SquadronInfo(sq.name, sq.size, sq.faction, points, len(sq.ships))

    async def squadrons(self, actor: Actor) -> list[SquadronInfo]:
        rows = await self._squadrons_of(actor)
        return [SquadronInfo(r.name, r.size, r.faction, r.points, r.text.count("[[ship]]"), r.complete) for r in rows]

    async def start_squadron(self, actor: Actor, name: str, size: str, faction: str, admiral: str) -> str:
        """Begin building a list with the /squadron commands (replacing a list of that name)."""
        from game.squadron import SIZES
        from game.squadron_builder import new_list

        rules = await self._guild_rules(actor.guild_id)
        if size not in SIZES:
            raise SquadronRefused(f"There is no game size {size!r}.", f"Sizes: {', '.join(SIZES)}.")
        if faction not in rules.factions:
            raise SquadronRefused(f"There is no faction {faction!r}.", f"Factions: {', '.join(rules.factions)}.")
        found = rules.admirals.get(admiral)
        if found is None or found.nation not in ("", faction):
            fits = [a.name for a in rules.admirals.values() if a.nation in ("", faction)]
            raise SquadronRefused(f"{admiral!r} is not an admiral a {faction} squadron may take.",
                                  f"Admirals: {', '.join(fits)}.")
        if not name.strip() or len(name.strip()) > MAX_NAME:
            raise SquadronRefused(f"A squadron needs a name of 1 to {MAX_NAME} characters.")
        return await self._keep_squadron(actor, new_list(name.strip(), size, faction, admiral), rules)

    async def edit_squadron(self, actor: Actor, name: str, change: Callable[[SquadronList], SquadronList]) -> str:
        """Apply one builder step to a saved list; answers with the list's summary and what is still wrong."""
        from game.squadron import SquadronError, parse_squadron

        text = await self.squadron_text(actor, name)
        try:
            sq = parse_squadron(text, partial=True)
        except SquadronError as exc:
            raise SquadronRefused(f"The saved list cannot be read: {exc}.") from None
        return await self._keep_squadron(actor, change(sq), await self._guild_rules(actor.guild_id))

    async def _keep_squadron(self, actor: Actor, sq: SquadronList, rules: RulesData) -> str:
        from game.squadron import SquadronError, parse_squadron, squadron_points, validate
        from game.squadron_builder import summary, to_toml

        try:  # what is kept must read back: a name too long for the file format would lock the list
            parse_squadron(to_toml(sq), partial=True)
        except SquadronError as exc:
            raise SquadronRefused(f"That cannot go into a squadron list: {exc}.",
                                  f"Names are 1 to {MAX_NAME} characters.") from None
        row = SavedSquadron(guild_id=actor.guild_id, owner_id=actor.user_id, name=sq.name, size=sq.size,
                            faction=sq.faction, points=squadron_points(sq, rules), text=to_toml(sq),
                            complete=not validate(sq, rules))
        self._squadron_rows.pop((actor.guild_id, actor.user_id), None)
        await self.repo.save_squadron(row)
        return summary(sq, rules)

    async def squadron_text(self, actor: Actor, name: str) -> str:
        for row in await self._squadrons_of(actor):
            if row.name.casefold() == name.casefold():
                return row.text
        raise UnknownName(f"You have no saved squadron called {name!r}.", "List yours with /squadron list.")

    async def _squadrons_of(self, actor: Actor) -> list[SavedSquadron]:
        key = (actor.guild_id, actor.user_id)
        rows: list[SavedSquadron] | None = None if self.shared else self._squadron_rows.get(key)
        if rows is None:
            rows = self._squadron_rows[key] = await self.repo.squadrons_of(*key)
        return rows

    async def guild_rules(self, guild_id: str) -> RulesData:
        """The data a new game (or squadron) of this guild is built with."""
        return await self._guild_rules(guild_id)

    async def _guild_rules(self, guild_id: str) -> RulesData:
        return (await self._guild_data(guild_id))[1]

    async def _guild_data(self, guild_id: str) -> tuple[str, RulesData]:
        """The data version a new game of this guild starts with, and its rules (parsed once)."""
        overrides = await self._overrides(guild_id)
        if not overrides:
            return "builtin", self.rules
        version = _version_id("oak_and_iron", overrides)
        found = self._rules.get(version)
        if found is None:
            found = self._rules[version] = rules_from_texts("oak_and_iron", {**default_texts(), **overrides})
        return version, found

    # ------------------------------------------------------------------ games and seats

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
    ) -> GameInfo:
        """A game from a scenario, or with scenario "drafted" a game of the given size that starts
        with the chapter-7 set-up once each side has joined with a saved squadron.

        The dice seed is drawn in secret. Only the offline table and the script runner (one person at
        one screen) may choose it: `seed`, or with `scenario_seed` the scenario file's own number."""
        if (seed is not None or scenario_seed) and not actor.local:
            raise NotPermitted("Nobody chooses the dice of a game here: each game draws a secret seed.",
                               "Its SHA-256 is posted when the game begins and the seed when it ends (/game verify).")
        busy = await self.repo.game_in_channel(actor.guild_id, thread_id or channel_id)
        if busy is not None:
            raise ChannelBusy(
                f"This channel already has a game in progress ({busy.name}, #{busy.id}).",
                "Finish or concede it, or start the new game in its own thread.",
            )
        version, rules = await self._guild_data(actor.guild_id)
        state = _starting_state(scenario, scenario_text, size, name, rules)
        if version != "builtin":
            overrides = await self._overrides(actor.guild_id)
            await self.repo.save_data_version(DataVersion(id=version, system="oak_and_iron", files=json.dumps(overrides)))
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
        record = await self.repo.create_game(record, state, seats, self._announcement(state.system))
        assert record.id is not None
        self._channels.pop((actor.guild_id, record.channel_id), None)
        return await self.info(record.id)

    async def check_scenario(self, actor: Actor, scenario: str = "quickstart", scenario_text: str | None = None,
                             size: str = "skirmish") -> str:
        """The name of the game create_game would make of this scenario, or the RulesError it would
        raise for it: a front end checks before it makes anything for the game (a thread)."""
        return _starting_state(scenario, scenario_text, size, None, await self._guild_rules(actor.guild_id)).name

    async def join(self, actor: Actor, game_id: int, player: str | None = None, display_name: str = "",
                   ai: bool = False, squadron: str | None = None) -> GameInfo:
        """Take a side (or give it to the computer captain). A drafted game needs a squadron: one of
        the actor's saved lists (the computer captain brings a random legal one)."""
        enlist = await self._squadron_for(actor, game_id, squadron, ai)
        async with self._lock(game_id):
            for attempt in range(RETRIES):
                loaded = await self._load(game_id, actor, fresh=attempt > 0)
                seat = self._free_seat(loaded, player)
                if ai:
                    seat.is_ai, seat.user_id, seat.display_name = True, None, f"Computer captain ({seat.player})"
                else:
                    seat.user_id, seat.display_name = actor.user_id, display_name[:100] or actor.user_id
                try:
                    await self.repo.update_seat(seat, loaded.record)
                    break
                except VersionConflict:  # another process changed the game: look at the seats again
                    self._cache.pop(game_id, None)
            else:
                raise ServiceError("The game is busy; try again in a moment.")
        if all(s.user_id is not None or s.is_ai for s in loaded.seats):
            # every side is taken: the game's clock starts for whoever it now waits for
            await clock_service.plan_afresh(self, game_id)
        if enlist is not None:
            try:
                await self.submit(Actor(f"ai:{seat.player}", actor.guild_id), game_id, Enlist(seat.player, enlist))
            except RulesError:
                async with self._lock(game_id):  # the side is free again: nothing half-done
                    loaded = await self._load(game_id, fresh=True)
                    seat = next(s for s in loaded.seats if s.player == seat.player)
                    seat.user_id, seat.is_ai, seat.display_name = None, False, f"Player {seat.player}"
                    await self.repo.update_seat(seat, loaded.record)
                raise
        return await self.info(game_id)

    @staticmethod
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

    async def _squadron_for(self, actor: Actor, game_id: int, name: str | None, ai: bool) -> SquadronList | None:
        from game.squadron import SquadronError, parse_squadron, random_squadron

        loaded = await self._load(game_id, actor)
        prep = loaded.state.prep
        if prep is None or loaded.state.phase is not Phase.PREPARATION:
            if name:
                raise SquadronRefused("This game's squadrons come from its scenario.",
                                      "Join without a squadron, or create a drafted game for your list.")
            return None
        if ai and not name:
            rules = await self.rules_for(loaded.record)
            enlisted = sum(1 for q in loaded.state.squadrons if q.name)  # a second computer side gets another list
            return random_squadron(derived_number(loaded.record.dice_seed, f"squadron:{enlisted}"), prep.size, rules)
        if not name:
            raise SquadronRefused(f"This is a drafted {prep.size}: join with one of your saved squadrons.",
                                  "Build one with /squadron new (or save a file with /squadron save), then "
                                  "/game join squadron: NAME.")
        try:
            return parse_squadron(await self.squadron_text(actor, name))  # the engine checks it on enlisting
        except SquadronError as exc:
            raise SquadronRefused(f"The saved squadron cannot be read: {exc}.") from None

    async def info(self, game_id: int) -> GameInfo:
        try:
            loaded = await self._load(game_id)
        except OtherSystem:  # a referee-assistant game: listed here, played through game/service/referee.py
            ref = await self.referee.info(game_id)
            phase = Phase.OVER.value if ref.status == "over" else ref.phase  # what the channel lookup reads
            return GameInfo(ref.id, ref.name, ref.guild_id, ref.channel_id, ref.status,
                            tuple((p, u, n, False) for p, u, n in ref.seats), ref.turn, phase, ref.dice_commitment)
        r, st = loaded.record, loaded.state
        assert r.id is not None
        return GameInfo(r.id, r.name, r.guild_id, r.channel_id, r.status,
                        tuple((s.player, s.user_id, s.display_name, s.is_ai) for s in sorted(loaded.seats, key=lambda s: s.player)),
                        st.turn, st.phase.value, commitment(r.dice_seed) if r.dice_seed else "")

    async def my_games(self, user_id: str) -> list[MyGame]:
        """Every unfinished game the user plays in, in any server: the ones waiting on them first
        (soonest deadline first), then the rest."""
        out = []
        for gid in await self.repo.live_games_of_user(user_id):
            try:
                loaded = await self._load(gid)
            except ServiceError:
                continue  # a damaged game is reported at start-up, not here
            mine = seated(loaded.seats, Actor(user_id, loaded.record.guild_id))
            due = deciders(loaded.state)
            out.append(MyGame(gid, loaded.record.name, loaded.record.guild_id, loaded.record.channel_id,
                              loaded.state.turn, loaded.state.phase.value, tuple(p for p in mine if p in due),
                              await self.repo.next_deadline(gid)))
        far = datetime.max.replace(tzinfo=UTC)
        return sorted(out, key=lambda g: (not g.waiting_on_me, g.deadline or far, -g.id))

    async def list_games(self, guild_id: str) -> list[GameInfo]:
        return [await self.info(r.id) for r in await self.repo.games_of_guild(guild_id) if r.id is not None]

    async def games_page(self, guild_id: str, page: int = 1, per_page: int = 10) -> tuple[list[GameInfo], int]:
        """One page of the guild's games (unfinished first, newest first) and how many there are."""
        records, total = await self.repo.games_page(guild_id, per_page, (max(1, page) - 1) * per_page)
        return [await self.info(r.id) for r in records if r.id is not None], total

    async def game_channels(self) -> list[GameChannel]:
        """Every channel and thread that has or had a game, of every system (Oak & Iron and the
        referee-assistant ones share the games table), by server and channel; games of the offline
        table are in no server and left out."""
        return [GameChannel(i, guild, channel, thread, status == "over")
                for i, guild, channel, thread, status in await self.repo.game_places(LOCAL_GUILD)]

    async def game_in_channel(self, guild_id: str, channel_id: str, include_over: bool = False) -> GameInfo | None:
        key = (guild_id, channel_id)
        # with several processes, "no game here" is not kept: another process may have made one since
        if not include_over and key in self._channels and not (self.shared and self._channels.get(key) is None):
            gid = self._channels.get(key)
            if gid is None:
                return None
            found = await self.info(gid)
            if found.phase != Phase.OVER.value:
                return found
        r = await self.repo.game_in_channel(guild_id, channel_id, include_over)
        if not include_over:
            self._channels[key] = r.id if r is not None else None
        return await self.info(r.id) if r and r.id is not None else None

    # ------------------------------------------------------------------ reading

    async def view(self, actor: Actor, game_id: int, player: str | None = None) -> View:
        """The game as the actor sees it; a player with two squadrons names the one to look through."""
        loaded = await self._load(game_id, actor)
        players = await self._sides(loaded, actor)
        if player is not None:
            if player not in players:
                raise NotSeated(f"You do not command side {player}.", f"Your sides: {', '.join(players) or 'none'}.")
            return view_of(loaded.state, player, also=players)
        return view_of(loaded.state, players[0] if players else None, also=players)

    async def sides_of(self, actor: Actor, game_id: int) -> list[str]:
        """The sides the actor gives orders for now: their own seats, and those they stand in for."""
        return await self._sides(await self._load(game_id, actor), actor)

    async def _sides(self, loaded: Loaded, actor: Actor) -> list[str]:
        players = self._players_of(loaded, actor)
        if actor.captain_of is not None:
            return players
        stand = Proxies(stand_ins=await stand_ins(self.repo, loaded, utcnow()))
        return sorted({*players, *stand.stood_in(loaded.state, loaded.seats, actor)})

    async def state_for_audit(self, game_id: int) -> Game:
        """The full state (with every secret): for the audit and tests, never for a front end."""
        return (await self._load(game_id)).state

    async def legal(self, actor: Actor, game_id: int, ship: str | None = None) -> list[str]:
        """The orders the actor could give now, found on what the actor may see."""
        loaded = await self._load(game_id, actor)
        mine = self._players_of(loaded, actor)
        out = []
        for cmd in legal_commands(redact(loaded.state, mine), await self.rules_for(loaded.record)):
            owner = getattr(cmd, "player", "")
            if mine and owner and owner not in mine:
                continue
            if ship is not None and getattr(cmd, "ship", ship) != ship:
                continue
            out.append(format_command(cmd))
        return out

    async def options(self, actor: Actor, game_id: int, ship: str | None = None) -> tuple[int, Options]:
        """What the actor can do now (from their own view), and the log position it was read at: a
        menu built from it answers only while the game is still there."""
        loaded = await self._load(game_id, actor)
        players = await self._sides(loaded, actor)
        waiting = [p for p in players if p in deciders(loaded.state)]
        viewer = waiting[0] if waiting else (players[0] if players else None)
        key = (game_id, loaded.record.version, viewer, tuple(players), ship)
        found: Options | None = self._options_at.get(key)
        if found is None:
            rules = await self.rules_for(loaded.record)
            found = self._options_at[key] = await self.workers.run(
                options_job, view_of(loaded.state, viewer, also=players), rules, ship)
        return loaded.record.last_seq, found

    async def position(self, game_id: int) -> int:
        """How many events the game's log holds: the moment a menu or button belongs to."""
        return (await self._load(game_id)).record.last_seq

    async def roll_decision(self, game_id: int) -> int | None:
        """The decision the roll buttons answer: the number of the event that opened the roll the game
        waits on (None when no roll waits). It stays the same while that roll waits, re-rolls included."""
        return await self._roll_decision(await self._load(game_id))

    async def _roll_decision(self, loaded: Loaded) -> int | None:
        if loaded.state.pending is None:
            return None
        assert loaded.record.id is not None
        # an undo never reaches back past dice (UNDO_BARRIERS), so the latest such event opened the roll
        # that waits, even when an undo has brought it back
        async with self._db_slots:
            seq = await self.repo.last_event_seq(loaded.record.id, "RollAwaitsChoice", loaded.record.last_seq)
        return seq or 0

    async def _expect(self, loaded: Loaded, expect: Expect) -> None:
        """Refuse a command whose button or menu was made for a decision the game has moved past."""
        if expect.roll is not None and await self._roll_decision(loaded) != expect.roll:
            raise AlreadyDecided("That roll was already decided.",
                                 "Use the buttons on the newest board post (`/game status` posts one).")
        if expect.turn is not None and loaded.state.turn != expect.turn:
            raise AlreadyDecided(f"That pick was for turn {expect.turn}; it is turn {loaded.state.turn} now.",
                                 "Press the Choose initiative card button on the newest board post.")
        if expect.position is not None and loaded.record.last_seq != expect.position:
            raise AlreadyDecided("That menu was for an earlier moment of the game: play has moved on.",
                                 "Use the newest board's menu, or /options.")
        if expect.decision is not None:
            self._require_waiting(loaded, expect.decision)

    def _waits(self, loaded: Loaded) -> dict[str, Wait]:
        return current_waits(loaded.record.waits, loaded.state, loaded.seats, loaded.record.updated_at)

    def decision_now(self, loaded: Loaded, player: str) -> Decision | None:
        """The decision the game waits on from this side, as it stands at this moment."""
        return decision_of(loaded.record.id or 0, self._waits(loaded), player, loaded.record.last_seq)

    def _is_waiting(self, loaded: Loaded, decision: Decision) -> bool:
        return still_waiting(loaded.record.id or 0, loaded.record.last_seq, loaded.state, loaded.seats,
                             self._waits(loaded), decision)

    def _require_waiting(self, loaded: Loaded, decision: Decision) -> None:
        if not self._is_waiting(loaded, decision):
            raise AlreadyDecided(f"The game no longer waits on the decision that was for player {decision.player}.",
                                 "Nothing was done for them.")

    async def public_options(self, game_id: int) -> list[Options]:
        """The options of each player the game waits for, as may be posted in the channel."""
        loaded = await self._load(game_id)
        # the board post, the status edit, a reminder and the options menu all ask at the same moment:
        # working out the closing moves (trial moves through the engine) once per moment is enough
        key = (game_id, loaded.record.version)  # every change of the game moves its version on
        found: list[Options] | None = self._options_at.get(key)
        if found is None:
            rules = await self.rules_for(loaded.record)
            found = await self.workers.run(public_options_job, loaded.state, sorted(deciders(loaded.state)), rules)
            self._options_at[key] = found
        return found

    async def waiting_for(self, game_id: int) -> list[str]:
        """The players the game waits for (those public_options lists), without working out their options."""
        return sorted(deciders((await self._load(game_id)).state))

    async def log(self, actor: Actor, game_id: int, last: int = 20) -> list[Any]:
        loaded = await self._load(game_id, actor)
        mine = self._players_of(loaded, actor)
        first = max(1, loaded.record.last_seq - last + 1)
        return [event_for(e, mine) for _, _, e in await self.repo.events(game_id, first)]

    # ------------------------------------------------------------------ acting

    async def submit(self, actor: Actor, game_id: int, command: Command | str, request_id: str | None = None,
                     expect: Expect | None = None, override: bool = False) -> Outcome:
        """Apply a player's command (or a line of notation) and commit it before answering. With
        `expect`, only while the game still waits on the decision the command was sent for; with
        `override`, a GM acts for a player within their deadline (logged: authority.acting_for)."""
        # a request id is looked up only when the command fails: the first time, the unique key on
        # the commit is all the check there is (DuplicateRequest)
        async with self._lock(game_id):
            for attempt in range(RETRIES):
                # no version check on the way in: the commit's own check catches a stale copy
                loaded = await self._load(game_id, actor, fresh=attempt > 0, verify=False)
                acted_for: ev.ActedFor | None = None
                try:
                    if expect is not None:
                        await self._expect(loaded, expect)
                    cmd, acted_for = await self._prepare(loaded, actor, command, override)
                    if isinstance(cmd, FixDice):
                        await self._fix_dice(loaded, actor, cmd)
                        return Outcome(game_id, loaded.record.last_seq, loaded.record.last_seq, (),
                                       self._view_for(loaded, actor, loaded.state))
                    events = await self._decide(loaded, cmd)
                except RulesError as exc:
                    if request_id and (seen := await self._answered(actor, game_id, request_id)) is not None:
                        return seen  # the command was carried out before: refused now only for that
                    if attempt == 0 and await self._stale(loaded):
                        continue  # decided on an old copy: another process moved the game on
                    if acted_for is not None and acted_for.kind == "override":
                        # the override read the side's hidden cards to act for it; a refusal in the
                        # rules' words could show them, and a refused attempt logs nothing
                        raise NotPermitted(f"That order cannot be given for player {acted_for.player} now.",
                                           "A refused GM override says no more than that, so that it never "
                                           "shows the side's hidden cards: check the line and try again.") from exc
                    raise
                if acted_for is not None:
                    events = [acted_for, *events]
                try:
                    return await self._commit(loaded, actor, events, request_id)
                except VersionConflict:
                    self._cache.pop(game_id, None)
                    continue
                except DuplicateRequest:
                    if (seen := await self._answered(actor, game_id, request_id or "")) is not None:
                        return seen
                    raise
            raise ServiceError("The game is busy: other orders kept arriving.", "Try again in a moment.")

    async def _prepare(self, loaded: Loaded, actor: Actor, command: Command | str,
                       override: bool = False) -> tuple[Command, ev.ActedFor | None]:
        """Parse the line against what the actor may see, then check the actor may give it."""
        actor = as_seated(loaded.seats, actor)
        players = self._players_of(loaded, actor)
        proxies = await proxies_for(self.repo, loaded, actor, override) if actor.captain_of is None else Proxies()
        sides = [*players, *proxies.stood_in(loaded.state, loaded.seats, actor)]
        if not sides and not actor.gm:
            raise NotSeated("You are not playing in this game.", "Join a side first (/game join), or watch.")
        if isinstance(command, str):
            knows = [*sides, *proxies.absent]
            try:
                command = parse(command, redact(loaded.state, knows), hands=knows)
            except RulesError as refused:
                peek = [*knows, *deciders(loaded.state)]
                if not proxies.override or peek == knows:
                    raise
                # an override reads the hand of a side the game waits on, as the GM acting for it must;
                # a line that still does not parse is refused in the words of what the GM may see, or a
                # refused attempt (which logs nothing) would show them the hand
                try:
                    command = parse(command, redact(loaded.state, peek), hands=peek)
                except RulesError:
                    raise refused from None
        if isinstance(command, FixDice):
            return command, None
        return authorise(loaded.state, loaded.seats, actor, command, proxies)

    async def _stale(self, loaded: Loaded) -> bool:
        assert loaded.record.id is not None
        version = await self.repo.version_of(loaded.record.id)
        if version is not None and version != loaded.record.version:
            self._cache.pop(loaded.record.id, None)
            return True
        return False

    async def pick(self, actor: Actor, game_id: int, card: str, player: str | None = None,
                   request_id: str | None = None, expect: Expect | None = None) -> Outcome:
        loaded = await self._load(game_id, actor)
        players = self._players_of(loaded, actor)
        who = player or (players[0] if len(players) == 1 else "")
        if not who:
            raise NotSeated("Say which side you are choosing for.", f"Your sides: {', '.join(players) or 'none'}.")
        return await self.submit(actor, game_id, PickCard(who, card), request_id, expect)

    async def concede(self, actor: Actor, game_id: int, player: str | None = None,
                      request_id: str | None = None) -> Outcome:
        loaded = await self._load(game_id, actor)
        actor = as_seated(loaded.seats, actor)
        players = self._players_of(loaded, actor)
        who = player or (players[0] if players else "")
        if not who or (who not in players and not actor.gm):
            raise NotSeated("Only a player (or a GM) can concede a game.")
        return await self.submit(actor, game_id, Concede(who), request_id)

    async def hand_over(self, actor: Actor, game_id: int, to_user: str | None = None, to_name: str = "",
                        player: str | None = None, request_id: str | None = None, override: bool = False) -> Outcome:
        """Give a side to another member (`to_user`) or, with none, to the computer captain. The side's
        player may do it, or a GM for any side; a GM takes a seat for themselves only as they may act
        for it (authority.acting_for, with `override`). The log says who played each turn."""
        async with self._lock(game_id):
            loaded = await self._load(game_id, actor, fresh=True)
            actor = as_seated(loaded.seats, actor)
            players = self._players_of(loaded, actor)
            who = player or (players[0] if len(players) == 1 else "")
            if not who:
                raise NotSeated("Say which side to hand over." if players else "Only a side's player (or a GM) can hand it over.",
                                f"Your sides: {', '.join(players)}." if players else "Join a side first.")
            if who not in players and not actor.gm:
                raise NotSeated(f"Side {who} is not yours to hand over.", "Hand over your own side, or ask a GM.")
            if not actor.gm and await _ranked(self, game_id):
                raise NotPermitted("This is a ranked league game: only a GM may hand over its seats.",
                                   "Ask a GM (/game handover), so the league's results stay the players' own.")
            seat = next((s for s in loaded.seats if s.player == who), None)
            if seat is None:
                raise UnknownName(f"There is no side {who[:20]!r} in this game.",
                                  f"Sides: {', '.join(s.player for s in loaded.seats)}.")
            if loaded.state.phase is Phase.OVER:
                raise ServiceError("The game is over: its seats stay as they were.")
            if to_user is not None and any(s.user_id == to_user and s.player != who for s in loaded.seats):
                raise SeatTaken("That member already plays another side of this game.",
                                "Give the side to someone without a seat, or to the computer captain.")
            if (to_user is not None and to_user == seat.user_id) or (to_user is None and seat.is_ai):
                raise SeatTaken(f"Side {who} is already theirs.")
            taken = None
            if to_user == actor.user_id:
                taken = acting_for(loaded.state, loaded.seats, actor, who,
                                   await proxies_for(self.repo, loaded, actor, override))
            before = seat.display_name
            if to_user is None:
                seat.user_id, seat.is_ai, seat.display_name = None, True, f"Computer captain ({who})"
            else:
                seat.user_id, seat.is_ai, seat.display_name = to_user, False, (to_name[:100] or to_user)
            event = ev.SeatHandedOver(who, before, seat.display_name, actor.user_id, to_user is None)
            try:
                return await self._commit(loaded, actor, [*([taken] if taken else []), event], request_id,
                                          seats=[seat])
            except VersionConflict:
                self._cache.pop(game_id, None)  # the seat was changed only in this copy
                raise ServiceError("The game moved on while the side was handed over.", "Try again.") from None

    async def seat_history(self, game_id: int) -> list[tuple[str, int, str]]:
        """Who played each side, from which turn: (side, first turn, name), in order."""
        loaded = await self._load(game_id)
        turn = 0
        history: list[tuple[str, int, str]] = []
        first: dict[str, str] = {}
        for _, _, e in await self.repo.events(game_id):
            if isinstance(e, ev.PhaseBegan):
                turn = e.turn
            elif isinstance(e, ev.SeatHandedOver):
                first.setdefault(e.player, e.before)
                history.append((e.player, turn, e.to))
        starts = [(s.player, 0, first.get(s.player, s.display_name)) for s in loaded.seats]
        return sorted(starts + history, key=lambda h: (h[0], h[1]))

    async def gm_overrides(self, game_id: int) -> str:
        """The game's GM overrides in one line (account.overrides_line), for its game-over post."""
        return overrides_line(e for _, _, e in await self.repo.events(game_id))

    async def set_gm_role(self, actor: Actor, role_id: str) -> None:
        """Name the role whose members act as GMs here. Only a GM (Manage Server, or the current GM role)
        may, whatever permissions the server gives the command itself."""
        require_gm(actor, "choose the GM role")
        settings = await self._guild_settings(actor.guild_id)
        settings.gm_role_id = role_id
        await self.save_guild_settings(settings)

    async def request_undo(self, actor: Actor, game_id: int, request_id: str | None = None) -> Outcome:
        """Ask to take back the last activation. A GM's request is carried out at once; a
        player's waits for the opponent's consent (`approve_undo`), which the computer captain gives
        for every activation an undo may take back."""
        loaded = await self._load(game_id, actor)
        actor = as_seated(loaded.seats, actor)
        if actor.gm:
            return await self._undo(actor, game_id, request_id, f"undone by a GM ({mention(actor.user_id)})")
        mine = self._players_of(loaded, actor)
        others = [s for s in loaded.seats if mine and not loaded.state.allied(s.player, mine[0])]
        if others and all(s.is_ai for s in others):
            return await self._undo(actor, game_id, request_id, "undone with the computer captain's consent")
        if request_id:
            seen = await self._answered(actor, game_id, request_id)
            if seen is not None:
                return seen
        async with self._lock(game_id):
            for attempt in range(RETRIES):
                loaded = await self._load(game_id, actor, fresh=attempt > 0)
                players = self._players_of(loaded, actor)
                if not players:
                    raise NotSeated("Only a player or a GM may ask to undo.")
                await self._undo_target(loaded)  # refuse now what could never be undone
                event = ev.UndoRequested(players[0], loaded.record.last_seq, actor.user_id)
                try:
                    first, last = await self._write(loaded, actor, [event], apply(loaded.state, event), request_id)
                except VersionConflict:
                    self._cache.pop(game_id, None)
                    continue
                return Outcome(game_id, first, last, (event,), self._view_for(loaded, actor, loaded.state))
            raise ServiceError("The game is busy: other orders kept arriving.", "Try again in a moment.")

    async def approve_undo(self, actor: Actor, game_id: int, request_id: str | None = None) -> Outcome:
        """The asker's opponent consents (or a GM does it, and the log says so)."""
        loaded = await self._load(game_id, actor, fresh=True)
        req = loaded.state.undo_request
        if req is None:
            raise UndoRefused("Nobody has asked to undo.", "A player asks first (undo), then the opponent consents.")
        asker, seq = req
        asked = [e for _, _, e in await self.repo.events(game_id, loaded.record.last_seq)
                 if isinstance(e, ev.UndoRequested)]
        reason = undo_consent(loaded.state, loaded.seats, as_seated(loaded.seats, actor), asker,
                              asked[-1].by if asked else "")
        if seq != loaded.record.last_seq - 1:
            raise UndoRefused("Play has moved on since the undo was asked for.")
        return await self._undo(actor, game_id, request_id, reason)

    async def _undo_target(self, loaded: Loaded) -> tuple[int, list[tuple[int, int, Any]]]:
        """The command an undo would take back, and the log; refused when that would take back dice,
        a revealed card or a new phase that players have already seen."""
        assert loaded.record.id is not None
        log_rows = await self.repo.events(loaded.record.id)
        commands: dict[int, list[Any]] = {}
        for _, cmd, e in log_rows:
            commands.setdefault(cmd, []).append(e)
        for cmd in sorted(commands, reverse=True):
            kinds = {type(e) for e in commands[cmd]}
            if ev.StateRestored in kinds:
                break  # never undo past an earlier undo
            if kinds <= {ev.UndoRequested, ev.CardPicked, ev.SeatHandedOver, ev.ClockChanged, ev.ActedFor}:
                # not activations (an ActedFor alone with a hand-over: a GM took the seat)
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
        if request_id:
            seen = await self._answered(actor, game_id, request_id)
            if seen is not None:
                return seen
        async with self._lock(game_id):
            for attempt in range(RETRIES):
                loaded = await self._load(game_id, actor, fresh=attempt > 0)
                target, log_rows = await self._undo_target(loaded)
                state = decode_state(loaded.record.initial_state)
                for _, cmd, e in log_rows:
                    if cmd >= target:
                        break
                    state = apply(state, e)
                event = ev.StateRestored(state, reason)
                written: list[int] = []
                try:
                    first, last = await self._write(loaded, actor, [event], state, request_id, written=written)
                except VersionConflict:
                    self._cache.pop(game_id, None)
                    continue
                return Outcome(game_id, first, last, (event_for(event, self._players_of(loaded, actor)),),
                               self._view_for(loaded, actor, state), posts=tuple(written))
            raise ServiceError("The game is busy: other orders kept arriving.", "Try again in a moment.")

    # ------------------------------------------------------------------ plan ahead

    async def plan(self, actor: Actor, game_id: int, line: str) -> str:
        """Queue an order for the actor's next activation (players in other time zones). Only for
        the actor's own side, whatever the line names."""
        loaded = await self._load(game_id, actor)
        players = self._players_of(loaded, actor)
        if not players:
            raise NotSeated("You are not playing in this game.", "Join a side first (/game join).")
        cmd = parse(line, redact(loaded.state, players), hands=players)
        if isinstance(cmd, FixDice):
            raise DiceNotAllowed("Fixing dice cannot be planned.")
        cmd, _ = authorise(loaded.state, loaded.seats, replace(actor, gm=False), cmd, Proxies())
        player = getattr(cmd, "player", "") or players[0]
        text = format_command(cmd)
        await self.repo.add_planned(game_id, player, actor.user_id, text)
        return text

    async def run_planned(self, game_id: int) -> list[Outcome | PlanRefused]:
        """When the game waits for a player who planned an order, carry it out if it is still
        legal; otherwise drop it and say why, to the planner only."""
        loaded = await self._load(game_id)
        waiting = deciders(loaded.state)
        if len(waiting) != 1:
            return []
        player = next(iter(waiting))
        order = await self.repo.next_planned(game_id, player)
        if order is None:
            return []
        if all(s.user_id != order.user_id for s in loaded.seats if s.player == player):
            # planned by the side's former player: it lapsed with the hand-over, and concerns nobody now
            await self.repo.finish_planned(order, "lapsed", "the side changed hands")
            return []
        actor = Actor(order.user_id, loaded.record.guild_id)
        try:
            # for the decision waited on as read here: if play moved on meanwhile (another process, the
            # player by hand), the order stays queued for the player's next decision
            outcome = await self.submit(actor, game_id, order.line, request_id=f"planned:{order.id}",
                                        expect=Expect(decision=self.decision_now(loaded, player)))
        except AlreadyDecided:
            return []
        except RulesError as exc:
            await self.repo.finish_planned(order, "refused", exc.text)
            return [PlanRefused(order.user_id, player, order.line, exc.text)]
        await self.repo.finish_planned(order, "applied", "")
        return [outcome]

    # ------------------------------------------------------------------ standing orders (orders_service.py)

    async def standing_orders(self, actor: Actor, game_id: int, player: str | None = None) -> Standing:
        return await orders_service.current(self, actor, game_id, player)

    async def lapsed_orders(self, actor: Actor, game_id: int, player: str | None = None) -> str:
        return await orders_service.lapsed(self, actor, game_id, player)

    async def order_move(self, actor: Actor, game_id: int, line: str, player: str | None = None) -> Standing:
        return await orders_service.order_move(self, actor, game_id, line, player)

    async def order_attack(self, actor: Actor, game_id: int, ship: str, rule: str, target: str = "",
                           then: str = "best", player: str | None = None) -> Standing:
        return await orders_service.order_attack(self, actor, game_id, ship, rule, target, then, player)

    async def order_policy(self, actor: Actor, game_id: int, reroll: str | None = None, fallback: str | None = None,
                           discretion: bool | None = None, ship: str | None = None,
                           player: str | None = None) -> Standing:
        return await orders_service.order_policy(self, actor, game_id, reroll, fallback, discretion, ship, player)

    async def clear_orders(self, actor: Actor, game_id: int, player: str | None = None) -> None:
        await orders_service.clear(self, actor, game_id, player)

    async def run_standing(self, game_id: int) -> list[Outcome | OrderNote]:
        """Standing orders (or the only legal answer) take the decision the game waits on, if they can."""
        return await orders_service.run_standing(self, game_id, self._told)

    # ------------------------------------------------------------------ the game clock (clock_service.py)

    async def clock_settings(self, actor: Actor, game_id: int, reminder_hours: int | None = None,
                             deadline_hours: int | None = None, on_deadline: str | None = None,
                             skip_quiet: bool | None = None) -> Outcome:
        """A GM sets the game's reminder and deadline and what the deadline does; the log says so."""
        return await clock_service.settings(self, actor, game_id, reminder_hours, deadline_hours, on_deadline,
                                            skip_quiet)

    async def pause_clock(self, actor: Actor, game_id: int, paused: bool = True) -> Outcome:
        return await clock_service.pause(self, actor, game_id, paused)

    async def extend_clock(self, actor: Actor, game_id: int, hours: int) -> Outcome:
        return await clock_service.extend(self, actor, game_id, hours)

    async def set_hours(self, actor: Actor, time_zone: str | None = None, quiet_from: int | None = None,
                        quiet_to: int | None = None) -> str:
        return await clock_service.set_hours(self, actor, time_zone, quiet_from, quiet_to)

    async def set_away(self, actor: Actor, until: datetime | None, mode: str = "stop",
                       substitute: str | None = None) -> list[int]:
        return await clock_service.set_away(self, actor, until, mode, substitute)

    async def on_deadline(self, game_id: int, player: str, action: str | None = None) -> DeadlineResult | None:
        """What the game's clock says a passed deadline does, for the decision the side is waited on now."""
        decision = self.decision_now(await self._load(game_id, fresh=True), player)
        return None if decision is None else await clock_service.on_deadline(self, replace(decision, at=None), action)

    async def due_deadline(self, job: ScheduledJob | Job) -> DeadlineResult | None:
        """The deadline job's work, for the decision it was planned for (None: it ends quietly)."""
        return await clock_service.due_deadline(self, job)

    async def due_reminder(self, job: ScheduledJob | Job) -> Reminder | None:
        """Whom a reminder job pings, and with what (None: it ends quietly)."""
        return await clock_service.due_reminder(self, job)

    # ------------------------------------------------------------------ the computer captain

    async def play_ai(self, game_id: int, limit: int = 200) -> list[Outcome]:
        """Let computer captains answer every decision that is theirs. Each sees only its own side's
        view and thinks with dice of its own."""
        out: list[Outcome] = []
        for _ in range(limit):
            loaded = await self._load(game_id)
            ai = {s.player for s in loaded.seats if s.is_ai}
            due = deciders(loaded.state) & ai
            if not due:
                return out
            player = sorted(due)[0]
            rules = await self.rules_for(loaded.record)
            judgement = derived_number(loaded.record.dice_seed, f"captain:{player}:{loaded.record.last_seq}")
            cmd = await self.workers.run(choose_job, view_of(loaded.state, player), player, judgement, rules)
            # the request id names the moment: a second process deciding the same move is answered with
            # the first one's result instead of playing its choice again on the moved-on game
            out.append(await self.submit(Actor(f"ai:{player}", loaded.record.guild_id), game_id, cmd,
                                         request_id=f"ai:{game_id}:{loaded.record.last_seq}:{player}",
                                         expect=Expect(decision=self.decision_now(loaded, player))))
        return out

    # ------------------------------------------------------------------ durability

    async def rebuild_all(self) -> RebuildReport:
        """On start: load every unfinished game from its latest readable snapshot plus later events. A
        game that cannot be rebuilt is reported and skipped: it never stops the others."""
        ids = await self.repo.active_game_ids()
        damaged: list[tuple[int, str]] = []
        for gid in ids:
            self._cache.pop(gid, None)
            try:
                await self._load(gid)
            except GameDamaged as exc:
                log.error("game %s cannot be rebuilt: %s", gid, exc.text)
                damaged.append((gid, exc.text))
        return RebuildReport(len(ids) - len(damaged), tuple(damaged))

    async def audit(self, game_id: int) -> AuditReport:
        """Replay the whole log and compare with the snapshots and the live state."""
        loaded = await self._load(game_id, fresh=True)
        log_rows = await self.repo.events(game_id)
        snaps = dict(await self.repo.snapshots(game_id))
        state = decode_state(loaded.record.initial_state)
        problems = []
        for i, (seq, _, e) in enumerate(log_rows, start=1):
            if seq != i:
                problems.append(f"event {i} is numbered {seq}")
            state = apply(state, e)
            if seq in snaps and snaps[seq] != state:
                problems.append(f"snapshot at {seq} differs from the replay")
        if state != loaded.state:
            problems.append("the live state differs from the replay")
        if len(log_rows) != loaded.record.last_seq:
            problems.append(f"{len(log_rows)} events stored, the game says {loaded.record.last_seq}")
        return AuditReport(game_id, len(log_rows), tuple(problems))

    # ------------------------------------------------------------------ fair dice

    async def dice_commitment(self, game_id: int) -> str:
        return commitment((await self._load(game_id)).record.dice_seed)

    async def revealed_seed(self, game_id: int) -> str | None:
        """The dice seed once the game is over (never before)."""
        loaded = await self._load(game_id)
        return loaded.record.dice_seed if loaded.state.phase is Phase.OVER else None

    async def verify(self, actor: Actor | None, game_id: int) -> DiceCheck:
        """Recompute every roll of a finished game from its log and its seed. Before the end the seed
        is secret, so there is nothing anyone could check it against yet."""
        loaded = await self._load(game_id, actor, fresh=True)
        seed = loaded.record.dice_seed
        if loaded.state.phase is not Phase.OVER:
            raise ServiceError("The dice seed stays secret until the game ends; then every roll can be checked.",
                               f"Its SHA-256, published when the game began, is {commitment(seed)}.")
        rows = await self.repo.events(game_id)
        rules = await self.rules_for(loaded.record)
        result = await self.workers.run(verify_log, decode_state(loaded.record.initial_state),
                                        [(cmd, e) for _, cmd, e in rows], seed, rules, commitment(seed), thread=True)
        return DiceCheck(result, seed, commitment(seed), loaded.state.test_dice)

    async def export_log(self, actor: Actor | None, game_id: int) -> dict[str, Any]:
        """A finished game's whole record for checking elsewhere (`quarterdeck verify --file`): the
        starting state, every event with its command number, the seed and the data files it used."""
        from game.codec import to_data
        from game.events import EVENTS

        loaded = await self._load(game_id, actor, fresh=True)
        if loaded.state.phase is not Phase.OVER:
            raise ServiceError("A game's log is exported once it is over (it holds every secret).")
        files = default_texts(loaded.record.system)
        if loaded.record.data_version != "builtin":
            stored = await self.repo.data_version(loaded.record.data_version)
            if stored is not None:
                files.update(json.loads(stored.files))
        return {
            "format": "quarterdeck-log/1", "game": loaded.record.id, "name": loaded.record.name,
            "system": loaded.record.system, "seed": loaded.record.dice_seed,
            "commitment": commitment(loaded.record.dice_seed),
            "initial_state": to_data(decode_state(loaded.record.initial_state)),
            "events": [[cmd, EVENTS.encode(e)] for _, cmd, e in await self.repo.events(game_id)],
            "data_files": files,
        }

    async def replay(self, actor: Actor, game_id: int) -> tuple[list[Frame], RulesData, dict[str, Any] | None]:
        """The game told again as a spectator saw it (whoever asks: a replay is posted in the open),
        its rules, and, once it is over, its whole log for `quarterdeck replay`."""
        loaded = await self._load(game_id, actor, fresh=True)
        initial = decode_state(loaded.record.initial_state)
        shown = await self.workers.run(frames, initial, [(cmd, e) for _, cmd, e in await self.repo.events(game_id)])
        over = loaded.state.phase is Phase.OVER
        return shown, await self.rules_for(loaded.record), await self.export_log(actor, game_id) if over else None

    async def next_deadline(self, game_id: int) -> datetime | None:
        return await self.repo.next_deadline(game_id)

    async def synced_commands(self, scope: str) -> str | None:
        """The digest of the slash commands last synced to `scope` ("global" or a guild id)."""
        return await self.repo.bot_state(f"commands:{scope}")

    async def remember_synced_commands(self, scope: str, digest: str) -> None:
        await self.repo.set_bot_state(f"commands:{scope}", digest)

    async def status_message(self, game_id: int) -> str | None:
        return (await self._load(game_id)).record.status_message_id

    async def set_status_message(self, game_id: int, message_id: str) -> None:
        loaded = await self._load(game_id)
        loaded.record.status_message_id = message_id
        await self.repo.set_status_message(game_id, message_id)

    def _announcement(self, system: str) -> list[Post]:
        """A new game is announced where it is played, with the SHA-256 of its dice seed, for every
        player and spectator to compare with the seed revealed at the end."""
        return [stored(Created(system))] if self.outbox else []

    async def announce(self, game_id: int) -> list[int]:
        """Put the board (with no new account), the status and the owed pick nudges in the outbox: the
        game begins, or someone asked to see it (/game status)."""
        loaded = await self._load(game_id)
        return await self.repo.enqueue(game_id, [stored(Board()), stored(Status()), *nudges(loaded.seats, loaded.state)])

    async def enqueue(self, game_id: int, kind: str, payload: dict[str, Any]) -> list[int]:
        """Something for the bot to post about a game that no command wrote (a reminder, a note)."""
        return await self.front.post(game_id, posts.decode(kind, payload))  # a kind or payload that fits none: refused

    async def schedule(self, kind: str, due_in: timedelta, game_id: int | None = None,
                       payload: dict[str, Any] | None = None) -> int:
        from game.service.scheduler import schedule

        return await schedule(self.repo, kind, utcnow() + due_in, game_id, payload or {})

    # ------------------------------------------------------------------ internals

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _load(self, game_id: int, actor: Actor | None = None, fresh: bool = False,
                    verify: bool = True) -> Loaded:
        loaded = None if fresh else self._cache.get(game_id)
        if loaded is not None and self.shared and verify:
            async with self._db_slots:
                if await self.repo.version_of(game_id) != loaded.record.version:
                    loaded = None
        if loaded is None:
            async with self._db_slots:
                loaded = await self.repo.load(game_id)
            if loaded is None:
                raise GameNotFound(f"There is no game #{game_id}.", "List this server's games with /game list.")
            self._cache[game_id] = loaded
            if self.shared:
                self._clocks.pop(game_id, None)  # another process may have changed it with the game
        if actor is not None and loaded.record.guild_id != actor.guild_id:
            raise WrongGuild("That game belongs to another server.", "Use a game of this server.")
        return loaded

    def _players_of(self, loaded: Loaded, actor: Actor) -> list[str]:
        if actor.captain_of is not None:
            return [actor.captain_of]
        return seated(loaded.seats, actor)

    def _viewer(self, loaded: Loaded, actor: Actor) -> str | None:
        players = self._players_of(loaded, actor)
        return players[0] if players else None

    def _view_for(self, loaded: Loaded, actor: Actor, state: Game) -> View:
        return view_of(state, self._viewer(loaded, actor), also=self._players_of(loaded, actor))

    async def _decide(self, loaded: Loaded, cmd: Command) -> list[Any]:
        state = loaded.state
        rules = await self.rules_for(loaded.record)
        if not loaded.record.dice_seed:
            raise GameDamaged(f"Game #{loaded.record.id} has no dice seed.", "Run the database migrations.")
        fixed = self._fixed_dice.get(loaded.record.id or 0)
        events, used = await self.workers.run(decide_job, state, cmd, loaded.record.dice_seed, tuple(fixed or ()), rules)
        for _ in range(used if fixed else 0):
            fixed.popleft()
        return events

    async def _fix_dice(self, loaded: Loaded, actor: Actor, cmd: FixDice) -> None:
        """Test games only, and only a seated player (or the offline table) fixes the next faces; a face
        the die does not have is refused here, before it could break a roll."""
        if not loaded.state.test_dice:
            raise DiceNotAllowed("Fixing dice is refused in this game.", "Only test scenarios (test_dice = true) allow it.")
        if not actor.local and not self._players_of(loaded, actor):
            raise NotSeated("Only a player of this test game may fix its dice.")
        sides = (await self.rules_for(loaded.record)).die.sides
        bad = [f for f in cmd.faces if f not in sides]
        if bad:
            raise DiceNotAllowed(f"{bad[0][:40]!r} is not a face of the die.", f"Faces: {', '.join(sorted(set(sides)))}.")
        self._fixed_dice.setdefault(loaded.record.id or 0, deque()).extend(cmd.faces)

    async def _commit(self, loaded: Loaded, actor: Actor, events: Sequence[Any], request_id: str | None,
                      seats: Sequence[Seat] = (), retime: Retime | None = None) -> Outcome:
        new_state = apply_all(loaded.state, events)
        written: list[int] = []
        first, last = await self._write(loaded, actor, events, new_state, request_id, seats, written, retime)
        mine = self._players_of(loaded, actor)
        return Outcome(loaded.record.id or 0, first, last, tuple(event_for(e, mine) for e in events),
                       self._view_for(loaded, actor, new_state), posts=tuple(written))

    async def _write(self, loaded: Loaded, actor: Actor, events: Sequence[Any], new_state: Game,
                     request_id: str | None, seats: Sequence[Seat] = (),
                     written: list[int] | None = None, retime: Retime | None = None) -> tuple[int, int]:
        response = {"events": len(events)}
        first = loaded.record.last_seq + 1
        # the sides whose wait began, ended or was re-timed are planned again, in this transaction
        waits, replan = await clock_service.plan_after(self, loaded, new_state, first + len(events) - 1, retime)
        posts = posts_for(loaded.seats, events, new_state, first, first + len(events) - 1) if self.outbox else []
        # no slot of _db_slots: appends queue in the group writer, which writes them together
        first, last = await self.repo.append(loaded, events, new_state, actor.user_id, request_id, response, replan,
                                             seats, posts, written, waits)
        if new_state.phase is Phase.OVER and loaded.state.phase is not Phase.OVER:
            from game.service.leagues import game_ended  # a league records the result as the game ends

            await game_ended(self, loaded.record, new_state)
        loaded.state = new_state
        if new_state.phase is Phase.OVER:
            self._cache.finished(loaded.record.id or 0)
        return first, last

    async def _guild_settings(self, guild_id: str) -> GuildSettings:
        found = self._settings.get(guild_id)
        if found is not None and self.shared and time.monotonic() - self._settings_read.get(guild_id, 0.0) > SHARED_TTL:
            found = None  # another process may have changed them (a GM role, the deadlines)
        if found is None:
            self._settings_read[guild_id] = time.monotonic()
            found = self._settings[guild_id] = await self.repo.guild_settings(guild_id)
        return found

    async def guild_settings(self, guild_id: str) -> GuildSettings:
        """The guild's settings, read once and kept (every change goes through save_guild_settings)."""
        return await self._guild_settings(guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.repo.save_guild_settings(settings)
        self._settings[settings.guild_id] = settings

    async def _answered(self, actor: Actor, game_id: int, request_id: str) -> Outcome | None:
        """The first answer to a request already carried out (by this process or another)."""
        seen = await self.repo.processed(request_id)
        if seen is None:
            return None
        loaded = await self._load(seen.game_id, actor)
        if loaded.record.last_seq < seen.last_seq:
            loaded = await self._load(seen.game_id, actor, fresh=True)  # another process wrote it
        mine = self._players_of(loaded, actor)
        events = [event_for(e, mine) for _, _, e in await self.repo.events(seen.game_id, seen.first_seq, seen.last_seq)]
        return Outcome(seen.game_id, seen.first_seq, seen.last_seq, tuple(events),
                       self._view_for(loaded, actor, loaded.state), replayed=True)


def posts_for(seats: Sequence[Seat], events: Sequence[Any], state: Game, first: int, last: int) -> list[Post]:
    """What the bot posts about a command: the board with its account, the status, and a DM to each
    player who now owes a pick. Enlisting a squadron is part of taking a seat: the game's first board
    comes when every seat is taken (announce)."""
    if all(isinstance(e, ev.SquadronEnlisted) for e in events):
        return []
    return [stored(Board(first, last)), stored(Status()), *nudges(seats, state)]


def nudges(seats: Sequence[Seat], state: Game) -> list[Post]:
    """A DM for each pick owed, once per player and turn (the key), to a seated member only."""
    if state.phase not in (Phase.SETUP, Phase.INITIATIVE) or state.choices:
        return []
    users = {s.player: s.user_id for s in seats if not s.is_ai and s.user_id and s.user_id.isdigit()}
    return [stored(Nudge(q.player, users[q.player], state.turn))
            for q in state.squadrons if not q.picked and q.player in users]


def _starting_state(scenario: str, scenario_text: str | None, size: str, name: str | None, rules: RulesData) -> Game:
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


async def _ranked(service: GameService, game_id: int) -> bool:
    from game.service.leagues import Leagues  # leagues builds on this module

    return await Leagues(service).ranked(game_id)



_BARRIER_ORDER = ("it revealed a card", "its dice have been rolled and seen", "the game has ended",
                  "a new phase has begun")


def _barrier_reason(event: Any) -> str:
    if isinstance(event, ev.CardsRevealed | ev.EventCardDrawn):
        return "it revealed a card"
    if isinstance(event, ev.GameEnded):
        return "the game has ended"
    if isinstance(event, ev.PhaseBegan):
        return "a new phase has begun"
    return "its dice have been rolled and seen"


def _version_id(system: str, overrides: dict[str, str]) -> str:
    blob = json.dumps({"system": system, "files": overrides}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
