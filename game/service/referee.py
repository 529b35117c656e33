"""The referee-assistant systems (game/systems/: WS&IM, Iron & Oak, Captain's Sea) served to a
group: a game of a system with its seats, a line of notation per command from a seat, secret
orders kept per seat and revealed together by the system's own rules, what each viewer may read,
and the log stored in the same tables as Oak & Iron's (docs/systems/README.md).

It sits beside `GameService` rather than inside it because everything Oak & Iron's service does
with a state (its decoder, its undo barriers, its views) is typed to Oak & Iron: here the same
storage is driven through the `GameSystem` interface only, so any system that keeps that
interface is served without an edit here.

Secrecy rests on two rules kept in one place (`_lines`): whatever is posted for everyone is each
event as a spectator sees it (`event_for(e, None)`), and a player reads the events as their own
seat sees them. The command line a player typed is never echoed: only what the system accounts.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import datetime, timedelta
from importlib import resources
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from game import names
from game.codec import from_data, to_data
from game.dice import FairDice, is_seed
from game.errors import DataError, NotYourShip, RulesError, UnknownName
from game.fairness import commitment, new_seed
from game.schema.common import MAX_DEPTH, MAX_NAME, read_toml
from game.service.authority import Actor
from game.service.decision import Decision, Wait, decode_waits, encode_waits
from game.service.errors import (
    ChannelBusy,
    GameBusy,
    GameDamaged,
    GameNotFound,
    NotSeated,
    SeatTaken,
    ServiceFault,
    UndoRefused,
    WrongGuild,
)
from game.service.models import EventRecord, GameRecord, ScheduledJob, Seat, utcnow
from game.service.outbox import Post
from game.service.repository import Repository, VersionConflict
from game.service.writer import clear_clock_jobs
from game.systems import SYSTEMS, system
from game.systems.base import GameSystem
from game.systems.dice import DiceRolled
from game.systems.orders import OrdersRevealed, OrderSubmitted
from game.systems.setup import SetupError
from game.systems.tables import Cell

OAK_AND_IRON = "oak_and_iron"
REFEREE_SEAT = "ref"  # the seat of a referee who is not one of the players
UNDONE = "Undone"  # the service's own log row: the commands from `command` on are taken back
MAX_SETUP_BYTES = 100_000
RETRIES = 3


def is_referee_system(name: str) -> bool:
    return name in SYSTEMS


def builtin_setups(system_name: str) -> dict[str, str]:
    """The example setups shipped with a system (game/data/<key>/setups/), by name."""
    folder = resources.files("game.data").joinpath(system_name).joinpath("setups")
    return {f.name.removesuffix(".toml"): f.read_text(encoding="utf-8")
            for f in folder.iterdir() if f.name.endswith(".toml")}


def setup_doc(system_name: str, setup: str = "", text: str | None = None) -> dict[str, Any]:
    """A setup description from an uploaded file or a shipped example (the first, unless named)."""
    if text is None:
        known = builtin_setups(system_name)
        if not setup:
            setup = sorted(known)[0]
        if setup not in known:
            raise UnknownName(f"{system(system_name).title} has no built-in setup {setup[:MAX_NAME]!r}.",
                              f"Setups: {', '.join(sorted(known))}, or upload your own file.")
        text = known[setup]
    # the limits every uploaded file is read within (Oak & Iron's scenarios and lists too): checked
    # before parsing, so a crafted file never reaches tomllib's recursion
    try:
        return read_toml(text, "setup", MAX_SETUP_BYTES, DataError)
    except DataError as exc:
        raise _setup_refused(exc) from None


def _setup_refused(exc: DataError) -> SetupError:
    """A setup's refusal in the words of the other setup errors: what is wrong, what is allowed."""
    if exc.field == "(size)":
        return SetupError(f"That setup file {exc.problem}.", f"Keep it under {MAX_SETUP_BYTES // 1000} KB.")
    if exc.field == "(nesting)":
        return SetupError(f"That setup file {exc.problem}.",
                          f"Nest arrays, inline tables and table names at most {MAX_DEPTH} deep.")
    return SetupError(f"The setup {exc.problem}.")


