"""A captain's record (/captain): their finished games in one server or in every server, read from the
event logs (game/record.py does the arithmetic), with the categories they hid left out for others.

Each finished game's figures are computed once and kept by game id (a finished game never changes:
a rebuild from its log gives the same figures), and a member's record is kept by the set of games
it was made from, so a game that ends (or is purged) makes a new record without anything to clear;
the hook on a game's end computes that game's figures at once, while its log is fresh in mind.
Only finished games count: a game in progress keeps its seed and hands secret, and its dice say
something about them. Dice luck counts only games whose dice verify against the revealed seed.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlmodel import col

from game.apply import apply
from game.fairness import commitment, verify_log
from game.league.rating import Skill, rate
from game.model import Game, Phase
from game.record import DiceTally, Luck, PlayerGame, Turnout, game_figures, luck, turnout
from game.service.errors import ServiceRefusal
from game.service.models import EventRecord, GameRecord, League, LeagueGame, RecordPrivacy, Seat, utcnow
from game.service.repository import decode_event, decode_state
from game.service.store import GameStore
from game.systems import OAK_AND_IRON

CATEGORIES = ("results", "rating", "reliability", "luck", "rivals", "ships")
CACHED_GAMES = 2000
CACHED_RECORDS = 500
Mark = tuple[str, tuple[tuple[str, str, str], ...]]  # a game's creation time and its seats


class RecordRefused(ServiceRefusal):
    code = "record-refused"


@dataclass(frozen=True)
class GameSummary:
    """What a finished game gives every record it is part of."""

    guild_id: str
    figures: tuple[PlayerGame, ...]
    names: tuple[tuple[str, str], ...]  # member -> the name they played under
    turnout: tuple[tuple[str, Turnout], ...]
    verified: bool  # its dice recompute from the revealed seed (and were not typed in by testers)


@dataclass(frozen=True)
class Rival:
    member: str
    name: str
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class CaptainRecord:
    """A record as one viewer may see it: a hidden category is None (or empty) unless the viewer is
    the member, and `hidden` then lists what they hid (the member sees it marked)."""

    member: str
    name: str
    scope: str  # server | all
    hidden: frozenset[str]
    games: int | None = None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rating: float | None = None  # the ordinal in this server (server scope only)
    history: tuple[float, ...] = ()  # the ordinal after each ranked game, oldest first
    played: int | None = None
    covered: int = 0
    median_response: float | None = None  # seconds
    hits: Luck | None = None
    tests: Luck | None = None
    rivals: tuple[Rival, ...] | None = None
    favourite_ships: tuple[tuple[str, int], ...] | None = None
    sunk: int = 0
    captured: int = 0
    lost: int = 0
    shown: frozenset[str] = field(default_factory=frozenset)


class Records:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.session = store.repo.session
        self._games: OrderedDict[int, tuple[Mark, GameSummary]] = OrderedDict()
        self._records: OrderedDict[tuple[str, str, frozenset[tuple[int, Mark]]], CaptainRecord] = OrderedDict()
        store.when_over(self._game_ended)

    async def _game_ended(self, record: GameRecord, state: Game) -> None:
        if record.id is not None and record.system == OAK_AND_IRON.name:
            await self._summary(record)

    # ------------------------------------------------------------------ privacy

    async def hidden(self, member: str) -> frozenset[str]:
        async with self.session() as s:
            row = await s.get(RecordPrivacy, member)
        return frozenset() if row is None else frozenset(c for c in row.hidden.split(",") if c)

    async def set_hidden(self, member: str, category: str, hide: bool) -> frozenset[str]:
        """Hide (or show again) one category of the member's record from everyone else."""
        if category not in CATEGORIES:
            raise RecordRefused(f"There is no category {category!r} in a record.", f"Choose one of {', '.join(CATEGORIES)}.")
        async with self.session() as s, s.begin():
            row = await s.get(RecordPrivacy, member)
            now = set() if row is None else {c for c in row.hidden.split(",") if c}
            now = now | {category} if hide else now - {category}
            text = ",".join(c for c in CATEGORIES if c in now)
            if row is None:
                s.add(RecordPrivacy(user_id=member, hidden=text))
            else:
                row.hidden, row.updated_at = text, utcnow()
        return frozenset(now)

    # ------------------------------------------------------------------ reading

    async def record(self, viewer: str, member: str, guild_id: str | None) -> CaptainRecord:
        """The member's record in one server (guild_id) or, for themselves only, in every server."""
        if guild_id is None and viewer != member:
            # which other servers a member plays in is theirs to tell
            raise RecordRefused("A record across every server is shown only to its own captain.",
                                "Ask for this server's record, or ask them to share theirs.")
        hidden = await self.hidden(member)
        games = await self._finished(member, guild_id)
        key = (member, guild_id or "", frozenset(games.items()))
        full = self._records.get(key)
        if full is None:
            summaries = [await self._summary_of(i, mark) for i, mark in sorted(games.items())]
            full = await self._build(member, guild_id, [s for s in summaries if s is not None])
            self._records[key] = full
            while len(self._records) > CACHED_RECORDS:
                self._records.popitem(last=False)
        seen = _as_seen(full, hidden, viewer == member)
        if viewer != member and seen.rivals:
            # a head-to-head is half the rival's: one who hid theirs is not listed to a third, or
            # their results could be read back from the records of everyone they played
            private = await self._hiding("rivals", [r.member for r in seen.rivals if r.member != viewer])
            seen = _replace(seen, rivals=tuple(r for r in seen.rivals if r.member not in private))
        return seen

    async def _hiding(self, category: str, members: Sequence[str]) -> set[str]:
        """Those of `members` who hid `category`."""
        if not members:
            return set()
        async with self.session() as s:
            rows = (await s.execute(select(RecordPrivacy).where(col(RecordPrivacy.user_id).in_(members)))).scalars()
            return {r.user_id for r in rows if category in r.hidden.split(",")}

    async def _finished(self, member: str, guild_id: str | None) -> dict[int, Mark]:
        """The member's finished games, each with its mark: when it was made and who holds its seats.
        A figure kept under another mark is stale (a member forgotten by /privacy delete, a seat handed
        over, an id used again after a purge) and is computed afresh."""
        mine = (select(col(GameRecord.id)).join(Seat, col(Seat.game_id) == col(GameRecord.id))
                .where(col(Seat.user_id) == member, col(GameRecord.status) == "over",
                       col(GameRecord.system) == OAK_AND_IRON.name))
        if guild_id is not None:
            mine = mine.where(col(GameRecord.guild_id) == guild_id)
        q = (select(col(GameRecord.id), col(GameRecord.created_at), col(Seat.player), col(Seat.user_id),
                    col(Seat.display_name)).join(Seat, col(Seat.game_id) == col(GameRecord.id))
             .where(col(GameRecord.id).in_(mine.scalar_subquery())))
        seats: dict[int | None, list[tuple[str, str, str]]] = {}
        made: dict[int | None, str] = {}
        async with self.session() as s:
            for gid, created, player, user, name in (await s.execute(q)).all():
                made[gid] = _made(created)
                seats.setdefault(gid, []).append((player, user or "", name))
        return {gid: (made[gid], tuple(sorted(held))) for gid, held in seats.items() if gid is not None}

    async def _summary_of(self, game_id: int, mark: Mark) -> GameSummary | None:
        kept = self._games.get(game_id)
        if kept is not None and kept[0] == mark:
            return kept[1]
        async with self.session() as s:
            record = await s.get(GameRecord, game_id)
        return None if record is None else await self._summary(record, mark)

    async def _summary(self, record: GameRecord, mark: Mark | None = None) -> GameSummary | None:
        assert record.id is not None
        async with self.session() as s:
            seats = list((await s.execute(select(Seat).where(col(Seat.game_id) == record.id))).scalars())
            rows = (await s.execute(select(col(EventRecord.command), col(EventRecord.actor), col(EventRecord.created_at),
                                           col(EventRecord.payload)).where(col(EventRecord.game_id) == record.id)
                                    .order_by(col(EventRecord.seq)))).all()
        initial = decode_state(record.initial_state)
        events = [(cmd, actor, when, decode_event(payload)) for cmd, actor, when, payload in rows]
        final = initial
        for *_, e in events:
            final = apply(final, e)
        if final.phase is not Phase.OVER:
            return None  # never a game still in progress, whatever its row says
        rules = await self.store.rules_for(record)
        check = await self.store.workers.run(verify_log, initial, [(c, e) for c, _, _, e in events], record.dice_seed,
                                             rules, commitment(record.dice_seed), thread=True)
        by_player = {seat.player: seat.user_id for seat in seats if seat.user_id}
        summary = GameSummary(
            record.guild_id,
            tuple(game_figures(initial, final, (e for *_, e in events), by_player, rules.die)),
            tuple((seat.user_id, seat.display_name or seat.user_id) for seat in seats if seat.user_id),
            tuple(sorted(turnout(events, by_player).items())),
            check.ok and not check.unrecorded and not initial.test_dice and not final.test_dice)
        if mark is None:
            mark = (_made(record.created_at),
                    tuple(sorted((seat.player, seat.user_id or "", seat.display_name) for seat in seats)))
        self._games[record.id] = (mark, summary)
        while len(self._games) > CACHED_GAMES:
            self._games.popitem(last=False)
        return summary

    async def _build(self, member: str, guild_id: str | None, games: Sequence[GameSummary]) -> CaptainRecord:
        mine = [(g, f) for g in games for f in g.figures if f.member == member]
        names = {m: n for g in games for m, n in g.names}
        results = Counter(f.result for _, f in mine)
        hits, tests = DiceTally(), DiceTally()
        for g, f in mine:
            if g.verified:
                hits, tests = hits.merge(f.hits), tests.merge(f.tests)
        turns = [t for g in games for m, t in g.turnout if m == member]
        answers = [r for t in turns for r in t.responses]
        rivals: dict[str, Counter[str]] = {}
        for _, f in mine:
            for o in f.opponents:
                rivals.setdefault(o, Counter())[f.result] += 1
        ships = Counter(c for _, f in mine for c in f.ships)
        rating, history = (None, ()) if guild_id is None else await self._rating(member, guild_id)
        return CaptainRecord(
            member, names.get(member, member), "all" if guild_id is None else "server", frozenset(),
            games=len(mine), wins=results["win"], draws=results["draw"], losses=results["loss"],
            rating=rating, history=history,
            played=sum(t.played for t in turns), covered=sum(t.covered for t in turns),
            median_response=statistics.median(answers) if answers else None,
            hits=luck(hits), tests=luck(tests),
            rivals=tuple(sorted((Rival(o, names.get(o, o), c["win"], c["draw"], c["loss"]) for o, c in rivals.items()),
                                key=lambda r: (-(r.wins + r.draws + r.losses), r.name))),
            favourite_ships=tuple(sorted(ships.items(), key=lambda kv: (-kv[1], kv[0]))[:3]),
            sunk=sum(f.sunk for _, f in mine), captured=sum(f.captured for _, f in mine),
            lost=sum(f.lost for _, f in mine), shown=frozenset(CATEGORIES))

    async def _rating(self, member: str, guild_id: str) -> tuple[float | None, tuple[float, ...]]:
        """The member's ordinal after each ranked game in the server, by playing the server's league
        results again in the order they were recorded (the same rule as Leagues._settle), so the
        history needs no table of its own and always ends at the rating the tables show."""
        async with self.session() as s:
            rows = (await s.execute(select(LeagueGame).join(League, col(League.id) == col(LeagueGame.league_id))
                                    .where(col(League.guild_id) == guild_id, col(LeagueGame.status) == "done",
                                           col(LeagueGame.b_member).is_not(None), col(LeagueGame.forfeited) == "")
                                    .order_by(col(LeagueGame.recorded_at), col(LeagueGame.id)))).scalars().all()
        skills: dict[str, Skill] = {}
        history: list[float] = []
        for row in rows:
            assert row.b_member is not None
            a, b = skills.get(row.a_member, Skill()), skills.get(row.b_member, Skill())
            side = "a" if row.winner == row.a_member else "b" if row.winner == row.b_member else None
            skills[row.a_member], skills[row.b_member] = rate(a, b, side)
            if member in (row.a_member, row.b_member):
                history.append(skills[member].ordinal)
        return (history[-1] if history else None), tuple(history)


def _made(when: datetime) -> str:
    # SQLite hands back the time without its zone, a record still in memory has it: both are UTC
    return when.replace(tzinfo=None).isoformat()


def _as_seen(full: CaptainRecord, hidden: frozenset[str], own: bool) -> CaptainRecord:
    """The record with what the viewer may not see taken out (the member sees everything)."""
    if own:
        return _replace(full, hidden=hidden)
    out = _replace(full, hidden=hidden, shown=full.shown - hidden)
    blank: dict[str, dict[str, object]] = {
        "results": {"games": None, "wins": 0, "draws": 0, "losses": 0},
        "rating": {"rating": None, "history": ()},
        "reliability": {"played": None, "covered": 0, "median_response": None},
        "luck": {"hits": None, "tests": None},
        "rivals": {"rivals": None},
        "ships": {"favourite_ships": None, "sunk": 0, "captured": 0, "lost": 0},
    }
    for category in hidden:
        out = _replace(out, **blank.get(category, {}))
    return out


def _replace(record: CaptainRecord, **changes: object) -> CaptainRecord:
    return dataclasses.replace(record, **changes)  # type: ignore[arg-type]


__all__ = ["CATEGORIES", "CaptainRecord", "GameSummary", "RecordRefused", "Records", "Rival"]
