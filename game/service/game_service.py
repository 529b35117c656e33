"""The game service: every front end (bot, offline table, script runner) calls this.

A command is decided against the game's current state, its events are committed in one
transaction (optimistic version check), and only then acknowledged. Commands for one game run one
at a time in this process (a lock per game); the version check keeps two processes from
interleaving. A request id makes a retried command apply once and answer as the first time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from game.ai.captain import Captain, deciders
from game.ai.legal import legal_commands
from game.apply import apply, apply_all
from game.commands import (
    SETUP_COMMANDS,
    Command,
    Concede,
    Decide,
    Decline,
    Enlist,
    FixDice,
    KeepRoll,
    PickCard,
    Reroll,
    UseFortune,
)
from game.dice import ScriptedDice, SeededDice
from game.engine import decide
from game.errors import DiceNotAllowed, NotYourShip, RulesError, UnknownName
from game.events import CardPicked, StateRestored, UndoRequested
from game.model import Game, Phase
from game.notation import format_command, parse
from game.phases.preparation import drafted_game
from game.rules_data import DATA_FILES, RulesData, default_texts, load_rules, rules_from_texts
from game.scenario import builtin_scenarios, load_scenario_text
from game.service.models import DataVersion, GameRecord, GuildSettings, SavedSquadron, Seat, utcnow
from game.service.repository import Loaded, Repository, VersionConflict, decode_state
from game.setup import TABLES
from game.squadron import SquadronList
from game.views import View, event_for, view_of

RETRIES = 5
DRAFTED = "drafted"  # the scenario name of a game set up by the chapter-7 sequence


class ServiceError(RulesError):
    code = "service"


class GameNotFound(ServiceError):
    code = "game-not-found"


class WrongGuild(ServiceError):
    code = "wrong-guild"


class NotSeated(ServiceError):
    code = "not-seated"


class SeatTaken(ServiceError):
    code = "seat-taken"


class ChannelBusy(ServiceError):
    code = "channel-busy"


class UndoRefused(ServiceError):
    code = "undo-refused"


class SquadronRefused(ServiceError):
    code = "squadron-refused"


@dataclass(frozen=True)
class SquadronInfo:
    name: str
    size: str
    faction: str
    points: int
    ships: int
    complete: bool = True  # legal: not a list still being built


@dataclass(frozen=True)
class Actor:
    """Who acts: a Discord user (or the offline table's local user) and whether they are a GM."""

    user_id: str
    guild_id: str
    gm: bool = False


@dataclass(frozen=True)
class Outcome:
    game_id: int
    first_seq: int
    last_seq: int
    events: tuple[Any, ...]  # as the actor may see them
    view: View
    replayed: bool = False  # the request id had been seen: this is the first answer again


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
    ) -> None:
        self.repo = Repository(engine, snapshot_every)
        self.rules = rules or load_rules()
        self._cache: dict[int, Loaded] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._fixed_dice: dict[int, deque[str]] = {}
        self._settings: dict[str, GuildSettings] = {}
        self._rules: dict[str, RulesData] = {}
        # more concurrent transactions than the connection pool holds would only queue inside it
        self._db_slots = asyncio.Semaphore(max_db_concurrency)

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
        if not actor.gm:
            raise NotSeated("Only a GM may import game data.", "Ask someone with the GM role or Manage Server.")
        if file_name not in DATA_FILES:
            raise UnknownName(f"{file_name!r} is not a data file.", f"Data files: {', '.join(DATA_FILES)}.")
        overrides = await self._overrides(actor.guild_id)
        overrides[file_name] = text
        rules_from_texts(system, {**default_texts(system), **overrides})  # raises DataError naming the fault
        settings = await self._guild_settings(actor.guild_id)
        settings.data_overrides = json.dumps(overrides)
        await self.save_guild_settings(settings)
        return _version_id(system, overrides)

    async def reset_data(self, actor: Actor) -> None:
        if not actor.gm:
            raise NotSeated("Only a GM may reset the game data.")
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
        await self.repo.save_squadron(SavedSquadron(guild_id=actor.guild_id, owner_id=actor.user_id, name=sq.name,
                                                    size=sq.size, faction=sq.faction, points=points, text=text))
        return SquadronInfo(sq.name, sq.size, sq.faction, points, len(sq.ships))

    async def squadrons(self, actor: Actor) -> list[SquadronInfo]:
        rows = await self.repo.squadrons_of(actor.guild_id, actor.user_id)
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
        if not name.strip() or len(name) > 100:
            raise SquadronRefused("A squadron needs a name of 1 to 100 characters.")
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
        from game.squadron import squadron_points, validate
        from game.squadron_builder import summary, to_toml

        row = SavedSquadron(guild_id=actor.guild_id, owner_id=actor.user_id, name=sq.name, size=sq.size,
                            faction=sq.faction, points=squadron_points(sq, rules), text=to_toml(sq),
                            complete=not validate(sq, rules))
        await self.repo.save_squadron(row)
        return summary(sq, rules)

    async def squadron_text(self, actor: Actor, name: str) -> str:
        for row in await self.repo.squadrons_of(actor.guild_id, actor.user_id):
            if row.name.casefold() == name.casefold():
                return row.text
        raise UnknownName(f"You have no saved squadron called {name!r}.", "List yours with /squadron list.")

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
    ) -> GameInfo:
        """A game from a scenario, or with scenario "drafted" a game of the given size that starts
        with the chapter-7 set-up once each side has joined with a saved squadron."""
        busy = await self.repo.game_in_channel(actor.guild_id, thread_id or channel_id)
        if busy is not None:
            raise ChannelBusy(
                f"This channel already has a game in progress ({busy.name}, #{busy.id}).",
                "Finish or concede it, or start the new game in its own thread.",
            )
        drafted = scenario == DRAFTED and scenario_text is None
        if drafted and size not in TABLES:
            raise UnknownName(f"There is no game size {size!r}.", f"Sizes: {', '.join(TABLES)}.")
        if scenario_text is None and not drafted:
            known = builtin_scenarios()
            if scenario not in known:
                raise UnknownName(f"There is no built-in scenario {scenario!r}.",
                                  f"Scenarios: {', '.join([*known, DRAFTED])}.")
            scenario_text = known[scenario]
        version, rules = await self._guild_data(actor.guild_id)
        if version != "builtin":
            overrides = await self._overrides(actor.guild_id)
            await self.repo.save_data_version(DataVersion(id=version, system="oak_and_iron", files=json.dumps(overrides)))
        if drafted:
            state = drafted_game(size, seed or 0, name=name or "")
        else:
            assert scenario_text is not None
            state = load_scenario_text(scenario_text, f"{scenario}.toml", rules)
        if seed is not None:
            state = replace(state, seed=seed)
        record = GameRecord(
            guild_id=actor.guild_id, channel_id=thread_id or channel_id, thread_id=thread_id,
            name=name or state.name, system=state.system, edition=state.edition, seed=state.seed,
            status="open", initial_state="", data_version=version,
        )
        seats = [Seat(game_id=0, player=p, display_name=f"Player {p}") for p in state.players]
        record = await self.repo.create_game(record, state, seats)
        assert record.id is not None
        return await self.info(record.id)

    async def join(self, actor: Actor, game_id: int, player: str | None = None, display_name: str = "",
                   ai: bool = False, squadron: str | None = None) -> GameInfo:
        """Take a side (or give it to the computer captain). A drafted game needs a squadron: one of
        the actor's saved lists (the computer captain brings a random legal one)."""
        enlist = await self._squadron_for(actor, game_id, squadron, ai)
        async with self._lock(game_id):
            loaded = await self._load(game_id, actor)
            free = [s for s in loaded.seats if s.user_id is None and not s.is_ai]
            if player is not None:
                seat = next((s for s in loaded.seats if s.player == player), None)
                if seat is None:
                    raise UnknownName(f"There is no side {player!r} in this game.",
                                      f"Sides: {', '.join(s.player for s in loaded.seats)}.")
                if seat.user_id is not None or seat.is_ai:
                    raise SeatTaken(f"Side {player} is taken by {seat.display_name}.",
                                    f"Free sides: {', '.join(s.player for s in free) or 'none'}.")
            else:
                if not free:
                    raise SeatTaken("Every side is taken.", "Watch the game, or ask a GM to start another.")
                seat = free[0]
            if ai:
                seat.is_ai, seat.user_id, seat.display_name = True, None, f"Computer captain ({seat.player})"
            else:
                seat.user_id, seat.display_name = actor.user_id, display_name or actor.user_id
            await self.repo.update_seat(seat)
        if enlist is not None:
            try:
                await self.submit(Actor(f"ai:{seat.player}", actor.guild_id), game_id, Enlist(seat.player, enlist))
            except RulesError:
                seat.user_id, seat.is_ai, seat.display_name = None, False, f"Player {seat.player}"
                await self.repo.update_seat(seat)  # the side is free again: nothing half-done
                raise
        return await self.info(game_id)

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
            return random_squadron(loaded.state.seed * 31 + game_id * 7 + enlisted, prep.size, rules)
        if not name:
            raise SquadronRefused(f"This is a drafted {prep.size}: join with one of your saved squadrons.",
                                  "Build one with /squadron new (or save a file with /squadron save), then "
                                  "/game join squadron: NAME.")
        try:
            return parse_squadron(await self.squadron_text(actor, name))  # the engine checks it on enlisting
        except SquadronError as exc:
            raise SquadronRefused(f"The saved squadron cannot be read: {exc}.") from None

    async def info(self, game_id: int) -> GameInfo:
        loaded = await self._load(game_id)
        r, st = loaded.record, loaded.state
        assert r.id is not None
        return GameInfo(r.id, r.name, r.guild_id, r.channel_id, r.status,
                        tuple((s.player, s.user_id, s.display_name, s.is_ai) for s in sorted(loaded.seats, key=lambda s: s.player)),
                        st.turn, st.phase.value)

    async def list_games(self, guild_id: str) -> list[GameInfo]:
        return [await self.info(r.id) for r in await self.repo.games_of_guild(guild_id) if r.id is not None]

    async def game_in_channel(self, guild_id: str, channel_id: str, include_over: bool = False) -> GameInfo | None:
        r = await self.repo.game_in_channel(guild_id, channel_id, include_over)
        return await self.info(r.id) if r and r.id is not None else None

    # ------------------------------------------------------------------ reading

    async def view(self, actor: Actor, game_id: int, player: str | None = None) -> View:
        """The game as the actor sees it; a player with two squadrons names the one to look through."""
        loaded = await self._load(game_id, actor)
        if player is not None:
            if player not in self._players_of(loaded, actor):
                raise NotYourShip(f"You do not command side {player}.")
            return view_of(loaded.state, player)
        return view_of(loaded.state, self._viewer(loaded, actor))

    async def state_for_audit(self, game_id: int) -> Game:
        """The full state (with every secret): for the audit and tests, never for a front end."""
        return (await self._load(game_id)).state

    async def legal(self, actor: Actor, game_id: int, ship: str | None = None) -> list[str]:
        loaded = await self._load(game_id, actor)
        mine = self._players_of(loaded, actor)
        out = []
        for cmd in legal_commands(loaded.state, await self.rules_for(loaded.record)):
            owner = getattr(cmd, "player", "")
            if mine and owner and owner not in mine:
                continue
            if ship is not None and getattr(cmd, "ship", ship) != ship:
                continue
            out.append(format_command(cmd))
        return out

    async def log(self, actor: Actor, game_id: int, last: int = 20) -> list[Any]:
        loaded = await self._load(game_id, actor)
        viewer = self._viewer(loaded, actor)
        first = max(1, loaded.record.last_seq - last + 1)
        return [event_for(e, viewer) for _, _, e in await self.repo.events(game_id, first)]

    # ------------------------------------------------------------------ acting

    async def submit(self, actor: Actor, game_id: int, command: Command | str, request_id: str | None = None) -> Outcome:
        """Apply a player's command (or a line of notation) and commit it before answering."""
        if request_id:
            seen = await self.repo.processed(request_id)
            if seen is not None:
                return await self._replayed(actor, seen.game_id, seen.first_seq, seen.last_seq)
        async with self._lock(game_id):
            if request_id:
                seen = await self.repo.processed(request_id)
                if seen is not None:
                    return await self._replayed(actor, seen.game_id, seen.first_seq, seen.last_seq)
            for attempt in range(RETRIES):
                loaded = await self._load(game_id, actor, fresh=attempt > 0)
                cmd = command if not isinstance(command, str) else parse(command, loaded.state)
                if isinstance(cmd, FixDice):
                    self._fix_dice(loaded, cmd)
                    return Outcome(game_id, loaded.record.last_seq, loaded.record.last_seq, (),
                                   view_of(loaded.state, self._viewer(loaded, actor)))
                cmd = self._authorise(loaded, actor, cmd)
                events = await self._decide(loaded, cmd)
                try:
                    return await self._commit(loaded, actor, events, request_id)
                except VersionConflict:
                    self._cache.pop(game_id, None)
                    continue
            raise ServiceError("The game is busy: other orders kept arriving.", "Try again in a moment.")

    async def pick(self, actor: Actor, game_id: int, card: str, player: str | None = None,
                   request_id: str | None = None) -> Outcome:
        loaded = await self._load(game_id, actor)
        players = self._players_of(loaded, actor)
        who = player or (players[0] if len(players) == 1 else "")
        if not who:
            raise NotSeated("Say which side you are choosing for.", f"Your sides: {', '.join(players) or 'none'}.")
        return await self.submit(actor, game_id, PickCard(who, card), request_id)

    async def concede(self, actor: Actor, game_id: int, player: str | None = None,
                      request_id: str | None = None) -> Outcome:
        loaded = await self._load(game_id, actor)
        players = self._players_of(loaded, actor)
        who = player or (players[0] if players else "")
        if not who or (who not in players and not actor.gm):
            raise NotSeated("Only a player (or a GM) can concede a game.")
        return await self.submit(actor, game_id, Concede(who), request_id)

    async def request_undo(self, actor: Actor, game_id: int, request_id: str | None = None) -> Outcome:
        """Ask to take back the last activation. A GM's request is carried out at once; a
        player's waits for the opponent's consent (`approve_undo`)."""
        if actor.gm:
            return await self._undo(actor, game_id, request_id, "undone by a GM")
        async with self._lock(game_id):
            loaded = await self._load(game_id, actor)
            players = self._players_of(loaded, actor)
            if not players:
                raise NotSeated("Only a player or a GM may ask to undo.")
            ev = UndoRequested(players[0], loaded.record.last_seq)
            new_state = apply(loaded.state, ev)
            first, last = await self._write(loaded, actor, [ev], new_state, request_id)
            return Outcome(game_id, first, last, (ev,), view_of(new_state, players[0]))

    async def approve_undo(self, actor: Actor, game_id: int, request_id: str | None = None) -> Outcome:
        loaded = await self._load(game_id, actor)
        req = loaded.state.undo_request
        if req is None:
            raise UndoRefused("Nobody has asked to undo.", "A player asks first (undo), then the opponent consents.")
        asker, seq = req
        players = self._players_of(loaded, actor)
        if asker in players and not actor.gm:
            raise UndoRefused("The undo needs your opponent's consent, not your own.")
        if seq != loaded.record.last_seq - 1:
            raise UndoRefused("Play has moved on since the undo was asked for.")
        return await self._undo(actor, game_id, request_id, f"undone with player {asker}'s opponent's consent")

    async def _undo(self, actor: Actor, game_id: int, request_id: str | None, reason: str) -> Outcome:
        async with self._lock(game_id):
            loaded = await self._load(game_id, actor)
            log = await self.repo.events(game_id)
            commands: dict[int, list[Any]] = {}
            for _, cmd, e in log:
                commands.setdefault(cmd, []).append(e)
            target = None
            for cmd in sorted(commands, reverse=True):
                kinds = {type(e) for e in commands[cmd]}
                if kinds <= {UndoRequested, CardPicked} or StateRestored in kinds:
                    if StateRestored in kinds:
                        break  # never undo past an earlier undo
                    continue
                target = cmd
                break
            if target is None:
                raise UndoRefused("There is no activation to undo.")
            state = decode_state(loaded.record.initial_state)
            for _, cmd, e in log:
                if cmd >= target:
                    break
                state = apply(state, e)
            event = StateRestored(state, reason)
            first, last = await self._write(loaded, actor, [event], state, request_id)
            return Outcome(game_id, first, last, (event,), view_of(state, self._viewer(loaded, actor)))

    # ------------------------------------------------------------------ plan ahead

    async def plan(self, actor: Actor, game_id: int, line: str) -> str:
        """Queue an order for the actor's next activation (players in other time zones)."""
        loaded = await self._load(game_id, actor)
        players = self._players_of(loaded, actor)
        cmd = parse(line, loaded.state)
        ship = getattr(cmd, "ship", "")
        player = loaded.state.ship(ship).controller if ship else (players[0] if players else "")
        if player not in players:
            raise NotYourShip(f"You cannot plan orders for player {player}'s ships.",
                              f"Your sides: {', '.join(players) or 'none'}.")
        text = format_command(cmd)
        await self.repo.add_planned(game_id, player, actor.user_id, text)
        return text

    async def run_planned(self, game_id: int) -> list[Outcome | str]:
        """When the game waits for a player who planned an order, carry it out if it is still
        legal; otherwise drop it and say why (the bot pings the player with that line)."""
        loaded = await self._load(game_id)
        waiting = deciders(loaded.state)
        if len(waiting) != 1:
            return []
        player = next(iter(waiting))
        order = await self.repo.next_planned(game_id, player)
        if order is None:
            return []
        actor = Actor(order.user_id, loaded.record.guild_id)
        try:
            outcome = await self.submit(actor, game_id, order.line, request_id=f"planned:{order.id}")
        except RulesError as exc:
            await self.repo.finish_planned(order, "refused", exc.text)
            return [f"<@{order.user_id}> your planned order `{order.line}` could not be carried out: {exc.text}"]
        await self.repo.finish_planned(order, "applied", "")
        return [outcome]

    # ------------------------------------------------------------------ the computer captain

    async def play_ai(self, game_id: int, limit: int = 200) -> list[Outcome]:
        """Let computer captains answer every decision that is theirs."""
        out: list[Outcome] = []
        for _ in range(limit):
            loaded = await self._load(game_id)
            ai = {s.player for s in loaded.seats if s.is_ai}
            due = deciders(loaded.state) & ai
            if not due:
                return out
            player = sorted(due)[0]
            rules = await self.rules_for(loaded.record)
            cmd = Captain(player, loaded.state.seed + loaded.record.last_seq, rules).choose(loaded.state)
            out.append(await self.submit(Actor(f"ai:{player}", loaded.record.guild_id), game_id, cmd))
        return out

    # ------------------------------------------------------------------ durability

    async def rebuild_all(self) -> int:
        """On start: load every unfinished game from its latest snapshot plus later events."""
        ids = await self.repo.active_game_ids()
        for gid in ids:
            self._cache.pop(gid, None)
            await self._load(gid)
        return len(ids)

    async def audit(self, game_id: int) -> AuditReport:
        """Replay the whole log and compare with the snapshots and the live state."""
        loaded = await self._load(game_id, fresh=True)
        log = await self.repo.events(game_id)
        snaps = dict(await self.repo.snapshots(game_id))
        state = decode_state(loaded.record.initial_state)
        problems = []
        for i, (seq, _, e) in enumerate(log, start=1):
            if seq != i:
                problems.append(f"event {i} is numbered {seq}")
            state = apply(state, e)
            if seq in snaps and snaps[seq] != state:
                problems.append(f"snapshot at {seq} differs from the replay")
        if state != loaded.state:
            problems.append("the live state differs from the replay")
        if len(log) != loaded.record.last_seq:
            problems.append(f"{len(log)} events stored, the game says {loaded.record.last_seq}")
        return AuditReport(game_id, len(log), tuple(problems))

    async def next_deadline(self, game_id: int) -> datetime | None:
        return await self.repo.next_deadline(game_id)

    async def status_message(self, game_id: int) -> str | None:
        return (await self._load(game_id)).record.status_message_id

    async def set_status_message(self, game_id: int, message_id: str) -> None:
        loaded = await self._load(game_id)
        loaded.record.status_message_id = message_id
        await self.repo.set_status_message(game_id, message_id)

    async def schedule(self, kind: str, due_in: timedelta, game_id: int | None = None,
                       payload: dict[str, Any] | None = None) -> int:
        from game.service.scheduler import schedule

        return await schedule(self.repo, kind, utcnow() + due_in, game_id, payload or {})

    # ------------------------------------------------------------------ internals

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _load(self, game_id: int, actor: Actor | None = None, fresh: bool = False) -> Loaded:
        loaded = None if fresh else self._cache.get(game_id)
        if loaded is None:
            async with self._db_slots:
                loaded = await self.repo.load(game_id)
            if loaded is None:
                raise GameNotFound(f"There is no game #{game_id}.", "List this server's games with /game list.")
            self._cache[game_id] = loaded
        if actor is not None and loaded.record.guild_id != actor.guild_id:
            raise WrongGuild("That game belongs to another server.", "Use a game of this server.")
        return loaded

    def _players_of(self, loaded: Loaded, actor: Actor) -> list[str]:
        return sorted(s.player for s in loaded.seats if s.user_id == actor.user_id and not s.is_ai)

    def _viewer(self, loaded: Loaded, actor: Actor) -> str | None:
        players = self._players_of(loaded, actor)
        if actor.user_id.startswith("ai:"):
            return actor.user_id[3:]
        return players[0] if len(players) == 1 else None

    def _authorise(self, loaded: Loaded, actor: Actor, cmd: Command) -> Command:
        """Fill in the acting player and refuse orders for someone else's ships."""
        state = loaded.state
        if actor.user_id.startswith("ai:"):
            return cmd
        players = self._players_of(loaded, actor)
        if not players and not actor.gm:
            raise NotSeated("You are not playing in this game.", "Join a side first (/game join), or watch.")
        named = getattr(cmd, "player", "")
        if isinstance(cmd, SETUP_COMMANDS):
            who = named or (players[0] if len(players) == 1 else "")
            if not who:
                raise NotSeated("Say which side gives the order (e.g. `A: role attacker`).",
                                f"Your sides: {', '.join(players) or 'none'}.")
            if who not in players and not actor.gm:
                raise NotYourShip(f"You do not command side {who}.", f"Your sides: {', '.join(players)}.")
            return replace(cmd, player=who)
        if isinstance(cmd, PickCard | Concede):
            if cmd.player not in players and not actor.gm:
                raise NotYourShip(f"You do not command side {cmd.player}.", f"Your sides: {', '.join(players)}.")
            return cmd
        if isinstance(cmd, Reroll | UseFortune | KeepRoll | Decline | Decide):
            wanted = self._decider(state)
            if wanted and wanted not in players and not actor.gm:
                raise NotYourShip(f"This decision is player {wanted}'s.", "Wait for your opponent.")
            return cmd if named else replace(cmd, player=wanted or "")
        ship_id = getattr(cmd, "ship", "")
        if ship_id:
            try:
                ship = state.ship(ship_id)
            except KeyError:
                raise UnknownName(f"There is no ship called {ship_id!r}.") from None
            if ship.controller not in players and not actor.gm:
                raise NotYourShip(
                    f"{ship.id} is not yours to command: it belongs to player {ship.controller}.",
                    f"Your ships: {', '.join(s.id for s in state.ships if s.controller in players) or 'none'}.",
                )
            if not named:
                cmd = replace(cmd, player=ship.controller)
        return cmd

    @staticmethod
    def _decider(state: Game) -> str | None:
        if state.pending is not None:
            return state.pending.player
        if state.offer is not None:
            return state.offer.player
        if state.choices:
            return state.choices[0].player
        return None

    async def _decide(self, loaded: Loaded, cmd: Command) -> list[Any]:
        state = loaded.state
        rules = await self.rules_for(loaded.record)
        fallback = SeededDice(state.seed, state.log_position)
        fixed = self._fixed_dice.get(loaded.record.id or 0)
        if fixed:
            dice = ScriptedDice(fixed, fallback=fallback)
            events = decide(state, cmd, dice, rules)
            used = len(fixed) - len(dice.remaining)
            for _ in range(used):
                fixed.popleft()
            return events
        return decide(state, cmd, fallback, rules)

    def _fix_dice(self, loaded: Loaded, cmd: FixDice) -> None:
        if not loaded.state.test_dice:
            raise DiceNotAllowed("Fixing dice is refused in this game.", "Only test scenarios (test_dice = true) allow it.")
        self._fixed_dice.setdefault(loaded.record.id or 0, deque()).extend(cmd.faces)

    async def _commit(self, loaded: Loaded, actor: Actor, events: Sequence[Any], request_id: str | None) -> Outcome:
        new_state = apply_all(loaded.state, events)
        first, last = await self._write(loaded, actor, events, new_state, request_id)
        viewer = self._viewer(loaded, actor)
        return Outcome(loaded.record.id or 0, first, last, tuple(event_for(e, viewer) for e in events),
                       view_of(new_state, viewer))

    async def _write(self, loaded: Loaded, actor: Actor, events: Sequence[Any], new_state: Game,
                     request_id: str | None) -> tuple[int, int]:
        response = {"events": len(events)}
        replan = None
        if (deciders(new_state), new_state.phase) != (deciders(loaded.state), loaded.state.phase):
            # a reminder and a deadline for whoever the game now waits for (jobs survive restarts)
            settings = await self._guild_settings(loaded.record.guild_id)
            replan = (sorted(deciders(new_state)), settings.reminder_hours, settings.turn_deadline_hours)
        async with self._db_slots:
            first, last = await self.repo.append(loaded, events, new_state, actor.user_id, request_id, response, replan)
        loaded.state = new_state
        return first, last

    async def _guild_settings(self, guild_id: str) -> GuildSettings:
        found = self._settings.get(guild_id)
        if found is None:
            found = self._settings[guild_id] = await self.repo.guild_settings(guild_id)
        return found

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.repo.save_guild_settings(settings)
        self._settings[settings.guild_id] = settings

    async def _replayed(self, actor: Actor, game_id: int, first: int, last: int) -> Outcome:
        loaded = await self._load(game_id, actor)
        viewer = self._viewer(loaded, actor)
        events = [event_for(e, viewer) for _, _, e in await self.repo.events(game_id, first, last)]
        return Outcome(game_id, first, last, tuple(events), view_of(loaded.state, viewer), replayed=True)



def _version_id(system: str, overrides: dict[str, str]) -> str:
    blob = json.dumps({"system": system, "files": overrides}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
