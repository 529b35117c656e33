"""`quarterdeck ref`: a referee-assistant game (WS&IM, Iron & Oak, Captain's Sea) at one terminal,
everyone at it. It is a client of the game service's referee part like the bot's /ref commands: the
same storage, dice (the game's secret seed), secrecy, undo and log. Each seat is a local member of
its own, so the service decides who may give what exactly as it does in Discord; a line says which
seat gives it with a `SEAT:` prefix, or is given by the one seat the game waits for.
"""

from __future__ import annotations

import asyncio
import getpass
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cli.common import open_service
from cli.terminal import refuse
from game.errors import GameOver, ParseError, RulesError, UnknownName
from game.fairness import new_seed
from game.names import plain
from game.schema.common import read_text_file
from game.service.authority import LOCAL_GUILD, Actor
from game.service.game_service import GameService
from game.service.referee import MAX_SETUP_BYTES, RefereeService, RefInfo, RefOutcome
from game.service.settings import Settings
from game.systems import referee_system
from game.systems.common import phase_spec
from game.systems.setup import SetupError
from game.tokens import split_words

# who reads what everyone at the table may read: holds no seat, so the service shows it a
# spectator's view, the one the channel reads in Discord
ONLOOKER = Actor("local", LOCAL_GUILD)

HELP = """Each line is given by a seat: `British: plot Victory 1`, `Umpire: next`. Without the prefix
a line is given by the seat the game waits for, when it waits for one seat only.
  any line of the system's notation (docs/systems/<system>.md): roll, printed, next, end, …
  status                    the turn, the phase, whom the game waits for, the seats
  log [N]                   the last N lines of the log (30) as everyone may read it;
                            `SEAT: log` as that seat reads it
  ship NAME [as SEAT]       a ship's log as everyone (or that seat) may read it
  rules TABLE ROW [COLUMN]  a table look-up, e.g. `rules fire_results 34 hull`
  secret                    then the order on the next line, not shown as it is typed: `French: secret`
  undo                      the referee takes back the last command (if it rolled and revealed nothing)
  help, quit
A line typed in the open is seen by whoever looks at the screen, and after it the giving seat's
own reading ([French only]). For a sealed order use `SEAT: secret`: the screen then shows only what
everyone may read, and `SEAT: log` shows the seat its order while the others look away."""


def run_referee(system_name: str, setup: str | None, file: Path | None, inp: Iterable[str], out: TextIO,
                interactive: bool, new: bool = False, db: str | None = None,
                seeds: Callable[[], str] = new_seed) -> int:
    try:
        referee_system(system_name)
        if setup is not None and file is not None:
            raise SetupError("Give --setup or --file, not both.")
        text = None if file is None else read_text_file(file, MAX_SETUP_BYTES, SetupError)
    except RulesError as exc:
        return refuse(exc.text)
    url = db or Settings.from_env().database_url
    return asyncio.run(_referee(url, system_name, setup, text, inp, out, interactive, new, seeds))


async def _referee(url: str, system_name: str, setup: str | None, text: str | None, inp: Iterable[str],
                   out: TextIO, interactive: bool, new: bool, seeds: Callable[[], str]) -> int:
    engine, service = await open_service(url, seeds)
    try:
        try:
            game_id = await _choose_game(service, system_name, setup, text, new, out)
        except RulesError as exc:  # an unknown setup, a bad setup file: nothing was made
            return refuse(exc.text)
        table = _Table(service.referee, game_id, out)
        await table.seat_everyone()
        print(f"Quarterdeck referee's table, saved in {url}. Type `help` for the commands, `quit` to leave.",
              file=out)
        await table.status()
        lines = _Lines(table, inp, interactive)
        async for line in lines:
            if line.lower() in ("quit", "exit"):
                break
            try:
                await table.run(line, lines)
            except RulesError as exc:
                print(f"refused: {exc.text}", file=out)
        return 0
    finally:
        await engine.dispose()