def seat_keys(state: Any) -> dict[str, str]:
    """Seat key -> the name the system knows the seat by. Keys are short (the seats table allows 8
    characters) while a system's player names are whatever the setup says ("Confederate")."""
    out = {f"p{i + 1}": name for i, name in enumerate(state.players)}
    if state.referee not in state.players:
        out[REFEREE_SEAT] = state.referee
    return out


@dataclass
class RefGame:
    record: GameRecord
    seats: list[Seat]
    state: Any
    log: list[tuple[int, int, Any]]  # (seq, command, event) still in effect (undone commands left out)

    @property
    def system(self) -> GameSystem[Any, Any, Any]:
        return system(self.record.system)

    def name_of(self, seat: Seat) -> str:
        return seat_keys(self.state).get(seat.player, seat.player)


@dataclass(frozen=True)
class RefInfo:
    id: int
    name: str
    system: str
    title: str
    guild_id: str
    channel_id: str
    status: str
    seats: tuple[tuple[str, str | None, str], ...]  # (the system's name for the seat, user id, display name)
    turn: int
    phase: str
    waiting: tuple[str, ...]
    dice_commitment: str
    result: str = ""

    def users_of(self, names: Sequence[str]) -> list[str]:
        """The members holding these seats, each once."""
        return list(dict.fromkeys(u for n, u, _ in self.seats if n in names and u))


@dataclass(frozen=True)
class RefOutcome:
    game_id: int
    public: tuple[str, ...]  # for the channel: every event as a spectator sees it
    mine: tuple[str, ...]  # for the actor: as their seat sees it
    info: RefInfo
    sealed: bool = False  # the command sealed a secret order


@dataclass
class _Cache:
    """The games read lately, the oldest dropped past `size` (a dropped game is read again)."""

    size: int = 200
    games: OrderedDict[int, RefGame] = field(default_factory=OrderedDict)
    # a game's lock lives while a command holds or waits for it, then goes: the map never grows with
    # every game ever played (a lock nobody holds has nothing to exclude)
    locks: weakref.WeakValueDictionary[int, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)

    def get(self, game_id: int) -> RefGame | None:
        game = self.games.get(game_id)
        if game is not None:
            self.games.move_to_end(game_id)
        return game

    def put(self, game_id: int, game: RefGame) -> None:
        self.games[game_id] = game
        self.games.move_to_end(game_id)
        while len(self.games) > self.size:
            self.games.popitem(last=False)


