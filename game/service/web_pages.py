"""`WebPages`: what the read-only web pages (web/) read of a game or a league, and their addresses.

A page is found by an unguessable token (`secrets.token_urlsafe(16)`, 128 bits) made the first time its
link is asked for and kept for the life of the game or league. Everything a page shows is read here
from a spectator's view only (`view_of(state, None)`, `event_for(e, None)`, the spectator's replay
frames); the seed, the log file and the dice check exist only once the game is over. A server's GM
may list its games' pages on an index page; by default they are unlisted (found by their link only).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from game.account import account_lines
from game.fairness import commitment
from game.model import Phase
from game.names import plain
from game.replay import Frame, frames
from game.service import orders_store
from game.service.audit import Audit
from game.service.authority import Actor, require_gm
from game.service.cache import Bounded
from game.service.clock import ACTION_TEXT, hours_of
from game.service.errors import GameNotFound, OtherSystem
from game.service.leagues import Leagues, Table
from game.service.models import GameRecord, League, WebPage
from game.service.reading import Reading, info_of
from game.service.repository import decode_state
from game.service.results import BoardRead, GameInfo
from game.service.store import GameStore
from game.views import event_for

GAME, LEAGUE = "game", "league"
MAX_ACCOUNT_LINES = 400  # the newest lines of a long game's account; the replay and the log file hold all
MAX_FRAMES = 2_000  # a replay longer than this shows its last frames (a game is a few hundred commands)
MAX_LISTED = 200  # games on a server's index page, unfinished first, newest first
# `names.plain` says a member as @<Discord id>: a page says the name they play under instead
_MEMBER = re.compile(r"@(\d{15,21})\b")


def unmentioned(line: str, names: dict[str, str]) -> str:
    """A plain line with each member's Discord id said as their seat's name (or "a member"): a public
    page shows no Discord ids."""
    return _MEMBER.sub(lambda m: names.get(m[1]) or "a member", line)


@dataclass(frozen=True)
class Target:
    """What a token names."""

    kind: str  # game | league
    id: int
    guild_id: str


@dataclass(frozen=True)
class ClockRead:
    reminder_hours: int
    deadline_hours: int
    on_deadline: str  # what a passed deadline does, in words
    paused: bool


@dataclass(frozen=True)
class Ending:
    """A finished game's proof: the seed (its SHA-256 was published at the start) and every roll checked."""

    seed: str
    commitment: str
    verification: str  # the dice check in words
    verified: bool
    test_dice: bool


@dataclass(frozen=True)
class Spectated:
    """One game as its page shows it, read at one version: never more than a spectator may see."""

    version: int
    board: BoardRead  # the spectator's read (BoardRead.spectator); its seed only once the game is over
    account: tuple[str, ...]  # the newest lines of the whole game's account, as a spectator reads them
    earlier: int  # how many older lines were left out
    clock: ClockRead
    frames: int  # the replay's frame count
    ending: Ending | None


@dataclass(frozen=True)
class LeaguePage:
    table: Table  # the standings, with the league and its current round's pairings
    games: dict[int, str]  # each pairing's game and its page's token


@dataclass(frozen=True)
class Listed:
    info: GameInfo
    token: str


