"""The referee-assistant systems (game/systems/: WS&IM, Iron & Oak, Captain's Sea) served to a
group: a game of a system with its seats, a line of notation per command from a seat, secret
orders kept per seat and revealed together by the system's own rules, what each viewer may read,
and the log stored in the same tables as Oak & Iron's (docs/systems/README.md).

A part of the one game service like the others: its games are loaded, cached, locked and written
by the game store (game/service/store.py) through the `GameSystem` interface, their undo is the
Undo part's, their reminders the clock's. What is theirs alone lives here: the seats by the
setup's names, the referee's seat, the table look-ups and the ship sheets. Any system that keeps
the interface is served without an edit here.

Secrecy rests on two rules kept in one place (`_lines`): whatever is posted for everyone is each
event as a spectator sees it (`event_for(e, None)`), and a player reads the events as their own
seat sees them. The command line a player typed is never echoed: only what the system accounts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from importlib import resources
from typing import Any

from game import names
from game.dice import FairDice, is_seed
from game.errors import DataError, NotYourShip, RulesError, UnknownName
from game.fairness import commitment, new_seed
from game.schema.common import MAX_DEPTH, MAX_NAME, read_toml
from game.service.authority import Actor
from game.service.errors import ChannelBusy, GameBusy, GameNotFound, NotSeated, SeatTaken, ServiceFault
from game.service.models import GameRecord, Seat
from game.service.outbox import Post
from game.service.repository import Stored, VersionConflict, encode_state
from game.service.sides import seat_keys
from game.service.store import GameStore
from game.service.table_entries import ServerTables
from game.service.undo import Undo
from game.systems import REFEREE_SYSTEMS, referee_system, ship_sheet, system
from game.systems.base import GameSystem
from game.systems.common import EnterTable
from game.systems.setup import SetupError
from game.systems.sheet import Sheet
from game.systems.table_entry import read_entry
from game.systems.tables import Cell, PrintedEntry

MAX_SETUP_BYTES = 100_000
RETRIES = 3


def is_referee_system(name: str) -> bool:
    return name in REFEREE_SYSTEMS


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
            raise UnknownName(f"{referee_system(system_name).title} has no built-in setup {setup[:MAX_NAME]!r}.",
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


class RefereeService:
    def __init__(self, store: GameStore, undo: Undo, seeds: Callable[[], str] = new_seed,
                 on_create: Callable[[str, str], object] | None = None,
                 announcement: Callable[[str], Sequence[Post]] = lambda system: (),
                 replan: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.store = store
        self.undoing = undo
        self._replan = replan  # the clock plans the seats' reminders again once a seat changes hands
        self._new_seed = seeds
        self._announcement = announcement  # the outbox rows that announce a new game (none without a bot)
        self._on_create = on_create  # told (guild, channel) of each game made, for a channel cache elsewhere
        self.tables = ServerTables(store.repo)

    # ------------------------------------------------------------------ creating and joining

    def check_setup(self, system_name: str, setup: str = "", text: str | None = None) -> str:
        """The game's name, or the RulesError creating it would raise (checked before a thread is made)."""
        doc = setup_doc(system_name, setup, text)
        referee_system(system_name).initial_state(doc)
        return _game_name(system_name, doc, setup)

    async def create_game(self, actor: Actor, channel_id: str, system_name: str, setup: str = "",
                          text: str | None = None, thread_id: str | None = None) -> RefInfo:
        sysm = referee_system(system_name)
        doc = setup_doc(system_name, setup, text)
        state = sysm.initial_state(doc)
        # the server's printed tables, in the initial state: replay rebuilds the game exactly, and a table
        # the server enters later leaves a game under way as it started
        server = await self.tables.entries(actor.guild_id, system_name)
        if server:
            state = replace(state, printed=(*server, *state.printed))
        busy = await self.store.repo.game_in_channel(actor.guild_id, thread_id or channel_id)
        if busy is not None:
            raise ChannelBusy(f"This channel already has a game in progress ({busy.name}, #{busy.id}).",
                              "Finish it, or start the new game in its own thread.")
        dice_seed = self._new_seed()
        if not is_seed(dice_seed):
            raise ServiceFault("The dice seed source gave something that is not a 256-bit seed.")
        record = GameRecord(
            guild_id=actor.guild_id, channel_id=thread_id or channel_id, thread_id=thread_id,
            name=_game_name(system_name, doc, setup)[:MAX_NAME], system=system_name, edition="referee",
            seed=0, dice_seed=dice_seed, status="active", initial_state=encode_state(state),
        )
        seats = [Seat(game_id=0, player=key, display_name=name) for key, name in seat_keys(state).items()]
        record = await self.store.repo.create_game(record, None, seats, self._announcement(system_name))
        assert record.id is not None
        if self._on_create is not None:
            self._on_create(actor.guild_id, record.channel_id)
        return await self.info(record.id)

    async def join(self, actor: Actor, game_id: int, seat_name: str | None = None, display_name: str = "") -> RefInfo:
        """Take a seat: a player's (by the setup's name), or the referee's. One seat per person: a
        person with two seats would read each seat's secrets through the other."""
        async with self.store.lock(game_id):
            game = await self._load(game_id, actor, fresh=True)
            if any(s.user_id == actor.user_id for s in game.seats):
                raise SeatTaken("You already hold a seat in this game.", "One seat per person: a second would "
                                "show you both seats' secrets.")
            free = [_name_of(game, s) for s in game.seats if s.user_id is None]
            if seat_name is None:
                if not free:
                    raise SeatTaken("Every seat is taken.", "Watch the game, or start another.")
                seat = _seat_named(game, free[0])
            else:
                found = _seat_named(game, seat_name)
                if found.user_id is not None:
                    raise SeatTaken(f"{_name_of(game, found)} is taken.", f"Free seats: {', '.join(free) or 'none'}.")
                seat = found
            seat.user_id, seat.display_name = actor.user_id, (display_name or actor.user_id)[:100]
            try:
                await self.store.repo.update_seat(seat, game.record)  # moves the version on: other copies are stale
            except VersionConflict:
                self.store.forget(game_id)
                raise GameBusy("The game changed while you were taking the seat.", "Try again.") from None
        return await self.info(game_id)

    async def hand_over(self, actor: Actor, game_id: int, seat_name: str | None, to_user: str,
                        to_name: str = "") -> RefOutcome:
        """Give a seat to another member: its holder may, the referee for any seat, or a GM of the
        server. The member may hold no other seat (they would read both seats' secrets); the seat's
        reminders follow it to its new holder."""
        async with self.store.lock(game_id):
            game = await self._load(game_id, actor, fresh=True)
            mine = _viewer(game, actor)
            wanted = seat_name or mine
            if wanted is None:
                raise UnknownName("Say which seat to hand over.", f"Seats: {', '.join(seat_keys(game.state).values())}.")
            seat = _seat_named(game, wanted)
            name = _name_of(game, seat)
            if not (actor.gm or mine in (name, game.state.referee)):
                raise NotSeated(f"The seat of {name} is not yours to hand over.",
                                "Its holder, the referee or a GM of the server may hand it over.")
            if game.system.over(game.state):
                raise SeatTaken("The game is over: its seats stay as they were.")
            if seat.user_id == to_user:
                raise SeatTaken(f"The seat of {name} is already theirs.")
            if any(s.user_id == to_user for s in game.seats):
                raise SeatTaken("That member already holds a seat in this game.",
                                "One seat per person: a second would show them both seats' secrets.")
            seat.user_id, seat.display_name = to_user, (to_name or to_user)[:100]
            try:
                await self.store.repo.update_seat(seat, game.record)
            except VersionConflict:
                self.store.forget(game_id)
                raise GameBusy("The game changed while the seat was handed over.", "Try again.") from None
        if self._replan is not None:
            await self._replan(game_id)
        line = f"The seat of {name} is handed to {seat.display_name}."
        return RefOutcome(game_id, (line,), (line,), await self.info(game_id))

    # ------------------------------------------------------------------ reading

    async def info(self, game_id: int) -> RefInfo:
        return self.info_of(await self._load(game_id))

    @staticmethod
    def info_of(game: Stored[Any]) -> RefInfo:
        r, st, sysm = game.record, game.state, game.system
        assert r.id is not None
        keys = seat_keys(st)
        seats = tuple((keys.get(s.player, s.player), s.user_id, s.display_name)
                      for s in sorted(game.seats, key=lambda s: s.player))
        return RefInfo(r.id, r.name, r.system, sysm.title, r.guild_id, r.channel_id, r.status, seats,
                       st.turn, st.phase, tuple(sorted(sysm.deciders(st))),
                       commitment(r.dice_seed) if r.dice_seed else "", st.result)

    async def game_in_channel(self, guild_id: str, channel_id: str, include_over: bool = False) -> int | None:
        """The channel's referee-system game, if its game is one."""
        record = await self.store.repo.game_in_channel(guild_id, channel_id, include_over)
        if record is None or record.id is None or not is_referee_system(record.system):
            return None
        return record.id

    async def view(self, actor: Actor, game_id: int) -> Any:
        game = await self._load(game_id, actor)
        return game.system.view(game.state, _viewer(game, actor))

    async def log(self, actor: Actor, game_id: int, last: int = 30) -> list[str]:
        """The last lines of the game's account as the actor's seat may read them (an undo stays in
        the account, as a line saying what was taken back)."""
        game = await self._load(game_id, actor)
        if last <= 0:
            return []
        first = max(1, game.record.last_seq - last + 1)
        events = [e for _, _, e in await self.store.repo.events(game_id, first, game.record.last_seq, game.system)]
        return _lines(game.system, events, _viewer(game, actor))

    async def ship_sheet(self, actor: Actor, game_id: int, ship: str) -> Sheet:
        """One ship's sheet as the actor may read it (game/systems/sheet.py): built from the actor's
        view, so another player's secrets are not in it."""
        game = await self._load(game_id, actor)
        return ship_sheet(game.record.system, game.system.view(game.state, _viewer(game, actor)), ship)

    async def ship_log(self, actor: Actor, game_id: int, ship: str) -> str:
        """One ship's log as the actor may read it, as text (another player's secrets removed)."""
        return (await self.ship_sheet(actor, game_id, ship)).text()

    async def lookup(self, system_name: str, table: str, row: str, column: str = "", game_id: int | None = None,
                     guild_id: str = "") -> str:
        """A `/rules` look-up: the cell, or where to read it on the printed table. In a game, the
        values its referee entered from the printed copy answer too (and the server's it started with);
        outside a game of the system, the server's entries."""
        from game.systems.common import as_int

        t = referee_system(system_name).tables().find(table)
        printed: tuple[PrintedEntry, ...] = ()
        game = await self._load(game_id) if game_id is not None else None
        if game is not None and game.record.system == system_name:
            printed = game.state.printed
        elif guild_id:
            printed = await self.tables.entries(guild_id, system_name)

        def value(text: str) -> int | str:
            try:
                return as_int(text, "the key")
            except RulesError:
                return text.strip()

        found = t.lookup(value(row), value(column) if column.strip() else None, printed)
        if isinstance(found, Cell):
            where = f"{t.rows.name} {found.row}" + (f", {t.columns.name} {found.column}" if found.column != "value" else "")
            shown = "blank (no entry)" if found.blank else str(found.value)
            mark = f" ({names.text(found.provenance)})" if found.provenance else ""  # it may name a member
            return f"**{t.title}**, {where}: {shown}{mark}"
        return found.text()

    # ------------------------------------------------------------------ printed tables

    async def enter_server_table(self, actor: Actor, system_name: str, text: str, display_name: str = "") -> str:
        """A GM enters a whole printed table (a table file) once for every new game of the server."""
        referee_system(system_name)
        return await self.tables.enter(actor, system_name, text, display_name)

    async def server_tables(self, guild_id: str, system_name: str) -> str:
        return await self.tables.summary(guild_id, system_name)

    async def enter_game_table(self, actor: Actor, game_id: int, text: str) -> RefOutcome:
        """The game's referee enters a whole printed table for this game only (before the server's)."""

        async def decided(game: Stored[Any]) -> list[Any]:
            viewer = _viewer(game, actor)
            if viewer is None or viewer != game.state.referee:
                raise NotYourShip(f"Only the referee ({game.state.referee}) enters a printed table for this game.",
                                  "A GM enters one for the server's new games with `/ref table-entry server: True`.")
            table, entries = read_entry(game.system.tables(), text)
            dice = FairDice(game.record.dice_seed, game.state.log_position)
            return game.system.decide(game.state, EnterTable(table.name, entries, viewer), dice)

        game, events = await self._commit(actor, game_id, decided)
        sysm, viewer = game.system, _viewer(game, actor)
        return RefOutcome(game_id, tuple(_lines(sysm, events, None)), tuple(_lines(sysm, events, viewer)),
                          self.info_of(game))

    # ------------------------------------------------------------------ acting

    async def submit(self, actor: Actor, game_id: int, line: str) -> RefOutcome:
        """One line of the system's notation from the actor's seat, decided with the game's dice and
        committed before the answer."""

        async def decided(game: Stored[Any]) -> list[Any]:
            viewer = _seated(game, actor)
            command = _parse(game, viewer, line)
            dice = FairDice(game.record.dice_seed, game.state.log_position)
            return game.system.decide(game.state, command, dice)

        game, events = await self._commit(actor, game_id, decided)
        sysm, viewer = game.system, _viewer(game, actor)
        sealed = any(type(e).__name__ == "OrderSubmitted" for e in events)
        return RefOutcome(game_id, tuple(_lines(sysm, events, None)), tuple(_lines(sysm, events, viewer)),
                          self.info_of(game), sealed)

    async def undo(self, actor: Actor, game_id: int) -> RefOutcome:
        """The referee takes back the last command still in effect, through the Undo part: only when
        it rolled no dice and revealed no order (which every player has then seen), nor sealed an
        order once the reveal began."""

        async def restored(game: Stored[Any]) -> list[Any]:
            if _seated(game, actor) != game.state.referee:
                raise NotYourShip(f"Only the referee ({game.state.referee}) takes a command back.", "Ask the referee.")
            return [await self.undoing.restore(game, actor, "by the referee")]

        game, _ = await self._commit(actor, game_id, restored)
        return RefOutcome(game_id, ("The referee took back the last command.",),
                          ("The last command is taken back.",), self.info_of(game))

    # ------------------------------------------------------------------ internals

    async def _commit(self, actor: Actor, game_id: int,
                      decide: Callable[[Stored[Any]], Awaitable[list[Any]]]) -> tuple[Stored[Any], list[Any]]:
        """Decide on the game as it stands and write the events through the store, under the game's
        lock; decided again on fresh state if another process moved the game on."""
        store = self.store
        async with store.lock(game_id):
            for attempt in range(RETRIES):
                game = await self._load(game_id, actor, fresh=attempt > 0)
                try:
                    events = await decide(game)
                except RulesError:
                    if attempt == 0 and await store.stale(game):
                        continue  # decided on an old copy: another process moved the game on
                    raise
                new_state = game.state
                for e in events:
                    new_state = game.system.apply(new_state, e)
                try:
                    await store.write(game, actor, events, new_state, None)
                except VersionConflict:
                    store.forget(game_id)
                    continue
                return game, events
            raise GameBusy("The game is busy: other orders kept arriving.", "Try again in a moment.")

    async def _load(self, game_id: int, actor: Actor | None = None, fresh: bool = False) -> Stored[Any]:
        try:
            game = await self.store.load_any(game_id, actor, fresh)
        except GameNotFound:
            game = None
        if game is None or not is_referee_system(game.record.system):
            raise GameNotFound(f"There is no referee-assistant game #{game_id}.",
                               "Oak & Iron games are played with /game and /order.")
        return game