class RefereeService:
    def __init__(self, repo: Repository, seeds: Callable[[], str] = new_seed,
                 on_create: Callable[[str, str], object] | None = None,
                 announcement: Callable[[str], Sequence[Post]] = lambda system: ()) -> None:
        self.repo = repo
        self._new_seed = seeds
        self._announcement = announcement  # the outbox rows that announce a new game (none without a bot)
        self._on_create = on_create  # told (guild, channel) of each game made, for a channel cache elsewhere
        self._cache = _Cache()
        # on a database several processes write (PostgreSQL), a cached game is checked against the
        # stored version before it is read, as GameService does
        self.shared = repo.engine.dialect.name != "sqlite"

    # ------------------------------------------------------------------ creating and joining

    def check_setup(self, system_name: str, setup: str = "", text: str | None = None) -> str:
        """The game's name, or the RulesError creating it would raise (checked before a thread is made)."""
        doc = setup_doc(system_name, setup, text)
        system(system_name).initial_state(doc)
        return _game_name(system_name, doc, setup)

    async def create_game(self, actor: Actor, channel_id: str, system_name: str, setup: str = "",
                          text: str | None = None, thread_id: str | None = None) -> RefInfo:
        sysm = system(system_name)
        doc = setup_doc(system_name, setup, text)
        state = sysm.initial_state(doc)
        busy = await self.repo.game_in_channel(actor.guild_id, thread_id or channel_id)
        if busy is not None:
            raise ChannelBusy(f"This channel already has a game in progress ({busy.name}, #{busy.id}).",
                              "Finish it, or start the new game in its own thread.")
        dice_seed = self._new_seed()
        if not is_seed(dice_seed):
            raise ServiceFault("The dice seed source gave something that is not a 256-bit seed.")
        record = GameRecord(
            guild_id=actor.guild_id, channel_id=thread_id or channel_id, thread_id=thread_id,
            name=_game_name(system_name, doc, setup)[:MAX_NAME], system=system_name, edition="referee",
            seed=0, dice_seed=dice_seed, status="active", initial_state=_encode_state(state),
        )
        seats = [Seat(game_id=0, player=key, display_name=name) for key, name in seat_keys(state).items()]
        record = await self.repo.create_game(record, None, seats, self._announcement(system_name))
        assert record.id is not None
        if self._on_create is not None:
            self._on_create(actor.guild_id, record.channel_id)
        return await self.info(record.id)

    async def join(self, actor: Actor, game_id: int, seat_name: str | None = None, display_name: str = "") -> RefInfo:
        """Take a seat: a player's (by the setup's name), or the referee's. One seat per person: a
        person with two seats would read each seat's secrets through the other."""
        async with self._lock(game_id):
            game = await self._load(game_id, actor, fresh=True)
            if any(s.user_id == actor.user_id for s in game.seats):
                raise SeatTaken("You already hold a seat in this game.", "One seat per person: a second would "
                                "show you both seats' secrets.")
            names = {game.name_of(s): s for s in game.seats}
            free = [n for n, s in names.items() if s.user_id is None]
            if seat_name is None:
                if not free:
                    raise SeatTaken("Every seat is taken.", "Watch the game, or start another.")
                seat = names[free[0]]
            else:
                found = next((s for n, s in names.items() if n.lower() == seat_name.strip().lower()), None)
                if found is None:
                    raise UnknownName(f"There is no seat {seat_name[:40]!r} in this game.", f"Seats: {', '.join(names)}.")
                if found.user_id is not None:
                    raise SeatTaken(f"{game.name_of(found)} is taken.", f"Free seats: {', '.join(free) or 'none'}.")
                seat = found
            seat.user_id, seat.display_name = actor.user_id, (display_name or actor.user_id)[:100]
            try:
                await self.repo.update_seat(seat, game.record)  # moves the version on: other copies are stale
            except VersionConflict:
                self._cache.games.pop(game_id, None)
                raise GameBusy("The game changed while you were taking the seat.", "Try again.") from None
        return await self.info(game_id)

    # ------------------------------------------------------------------ reading

    async def info(self, game_id: int) -> RefInfo:
        game = await self._load(game_id)
        r, st = game.record, game.state
        assert r.id is not None
        keys = seat_keys(st)
        seats = tuple((keys.get(s.player, s.player), s.user_id, s.display_name)
                      for s in sorted(game.seats, key=lambda s: s.player))
        return RefInfo(r.id, r.name, r.system, game.system.title, r.guild_id, r.channel_id, r.status, seats,
                       st.turn, st.phase, tuple(sorted(game.system.deciders(st))),
                       commitment(r.dice_seed) if r.dice_seed else "", st.result)

    async def waiting_holder(self, decision: Decision) -> str | None:
        """The one check of a scheduled action (game/service/decision.py), for these games: the member
        to remind when the game still waits on the seat's wait begun where the action was planned, held
        by the same member (or, planned while the seat stood empty, by whoever has taken it since);
        None otherwise."""
        game = await self._load(decision.game_id, fresh=True)
        name = seat_keys(game.state).get(decision.player)
        if game.state.result or name not in game.system.deciders(game.state):
            return None
        wait = decode_waits(game.record.waits).get(decision.player)
        holder = next((s.user_id for s in game.seats if s.player == decision.player), None)
        if wait is None or wait.since != decision.since or decision.holder not in (None, holder):
            return None
        return holder

    async def game_in_channel(self, guild_id: str, channel_id: str, include_over: bool = False) -> int | None:
        """The channel's referee-system game, if its game is one."""
        record = await self.repo.game_in_channel(guild_id, channel_id, include_over)
        if record is None or record.id is None or not is_referee_system(record.system):
            return None
        return record.id

    async def view(self, actor: Actor, game_id: int) -> Any:
        game = await self._load(game_id, actor)
        return game.system.view(game.state, self._viewer(game, actor))

    async def log(self, actor: Actor, game_id: int, last: int = 30) -> list[str]:
        game = await self._load(game_id, actor)
        viewer = self._viewer(game, actor)
        events = [e for _, _, e in game.log[-last:]] if last > 0 else []
        return _lines(game.system, events, viewer)

    async def ship_log(self, actor: Actor, game_id: int, ship: str) -> str:
        """One ship's log as the actor may read it (another player's secrets removed)."""
        seen = await self.view(actor, game_id)
        return ship_text(seen, ship)

    async def lookup(self, system_name: str, table: str, row: str, column: str = "", game_id: int | None = None) -> str:
        """A `/rules` look-up: the cell, or where to read it on the printed table. In a game, the
        values its referee entered from the printed copy answer too."""
        from game.systems.common import as_int

        t = system(system_name).tables().find(table)
        printed = ()
        if game_id is not None:
            game = await self._load(game_id)
            if game.record.system == system_name:
                printed = game.state.printed

        def value(text: str) -> int | str:
            try:
                return as_int(text, "the key")
            except RulesError:
                return text.strip()

        found = t.lookup(value(row), value(column) if column.strip() else None, printed)
        if isinstance(found, Cell):
            where = f"{t.rows.name} {found.row}" + (f", {t.columns.name} {found.column}" if found.column != "value" else "")
            shown = "blank (no entry)" if found.blank else str(found.value)
            mark = f" ({found.provenance})" if found.provenance else ""
            return f"**{t.title}**, {where}: {shown}{mark}"
        return found.text()

    # ------------------------------------------------------------------ acting

    async def submit(self, actor: Actor, game_id: int, line: str) -> RefOutcome:
        """One line of the system's notation from the actor's seat, decided with the game's dice and
        committed before the answer."""
        async with self._lock(game_id):
            for attempt in range(RETRIES):
                game = await self._load(game_id, actor, fresh=attempt > 0)
                try:
                    viewer = self._seated(game, actor)
                    command = self._parse(game, viewer, line)
                    dice = FairDice(game.record.dice_seed, game.state.log_position)
                    events = game.system.decide(game.state, command, dice)
                except RulesError:
                    if attempt == 0 and await self.repo.version_of(game_id) != game.record.version:
                        continue  # decided on an old copy: another process moved the game on
                    raise
                try:
                    await self._append(game, actor, events)
                except _Conflict:
                    continue
                sysm = game.system
                sealed = any(type(e).__name__ == "OrderSubmitted" for e in events)
                return RefOutcome(game_id, tuple(_lines(sysm, events, None)), tuple(_lines(sysm, events, viewer)),
                                  await self.info(game_id), sealed)
            raise GameBusy("The game is busy: other orders kept arriving.", "Try again in a moment.")

    async def undo(self, actor: Actor, game_id: int) -> RefOutcome:
        """The referee takes back the last command, as Oak & Iron's undo does: only when it rolled no
        dice and revealed no order, which every player has then seen."""
        async with self._lock(game_id):
            game = await self._load(game_id, actor, fresh=True)
            viewer = self._seated(game, actor)
            if viewer != game.state.referee:
                raise NotYourShip(f"Only the referee ({game.state.referee}) takes a command back.", "Ask the referee.")
            if not game.log:
                raise UndoRefused("There is no command to undo.")
            last_cmd = game.log[-1][1]
            why = undo_refused([e for _, c, e in game.log if c == last_cmd], game.state)
            if why:
                raise UndoRefused(f"The last command cannot be taken back: {why}.",
                                  "Only a command that rolled no dice, revealed nothing and sealed no order "
                                  "after a reveal can be undone.")
            await self._append(game, actor, [], undo_from=last_cmd)
            return RefOutcome(game_id, ("The referee took back the last command.",),
                              ("The last command is taken back.",), await self.info(game_id))

    # ------------------------------------------------------------------ internals

    def _seated(self, game: RefGame, actor: Actor) -> str:
        seat = next((s for s in game.seats if s.user_id == actor.user_id), None)
        if seat is None:
            raise NotSeated("You hold no seat in this game.", "Take one with /ref join, or watch.")
        return game.name_of(seat)

    def _viewer(self, game: RefGame, actor: Actor) -> str | None:
        seat = next((s for s in game.seats if s.user_id == actor.user_id), None)
        return game.name_of(seat) if seat is not None else None

    def _parse(self, game: RefGame, viewer: str, line: str) -> Any:
        """The line as the seat's command: the parser reads names against what this seat may see, and
        the player is who holds the seat, never what the line says."""
        sysm = game.system
        command = sysm.parse(line, sysm.view(game.state, viewer))
        typed = getattr(command, "player", "")
        if typed and typed != viewer:
            raise NotYourShip(f"You hold the seat of {viewer}, not {typed}.", "Leave out the `NAME:` prefix.")
        if is_dataclass(command) and not isinstance(command, type) and any(f.name == "player" for f in fields(command)):
            command = replace(command, player=viewer)
        return command

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._cache.locks.setdefault(game_id, asyncio.Lock())

    async def _load(self, game_id: int, actor: Actor | None = None, fresh: bool = False) -> RefGame:
        game = None if fresh else self._cache.get(game_id)
        if game is not None and self.shared and await self.repo.version_of(game_id) != game.record.version:
            game = None
        if game is None:
            game = await self._read(game_id)
            self._cache.put(game_id, game)
        if actor is not None and game.record.guild_id != actor.guild_id:
            raise WrongGuild("That game belongs to another server.", "Use a game of this server.")
        return game

    async def _read(self, game_id: int) -> RefGame:
        async with self.repo.session() as s:
            record = await s.get(GameRecord, game_id)
            if record is None or not is_referee_system(record.system):
                raise GameNotFound(f"There is no referee-assistant game #{game_id}.",
                                   "Oak & Iron games are played with /game and /order.")
            seats = list((await s.execute(select(Seat).where(col(Seat.game_id) == game_id))).scalars())
            rows = (await s.execute(
                select(col(EventRecord.seq), col(EventRecord.command), col(EventRecord.type), col(EventRecord.payload))
                # up to the record's last event: under READ COMMITTED another process's append may show
                # its events here though the record was read before it, and the state must match its version
                .where(col(EventRecord.game_id) == game_id, col(EventRecord.seq) <= record.last_seq)
                .order_by(col(EventRecord.seq))
            )).all()
        sysm = system(record.system)
        try:
            initial = from_data(sysm.state_type, json.loads(record.initial_state))
            log: list[tuple[int, int, Any]] = []
            for seq, cmd, kind, payload in rows:
                data = json.loads(payload)
                if kind == UNDONE:
                    log = [row for row in log if row[1] < data["command"]]
                else:
                    log.append((seq, cmd, sysm.events.decode(data)))
            state = initial
            for _, _, e in log:
                state = sysm.apply(state, e)
        except Exception as exc:
            raise GameDamaged(f"Game #{game_id}'s log cannot be read ({type(exc).__name__}).",
                              "Its log is damaged; start a new game.") from None
        return RefGame(record, seats, state, log)

    async def _append(self, game: RefGame, actor: Actor, events: Sequence[Any], undo_from: int | None = None) -> None:
        """Write one command's events (or an undo mark) if nobody moved the game on since it was read."""
        rec = game.record
        assert rec.id is not None
        sysm = game.system
        rows = [(type(e).__name__, sysm.events.encode(e)) for e in events]
        if undo_from is not None:
            rows = [(UNDONE, {"command": undo_from})]
        log = list(game.log)
        state = game.state
        if undo_from is not None:
            log = [row for row in log if row[1] < undo_from]
            state = from_data(sysm.state_type, json.loads(rec.initial_state))
            for _, _, e in log:
                state = sysm.apply(state, e)
        else:
            for i, e in enumerate(events):
                state = sysm.apply(state, e)
                log.append((rec.last_seq + 1 + i, rec.commands + 1, e))
        first, command, now = rec.last_seq + 1, rec.commands + 1, utcnow()
        status = "over" if state.result else "active"
        waiting = sorted(sysm.deciders(state)) if not state.result else []
        replan = (waiting, state.phase) != (sorted(sysm.deciders(game.state)), game.state.phase)
        hours = (await self.repo.guild_settings(rec.guild_id)).reminder_hours if replan else 0
        # a new set of waits begins here: each reminder names it, so a stale one ends quietly (still_waiting)
        # waits and jobs name a seat by its key (the side's name may be long; the key fits the job's column)
        key_of = {name: key for key, name in seat_keys(state).items()}
        holders = {s.player: s.user_id for s in game.seats}
        waits = ({key_of[p]: Wait(first, holders.get(key_of[p]), now) for p in waiting if p in key_of} if replan
                 else decode_waits(rec.waits))
        async with self.repo.session() as s, s.begin():
            done = cast(CursorResult[Any], await s.execute(
                update(GameRecord).where(col(GameRecord.id) == rec.id, col(GameRecord.version) == rec.version)
                .values(version=rec.version + 1, last_seq=rec.last_seq + len(rows), commands=command,
                        updated_at=now, status=status, waits=encode_waits(waits))))
            if done.rowcount != 1:
                self._cache.games.pop(rec.id, None)
                raise _Conflict()
            for i, (kind, data) in enumerate(rows):
                s.add(EventRecord(game_id=rec.id, seq=first + i, command=command, type=kind[:50],
                                  payload=json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                                  actor=actor.user_id, created_at=now))
            if replan:
                await _remind(s, rec.id, waits, seat_keys(state), hours, now)
        rec.waits = encode_waits(waits)
        rec.version += 1
        rec.last_seq += len(rows)
        rec.commands = command
        rec.status = status
        game.state, game.log = state, log