async def _choose_game(service: GameService, system_name: str, setup: str | None, text: str | None, new: bool,
                       out: TextIO) -> int:
    """The newest unfinished offline game of the system, unless `new` (or there is none): then a
    new one from the setup."""
    games = await service.lobby.list_games(LOCAL_GUILD)
    unfinished = [g for g in games if g.system == system_name and g.status != "over"]
    if unfinished and not new:
        chosen = unfinished[-1]
        if setup is not None or text is not None:
            print("note: --setup and --file choose a new game: add --new to start one. Resuming.", file=out)
        print(f"Resuming game #{chosen.id} ({chosen.name}); `--new` starts another.", file=out)
        return chosen.id
    # a channel of its own, as every game has: the offline guild's games are never deleted, so the
    # count names a channel no unfinished game holds
    info = await service.referee.create_game(ONLOOKER, f"ref-{len(games) + 1}", system_name, setup or "", text)
    print(f"New game #{info.id} ({info.name}, {info.title}). Dice seed commitment: {info.dice_commitment}", file=out)
    return info.id


def _split_seat(line: str, seats: Sequence[str]) -> tuple[str | None, str]:
    """The seat a `SEAT:` prefix names (a name with spaces too) and the rest of the line."""
    head, sep, rest = line.partition(":")
    if not sep:
        return None, line
    name = head.strip()
    found = next((s for s in seats if s.lower() == name.lower()), None)
    if found is not None:
        return found, rest.strip()
    if name and " " not in name:  # the notation reads it as a seat's name: one no seat has
        raise UnknownName(f"There is no seat {name[:40]!r} at this table.", f"Seats: {', '.join(seats)}.")
    return None, line


@dataclass
class _Table:
    ref: RefereeService
    game_id: int
    out: TextIO

    async def info(self) -> RefInfo:
        return await self.ref.info(self.game_id)

    async def seat_everyone(self) -> None:
        """A local member per seat (again for a seat left free by a start that was cut short)."""
        info = await self.info()
        for i, (seat, user, _) in enumerate(info.seats, 1):
            if user is None:
                await self.ref.join(Actor(f"local:{i}", LOCAL_GUILD), self.game_id, seat, seat)

    async def referee(self) -> str:
        """The referee's seat (the setup's `referee`): every system's view names it."""
        return str((await self.ref.view(ONLOOKER, self.game_id)).referee)

    async def actor(self, seat: str) -> Actor:
        user = next(u for n, u, _ in (await self.info()).seats if n == seat)
        return Actor(user or "", LOCAL_GUILD)

    def say(self, *lines: str) -> None:
        for line in lines:
            print("  " + line, file=self.out)

    async def run(self, line: str, lines: _Lines) -> None:
        info = await self.info()
        seats = [n for n, _, _ in info.seats]
        seat, rest = _split_seat(line, seats)
        word, _, args = rest.partition(" ")
        word, args = word.lower(), args.strip()
        if word == "help":
            print(HELP, file=self.out)
        elif word == "status":
            await self.status()
        elif word == "log":
            await self.log(seat, args)
        elif word == "ship":
            await self.ship(seat, args, seats)
        elif word == "rules":
            await self.rules(args, info.system)
        elif word == "undo":
            outcome = await self.ref.undo(await self.actor(seat or await self.referee()), self.game_id)
            self.report(outcome, None)
        elif word == "secret":
            if args:
                raise ParseError("`secret` takes the order on the next line, where it is not shown.",
                                 f"Type `{seat or 'SEAT'}: secret`, then the order.")
            giver = seat or _awaited(info)
            hidden = await lines.hidden(f"{giver}'s order (not shown): ")
            self.report(await self.ref.submit(await self.actor(giver), self.game_id, hidden), None)
        else:
            giver = seat or _awaited(info)
            self.report(await self.ref.submit(await self.actor(giver), self.game_id, rest), giver)

    def report(self, outcome: RefOutcome, seat: str | None) -> None:
        """What everyone reads, then what only the giving seat (if any) reads besides (its own sealed
        order)."""
        public, mine = outcome.public, (outcome.mine if seat else outcome.public)
        if len(public) == len(mine):  # a line per event: the seat's own reading right after everyone's
            for everyone, own in zip(public, mine, strict=True):
                self.say(everyone, *([f"[{seat} only] {own}"] if own != everyone else []))
        else:
            self.say(*public, *(f"[{seat} only] {x}" for x in mine if x not in public))
        footer = _waiting(outcome.info)
        if footer not in public:  # the account of the last command may say it already (the game's end)
            self.say(footer)

    async def status(self) -> None:
        info, referee = await self.info(), await self.referee()
        seats = ", ".join(n + (" (referee)" if n == referee else "") for n, _, _ in info.seats)
        print(f"Game #{info.id} {info.name} ({info.title}). Seats: {seats}.", file=self.out)
        if info.phase:
            try:
                spec = phase_spec(info.system, info.phase)
                print(f"Turn {info.turn}, {spec.name} ({spec.key}): {spec.prompt}", file=self.out)
            except StopIteration:
                print(f"Turn {info.turn}, phase {info.phase}.", file=self.out)
        print(_waiting(info), file=self.out)

    async def log(self, seat: str | None, args: str) -> None:
        try:
            last = int(args) if args else 30
        except ValueError:
            raise ParseError(f"Expected a number of lines after `log`, got {args[:40]!r}.", "e.g. `log 10`.") from None
        reader = await self.actor(seat) if seat else ONLOOKER
        self.say(*(await self.ref.log(reader, self.game_id, max(1, min(last, 1000))) or ["Nothing has happened yet."]))

    async def ship(self, seat: str | None, args: str, seats: Sequence[str]) -> None:
        words = _words(args)
        if len(words) >= 3 and words[1].lower() == "as":
            named = " ".join(words[2:])  # a seat's name may hold spaces, unquoted as in a prefix
            seat = next((s for s in seats if s.lower() == named.lower()), None)
            if seat is None:
                raise UnknownName(f"There is no seat {named[:40]!r} at this table.", f"Seats: {', '.join(seats)}.")
            words = words[:1]
        if len(words) != 1:
            raise ParseError("Name one ship: `ship NAME [as SEAT]`.", "Quote a name with spaces: `ship \"Le Fier\"`.")
        reader = await self.actor(seat) if seat else ONLOOKER
        sheet = await self.ref.ship_log(reader, self.game_id, words[0])
        # the chat's bold name and underlined headings, as a terminal shows them
        shown = re.sub(r"^__(.*)__$", r"\1:", plain(sheet).replace("**", ""), flags=re.M)
        print(shown, file=self.out)

    async def rules(self, args: str, system_name: str) -> None:
        words = _words(args)
        if len(words) not in (2, 3):
            raise ParseError("A look-up names a table, a row and maybe a column: `rules TABLE ROW [COLUMN]`.",
                             "e.g. `rules fire_results 34 hull`.")
        found = await self.ref.lookup(system_name, words[0], words[1], words[2] if len(words) == 3 else "",
                                      self.game_id)
        self.say(found.replace("**", ""))


