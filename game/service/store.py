"""The game store: the one holder of loaded games, their locks, their loads and their commits.

Every part of the service (commands, undo, lobby, clock, orders, leagues…) reads and writes games
through it. A command is committed in one transaction with an optimistic version check; commands
for one game run one at a time in this process (a lock per game), and the version check keeps two
processes from interleaving. With a database several processes write (PostgreSQL), a cached game is
checked against the stored version before it is read: another process may have moved it on.

What a commit also writes belongs to the features that need it, registered here as hooks: the
clock its plans (`plan_with`), the front end its posts (`post_with`), the leagues a result as a game
ends (`when_over`). The store imports none of them.

Every game system is stored, cached, locked and written here alike (game/systems/base.py): `load`
hands out an Oak & Iron game and refuses the others with the commands that play them, `load_any`
any game. The posts and the results registered here are Oak & Iron's (a referee system's commands
are answered in the channel by the bot); the clock plans every system's waits."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine

from game.apply import apply_all
from game.model import Game
from game.rules_data import RulesData, default_texts, load_rules, rules_from_texts
from game.service.authority import Actor, seated
from game.service.cache import SHARED_TTL, GameCache
from game.service.decision import Retime
from game.service.errors import GameNotFound, OtherSystem, ServiceError, WrongGuild
from game.service.models import GameRecord, GuildSettings, Seat
from game.service.outbox import Post
from game.service.repository import Loaded, Repository, Stored
from game.service.results import Outcome
from game.service.workers import Workers
from game.service.workers import default as default_workers
from game.service.writer import PlannedJob
from game.systems import OAK_AND_IRON
from game.views import View, event_for, view_of

log = logging.getLogger(__name__)

RETRIES = 5
MAX_ID = 2**31 - 1  # the games table's integer ids (PostgreSQL's INTEGER); a larger number names no game
Replan = tuple[list[str], list[PlannedJob]]


class Planner(Protocol):
    """What a commit writes of the clock: the game's waits (if they changed) and the sides' new plans."""

    async def __call__(self, loaded: Stored[Any], new_state: Any, position: int,
                       retime: Retime | None) -> tuple[str | None, Replan | None]: ...


PostMaker = Callable[[Sequence[Seat], Sequence[Any], Game, int, int], list[Post]]
Ended = Callable[[GameRecord, Game], Awaitable[None]]


class Look:
    """The versions of the games one interaction has looked at (checked against the database, read
    from it, or committed by it). Closed when the interaction ends: a task it started that lives on
    inherits the look but checks again from then on."""

    def __init__(self) -> None:
        self.open = True
        self.seen: dict[int, int] = {}

    def current(self, game_id: int, version: int) -> bool:
        return self.open and self.seen.get(game_id, version + 1) <= version

    def saw(self, game_id: int, version: int) -> None:
        if self.open:
            self.seen[game_id] = max(version, self.seen.get(game_id, version))


class GameStore:
    def __init__(
        self,
        engine: AsyncEngine,
        snapshot_every: int = 50,
        rules: RulesData | None = None,
        max_db_concurrency: int = 8,
        shared: bool | None = None,
        workers: Workers | None = None,
        cached_games: int = 1000,
    ) -> None:
        self.repo = Repository(engine, snapshot_every)
        self.rules = rules or load_rules()
        # decisions and computer captains run here: inline (the default) or in worker processes
        self.workers = workers if workers is not None else default_workers()
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: GameCache = GameCache(cached_games, self._locks)
        self._settings: dict[str, GuildSettings] = {}
        self._settings_read: dict[str, float] = {}  # when each guild's settings were read (shared database)
        self._rules: dict[str, RulesData] = {}  # data version -> its rules, parsed once
        # more concurrent transactions than the connection pool holds would only queue inside it
        self.db_slots = asyncio.Semaphore(max_db_concurrency)
        self.shared = engine.dialect.name != "sqlite" if shared is None else shared
        self._planner: Planner | None = None
        self._post_makers: list[PostMaker] = []
        self._ended: list[Ended] = []
        self._reloaded: list[Callable[[int], None]] = []
        self._committed: list[Callable[[int, int], None]] = []
        # a store's own: versions of another database's games say nothing of this one's
        self._look: ContextVar[Look | None] = ContextVar(f"look_{id(self)}", default=None)

    # ------------------------------------------------------------------ what features add to a commit

    def plan_with(self, planner: Planner) -> None:
        self._planner = planner

    def post_with(self, maker: PostMaker) -> None:
        self._post_makers.append(maker)

    def when_over(self, hook: Ended) -> None:
        """Called after the commit that ends a game; a failure there never undoes the ending."""
        self._ended.append(hook)

    def after_commit(self, hook: Callable[[int, int], None]) -> None:
        """Called with (game id, new version) after every commit of this process (not part of it): the
        web pages' live updates. A hook must not block: it only wakes what waits."""
        self._committed.append(hook)

    def when_reloaded(self, hook: Callable[[int], None]) -> None:
        """Called as a shared store reads a game again: what a feature keeps of it may be stale."""
        self._reloaded.append(hook)

    # ------------------------------------------------------------------ loading

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def forget(self, game_id: int) -> None:
        """Drop the cached copy: the next load reads the game from the database."""
        self._cache.pop(game_id, None)

    @contextmanager
    def one_look(self) -> Iterator[Look]:
        """One interaction's look at its games: with several processes, a game is checked against the
        stored version the first time the interaction reads it, and its later reads (the board, the
        options, the roll buttons of the same answer) use that copy, or a newer one this process
        read or committed since. An interaction thus sees each game as it was at one moment, plus its
        own commits; the next interaction checks again (issue 29: four version checks an interaction
        were a quarter of the bot's time on PostgreSQL)."""
        look = Look()
        token = self._look.set(look)
        try:
            yield look
        finally:
            look.open = False
            self._look.reset(token)

    @property
    def cached(self) -> GameCache:
        return self._cache

    @property
    def locks(self) -> dict[int, asyncio.Lock]:
        return self._locks

    async def load(self, game_id: int, actor: Actor | None = None, fresh: bool = False,
                   verify: bool = True) -> Loaded:
        """An Oak & Iron game; another system's game is refused with the commands that play it."""
        loaded = await self.load_any(game_id, actor, fresh, verify)
        if loaded.system is not OAK_AND_IRON:
            raise OtherSystem(f"Game #{game_id} is not an Oak & Iron game: it is played with the /ref commands.",
                              "/ref join, /ref do, /ref order, /ref log, /ref ship.")
        return loaded

    async def load_any(self, game_id: int, actor: Actor | None = None, fresh: bool = False,
                       verify: bool = True) -> Stored[Any]:
        """A game of any system, from the cache while it is current."""
        if not 0 < game_id <= MAX_ID:  # a forged button's number: the database could not even be asked
            raise GameNotFound(f"There is no game #{game_id}."[:80], "List this server's games with /game list.")
        loaded = None if fresh else self._cache.get(game_id)
        look = self._look.get()
        if loaded is not None and self.shared and verify and not (look and look.current(game_id, loaded.record.version)):
            async with self.db_slots:
                if await self.repo.version_of(game_id) != loaded.record.version:
                    loaded = None
            if loaded is not None and look is not None:
                look.saw(game_id, loaded.record.version)
        if loaded is None:
            async with self.db_slots:
                loaded = await self.repo.load(game_id)
            if loaded is None:
                raise GameNotFound(f"There is no game #{game_id}.", "List this server's games with /game list.")
            self._cache[game_id] = loaded
            if look is not None:
                look.saw(game_id, loaded.record.version)
            if self.shared:
                for hook in self._reloaded:
                    hook(game_id)
        if actor is not None and loaded.record.guild_id != actor.guild_id:
            raise WrongGuild("That game belongs to another server.", "Use a game of this server.")
        return loaded

    async def stale(self, loaded: Loaded) -> bool:
        """Whether another process has moved the game on since this copy was read (it is dropped)."""
        assert loaded.record.id is not None
        version = await self.repo.version_of(loaded.record.id)
        if version is not None and version != loaded.record.version:
            self.forget(loaded.record.id)
            return True
        return False

    # ------------------------------------------------------------------ who looks

    @staticmethod
    def players_of(loaded: Loaded, actor: Actor) -> list[str]:
        if actor.captain_of is not None:
            return [actor.captain_of]
        return seated(loaded.seats, actor)

    def viewer(self, loaded: Loaded, actor: Actor) -> str | None:
        players = self.players_of(loaded, actor)
        return players[0] if players else None

    def view_for(self, loaded: Loaded, actor: Actor, state: Game) -> View:
        return view_of(state, self.viewer(loaded, actor), also=self.players_of(loaded, actor))

    # ------------------------------------------------------------------ committing

    async def commit(self, loaded: Loaded, actor: Actor, events: Sequence[Any], request_id: str | None,
                     seats: Sequence[Seat] = (), retime: Retime | None = None) -> Outcome:
        new_state = apply_all(loaded.state, events)
        written: list[int] = []
        first, last = await self.write(loaded, actor, events, new_state, request_id, seats, written, retime)
        mine = self.players_of(loaded, actor)
        return Outcome(loaded.record.id or 0, first, last, tuple(event_for(e, mine) for e in events),
                       self.view_for(loaded, actor, new_state), posts=tuple(written))

    async def write(self, loaded: Stored[Any], actor: Actor, events: Sequence[Any], new_state: Any,
                    request_id: str | None, seats: Sequence[Seat] = (),
                    written: list[int] | None = None, retime: Retime | None = None) -> tuple[int, int]:
        """Append the events of a game of any system (raises VersionConflict on a stale copy); the
        cached copy moves on only after the commit."""
        response = {"events": len(events)}
        first = loaded.record.last_seq + 1
        last = first + len(events) - 1
        oak = loaded.system is OAK_AND_IRON
        waits, replan = (None, None) if self._planner is None else await self._planner(loaded, new_state, last, retime)
        posts = [p for make in self._post_makers for p in make(loaded.seats, events, new_state, first, last)] if oak else []
        # no slot of db_slots: appends queue in the group writer, which writes them together
        first, last = await self.repo.append(loaded, events, new_state, actor.user_id, request_id, response, replan,
                                             seats, posts, written, waits)
        over = loaded.system.over(new_state)
        ended = over and not loaded.system.over(loaded.state)
        loaded.state = new_state
        if (look := self._look.get()) is not None:
            look.saw(loaded.record.id or 0, loaded.record.version)  # the commit's own check found it current
        for told in self._committed:
            try:
                told(loaded.record.id or 0, loaded.record.version)
            except Exception:  # a watcher's trouble never reaches the command that committed
                log.exception("after game %s was committed", loaded.record.id)
        if ended and oak:
            for hook in self._ended:
                try:
                    await hook(loaded.record, new_state)
                except Exception:  # the ending is committed: what a feature records of it catches up later
                    log.exception("after game %s ended", loaded.record.id)
        if over:
            self._cache.finished(loaded.record.id or 0)
        return first, last

    async def answered(self, actor: Actor, request_id: str) -> Outcome | None:
        """The first answer to a request already carried out (by this process or another)."""
        seen = await self.repo.processed(request_id)
        if seen is None:
            return None
        loaded = await self.load(seen.game_id, actor)
        if loaded.record.last_seq < seen.last_seq:
            loaded = await self.load(seen.game_id, actor, fresh=True)  # another process wrote it
        mine = self.players_of(loaded, actor)
        events = [event_for(e, mine) for _, _, e in await self.repo.events(seen.game_id, seen.first_seq, seen.last_seq)]
        return Outcome(seen.game_id, seen.first_seq, seen.last_seq, tuple(events),
                       self.view_for(loaded, actor, loaded.state), replayed=True)

    # ------------------------------------------------------------------ settings and data a game reads

    async def guild_settings(self, guild_id: str) -> GuildSettings:
        """The guild's settings, read once and kept (every change goes through save_guild_settings)."""
        found = self._settings.get(guild_id)
        if found is not None and self.shared and time.monotonic() - self._settings_read.get(guild_id, 0.0) > SHARED_TTL:
            found = None  # another process may have changed them (a GM role, the deadlines)
        if found is None:
            self._settings_read[guild_id] = time.monotonic()
            found = self._settings[guild_id] = await self.repo.guild_settings(guild_id)
        return found

    def forget_guild(self, guild_id: str) -> None:
        """The server's settings were deleted: the next read finds the defaults."""
        self._settings.pop(guild_id, None)
        self._settings_read.pop(guild_id, None)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.repo.save_guild_settings(settings)
        self._settings[settings.guild_id] = settings

    def parsed_rules(self, version: str, system: str, files: Callable[[], dict[str, str]]) -> RulesData:
        """The rules of a data version, parsed once per process."""
        found = self._rules.get(version)
        if found is None:
            found = self._rules[version] = rules_from_texts(system, files())
        return found

    async def rules_for(self, record: GameRecord) -> RulesData:
        """The data a game started with (built-in, or a guild's imported version)."""
        if record.data_version == "builtin":
            return self.rules
        if record.data_version not in self._rules:
            stored = await self.repo.data_version(record.data_version)
            if stored is None:
                raise ServiceError(f"Game data version {record.data_version} is missing from the database.")
            files = {**default_texts(stored.system), **json.loads(stored.files)}
            return self.parsed_rules(record.data_version, stored.system, lambda: files)
        return self._rules[record.data_version]