async def _remind(s: AsyncSession, game_id: int, waits: Mapping[str, Wait], names: Mapping[str, str], hours: int,
                  now: datetime) -> None:
    """A reminder for each seat the game now waits for, in the transaction of the command (the jobs
    survive a restart), naming the wait it was planned for. No deadline: nobody may act for an absent
    seat in these games."""
    await (await s.connection()).run_sync(clear_clock_jobs, [game_id], ("reminder",))
    for key, wait in waits.items():
        s.add(ScheduledJob(game_id=game_id, kind="reminder", due_at=now + timedelta(hours=hours),
                           payload=json.dumps({"player": names.get(key, key)}), player=key, holder=wait.holder,
                           since=wait.since))


def undo_refused(taken: Sequence[Any], state: Any) -> str:
    """Why a command's events may not be taken back ("" if they may): what every player has seen, and
    an order sealed once the reveal began (taking it back would let its owner seal it again knowing
    what the reveal showed: sealed means sealed)."""
    if any(isinstance(e, DiceRolled) for e in taken):
        return "its dice have been rolled and seen"
    if any(isinstance(e, OrdersRevealed) for e in taken):
        return "it revealed orders"
    if state.orders.revealing and any(isinstance(e, OrderSubmitted) for e in taken):
        return "it sealed an order after the reveal began, and a sealed order stands"
    return ""