class _Lines:
    """The lines typed (or piped), without comments and blanks; at a terminal the prompt names the
    seat an unprefixed line would be given by."""

    def __init__(self, table: _Table, inp: Iterable[str], interactive: bool) -> None:
        self.table, self.inp, self.interactive = table, iter(inp), interactive

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        while True:
            raw = await self._next()
            line = raw.split("#", 1)[0].strip()
            if line:
                return line

    async def _next(self) -> str:
        if not self.interactive:
            try:
                return next(self.inp)
            except StopIteration:
                raise StopAsyncIteration from None
        waiting = (await self.table.info()).waiting
        prompt = f"{waiting[0]}> " if len(waiting) == 1 else "> "
        try:
            return input(prompt)
        except EOFError:
            print(file=self.table.out)
            raise StopAsyncIteration from None

    async def hidden(self, prompt: str) -> str:
        """The next line, not shown as it is typed at a terminal (piped, simply the next line)."""
        if not self.interactive:
            line = next(self.inp, "")
        else:
            try:
                line = getpass.getpass(prompt)
            except EOFError:
                line = ""
        line = line.split("#", 1)[0].strip()
        if not line:
            raise ParseError("No order was given after `secret`.", "Type the order on the next line.")
        return line


def _words(args: str) -> list[str]:
    try:
        return split_words(args)
    except ValueError as exc:
        raise ParseError(f"Unbalanced quotes in {args[:60]!r}: {exc}.") from None


def _awaited(info: RefInfo) -> str:
    if len(info.waiting) == 1:
        return info.waiting[0]
    if info.result:
        raise GameOver(f"The game is over: {info.result}.",
                       "`log` and `ship NAME` still read it; `quarterdeck ref --new` starts another.")
    could = info.waiting or tuple(n for n, _, _ in info.seats)
    now = f"the game waits for {', '.join(info.waiting)}" if info.waiting else "the game waits for no seat now"
    raise ParseError(f"Say which seat gives this line: {now}.", f"Start it with the seat, e.g. `{could[0]}: …`.")


def _waiting(info: RefInfo) -> str:
    if info.result:
        return f"Game over: {info.result}."
    return f"Waiting for {', '.join(info.waiting)}." if info.waiting else "Waiting for nobody."