class WebPages:
    def __init__(self, store: GameStore, reading: Reading, audit: Audit, leagues: Leagues) -> None:
        self.store = store
        self.reading = reading
        self.audit = audit
        self.leagues = leagues
        # pages ask at every update of every open page: one read per game version serves them all
        self._spectated: Bounded = Bounded(1_000)
        self._frames: Bounded = Bounded(100)
        self._endings: Bounded = Bounded(200)

    # ------------------------------------------------------------------ addresses

    def on_commit(self, hook: Callable[[int, int], None]) -> None:
        """`hook(game_id, version)` after every commit this process makes (the pages' live updates)."""
        self.store.after_commit(hook)

    async def game_token(self, game_id: int) -> str:
        """The token of the game's page, made on first use."""
        loaded = await self.store.load_any(game_id)
        return await self._token(GAME, game_id, loaded.record.guild_id)

    async def league_token(self, guild_id: str, league: str) -> str:
        info = await self.leagues.show(guild_id, league)
        return await self._token(LEAGUE, info.id, guild_id)

    async def _token(self, kind: str, target: int, guild_id: str) -> str:
        found = await self._token_of(kind, target)
        if found is not None:
            return found
        try:
            async with self.store.repo.session() as s, s.begin():
                s.add(WebPage(token=secrets.token_urlsafe(16), kind=kind, target_id=target, guild_id=guild_id))
        except IntegrityError:  # another request (or process) made it first: theirs stands
            pass
        made = await self._token_of(kind, target)
        assert made is not None
        return made

    async def _token_of(self, kind: str, target: int) -> str | None:
        async with self.store.repo.session() as s:
            q = select(col(WebPage.token)).where(col(WebPage.kind) == kind, col(WebPage.target_id) == target)
            return (await s.execute(q)).scalar_one_or_none()

    async def tokens_of(self, kind: str, targets: Sequence[int]) -> dict[int, str]:
        if not targets:
            return {}
        async with self.store.repo.session() as s:
            q = select(col(WebPage.target_id), col(WebPage.token)).where(
                col(WebPage.kind) == kind, col(WebPage.target_id).in_(list(targets)))
            return {t: tok for t, tok in (await s.execute(q)).all()}

    async def find(self, token: str) -> Target | None:
        if not 16 <= len(token) <= 32:
            return None
        async with self.store.repo.session() as s:
            row = await s.get(WebPage, token)
            return None if row is None else Target(row.kind, row.target_id, row.guild_id)

    # ------------------------------------------------------------------ a server's index

    async def set_listed(self, actor: Actor, listed: bool) -> None:
        """Whether this server's games' pages are listed on its index page (a GM's choice)."""
        require_gm(actor, "list or unlist the server's game pages")
        settings = await self.store.guild_settings(actor.guild_id)
        settings.web_listed = listed
        await self.store.save_guild_settings(settings)

    async def listed(self, guild_id: str) -> bool:
        return (await self.store.guild_settings(guild_id)).web_listed

    async def index(self, guild_id: str) -> list[Listed] | None:
        """The server's Oak & Iron games with their pages, or None when the server does not list them."""
        if not await self.listed(guild_id):
            return None
        async with self.store.repo.session() as s:
            q = (select(col(GameRecord.id)).where(col(GameRecord.guild_id) == guild_id,
                                                  col(GameRecord.system) == "oak_and_iron")
                 .order_by(col(GameRecord.status) == "over", col(GameRecord.id).desc()).limit(MAX_LISTED))
            ids = [i for i in (await s.execute(q)).scalars() if i is not None]
        out = []
        for gid in ids:
            out.append(Listed(await self.info(gid), await self.game_token(gid)))
        return out

    async def info(self, game_id: int) -> GameInfo:
        return info_of(await self.store.load(game_id))

    # ------------------------------------------------------------------ a game's page

    async def version(self, game_id: int) -> int:
        return (await self.store.load(game_id)).record.version

    async def versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The stored version of each game: a page process that did not make the commit learns of it here."""
        if not game_ids:
            return {}
        async with self.store.db_slots, self.store.repo.session() as s:
            q = select(col(GameRecord.id), col(GameRecord.version)).where(col(GameRecord.id).in_(list(game_ids)))
            return {i: v for i, v in (await s.execute(q)).all() if i is not None}

    async def spectate(self, game_id: int) -> Spectated:
        loaded = await self.store.load_any(game_id)
        if loaded.record.system != "oak_and_iron":
            raise OtherSystem("This game is played with the /ref commands: its web page is not offered.")
        version = loaded.record.version
        found: Spectated | None = self._spectated.get((game_id, version))
        if found is not None:
            return found
        board = await self.reading.board(game_id)
        rows = await self.store.repo.events(game_id)
        names = self._names(loaded)
        told = [unmentioned(plain(line), names) for line in account_lines([event_for(e, None) for _, _, e in rows])
                if line]
        shown = tuple(told[-MAX_ACCOUNT_LINES:])
        over = board.spectator.game.phase is Phase.OVER
        found = Spectated(version, board, shown, len(told) - len(shown), await self._clock(loaded.record),
                          len(await self.frames(game_id)), await self.ending(game_id) if over else None)
        self._spectated[(game_id, version)] = found
        return found

    @staticmethod
    def _names(loaded: Any) -> dict[str, str]:
        return {seat.user_id: seat.display_name for seat in loaded.seats if seat.user_id and seat.display_name}

    async def _clock(self, record: GameRecord) -> ClockRead:
        assert record.id is not None
        clock = await orders_store.game_clock(self.store.repo, record.id)
        guild = await self.store.guild_settings(record.guild_id)
        hours = hours_of(clock, guild.reminder_hours, guild.turn_deadline_hours)
        return ClockRead(hours.reminder, hours.deadline, ACTION_TEXT.get(clock.on_deadline, clock.on_deadline),
                         clock.paused)

    async def frames(self, game_id: int) -> list[Frame]:
        """The game told again as a spectator saw it, one frame per command (the last MAX_FRAMES)."""
        loaded = await self.store.load(game_id)
        key = (game_id, loaded.record.version)
        found: list[Frame] | None = self._frames.get(key)
        if found is None:
            log = [(cmd, e) for _, cmd, e in await self.store.repo.events(game_id)]
            made = await self.store.workers.run(frames, decode_state(loaded.record.initial_state), log)
            names = self._names(loaded)
            found = self._frames[key] = [replace(f, caption=tuple(unmentioned(c, names) for c in f.caption))
                                         for f in made[-MAX_FRAMES:]]
        return found

    async def ending(self, game_id: int) -> Ending | None:
        """A finished game's seed and dice check; None before the end (the seed is secret until then)."""
        loaded = await self.store.load(game_id)
        if loaded.state.phase is not Phase.OVER:
            return None
        found: Ending | None = self._endings.get(game_id)
        if found is None:
            check = await self.audit.verify(None, game_id)
            found = self._endings[game_id] = Ending(check.seed, commitment(check.seed),
                                                    check.verification.summary(), check.verification.ok,
                                                    check.test_dice)
        return found

    async def log_file(self, game_id: int) -> dict[str, Any]:
        """A finished game's whole log (`quarterdeck verify --file`); refused before the end."""
        return await self.audit.export_log(None, game_id)

    # ------------------------------------------------------------------ a league's page

    async def league_of(self, league_id: int) -> tuple[str, str]:
        """The league's server and name."""
        async with self.store.repo.session() as s:
            lg = await s.get(League, league_id)
        if lg is None:
            raise GameNotFound("There is no such league.")
        return lg.guild_id, lg.name

    async def league(self, league_id: int) -> LeaguePage:
        guild_id, name = await self.league_of(league_id)
        table = await self.leagues.standings(guild_id, name)
        games = {p.game_id: await self.game_token(p.game_id) for p in table.league.pairings if p.game_id}
        return LeaguePage(table, games)