class _Conflict(Exception):
    """Another process wrote to the game since it was read: read it again and decide afresh."""


def _encode_state(state: Any) -> str:
    return json.dumps(to_data(state), ensure_ascii=False, separators=(",", ":"))


def _game_name(system_name: str, doc: dict[str, Any], setup: str) -> str:
    name = doc.get("name")
    return name.strip() if isinstance(name, str) and name.strip() else (setup or system(system_name).title)


def _lines(sysm: GameSystem[Any, Any, Any], events: Sequence[Any], viewer: str | None) -> list[str]:
    out = (sysm.account(sysm.event_for(e, viewer)) for e in events)
    return [line for line in out if line]


def ship_text(view: Any, name: str) -> str:
    """A ship's log from a view: each field the system keeps, as the view shows it."""
    ships = getattr(view, "ships", ())
    wanted = name.strip().lower()
    ship = next((s for s in ships if s.id.lower() == wanted), None)
    if ship is None:
        ship = next((s for s in ships if s.id.lower().startswith(wanted)), None) if wanted else None
    if ship is None:
        raise UnknownName(f"There is no ship called {name[:40]!r}.", f"Ships: {', '.join(s.id for s in ships)}.")
    lines = [f"**{names.text(ship.id)}** ({names.text(ship.player)})"]
    for f in fields(ship):
        if f.name in ("id", "player"):
            continue
        value = getattr(ship, f.name)
        if value in ((), "", None, False):
            continue
        lines.append(f"{f.name.replace('_', ' ')}: {names.text(_shown(value))}")
    return "\n".join(lines)


def _shown(value: Any) -> str:
    if is_dataclass(value) and not isinstance(value, type):
        parts = (f"{f.name}={_shown(getattr(value, f.name))}" for f in fields(value))
        return "(" + ", ".join(parts) + ")"
    if isinstance(value, tuple):
        return ", ".join(_shown(v) for v in value)
    return str(value)