def _name_of(game: Stored[Any], seat: Seat) -> str:
    """The name the system knows a seat by (its key in the seats table otherwise)."""
    return seat_keys(game.state).get(seat.player, seat.player)


def _seat_named(game: Stored[Any], name: str) -> Seat:
    """The seat a member names, in any case (UnknownName with the seats there are)."""
    wanted = name.strip().lower()
    found = next((s for s in game.seats if _name_of(game, s).lower() == wanted), None)
    if found is None:
        raise UnknownName(f"There is no seat {name[:40]!r} in this game.",
                          f"Seats: {', '.join(seat_keys(game.state).values())}.")
    return found


def _viewer(game: Stored[Any], actor: Actor) -> str | None:
    seat = next((s for s in game.seats if s.user_id == actor.user_id), None)
    return _name_of(game, seat) if seat is not None else None


def _seated(game: Stored[Any], actor: Actor) -> str:
    name = _viewer(game, actor)
    if name is None:
        raise NotSeated("You hold no seat in this game.", "Take one with /ref join, or watch.")
    return name


def _parse(game: Stored[Any], viewer: str, line: str) -> Any:
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


def _game_name(system_name: str, doc: dict[str, Any], setup: str) -> str:
    name = doc.get("name")
    return name.strip() if isinstance(name, str) and name.strip() else (setup or system(system_name).title)


def _lines(sysm: GameSystem[Any, Any, Any], events: Sequence[Any], viewer: str | None) -> list[str]:
    out = (sysm.account(sysm.event_for(e, viewer)) for e in events)
    return [line for line in out if line]
