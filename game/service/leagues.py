"""Leagues and tournaments, stored: registration, rounds of games made from the pairings, results
recorded as each game ends (conceded and timed-out games too), standings and a rating per server.

Every decision is a row (the league, its entrants, each round's pairings with their results, the
ratings), written before it is acted on, so a restart carries on where the league was: a round
whose games were not all made yet is completed by the next GM command, and a game that ended while
its result could not be written is picked up when the round is closed. The pure part (pairing,
tie-breaks, the rating system) is game/league/.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from game.errors import RulesError
from game.league import bracket
from game.league.pairing import round_robin, round_robin_rounds, swiss, swiss_rounds
from game.league.rating import Skill, rate_teams
from game.league.sides import allocate, records
from game.league.standings import Result, StandingRow, standings
from game.model import Game, Phase
from game.names import moment
from game.phases.flow import deciders
from game.service import league_bracket, league_teams
from game.service.authority import Actor, require_gm
from game.service.commands import Commands
from game.service.errors import ServiceError, ServiceRefusal
from game.service.guild_data import GuildData
from game.service.league_claims import change_entrants, claim_pairing, link_game, release_pairing
from game.service.league_log import AUTOMATIC, LoggedAction, actions, log_action
from game.service.league_settings import DEFAULTS, LeagueSettings, describe, of, problem
from game.service.lobby import DRAFTED, Lobby, starting_state
from game.service.models import GameRecord, League, LeagueEntry, LeagueGame, Rating, utcnow
from game.service.posts import LeagueRound, stored
from game.service.reading import Reading
from game.service.store import GameStore
from game.service.writer import stage_posts

if TYPE_CHECKING:
    from game.service.clock_service import Clock
    from game.service.frontend import FrontEnd

log = logging.getLogger(__name__)

FORMATS = ("swiss", "round_robin")
MAX_LEAGUE_NAME = 64
MAX_ROUND_HOURS = 24 * 60  # two months: longer is a typo
MAX_ENTRANTS = 256  # a round then makes 128 games and threads; the pairing search recurses once per pair
PAIRING_TRIES = 5  # joins or drops landing while a round is paired: read the entrants again, this often
SYSTEM = "league"  # who the league acts as when it makes games and ends timed-out ones
Place = Callable[[str], Awaitable[str | None]]  # a game's title -> the thread it is played in (or None)


class LeagueRefused(ServiceRefusal):
    code = "league-refused"


@dataclass(frozen=True)
class EntryInfo:
    member: str
    name: str
    squadron: str
    rating: float  # the ordinal (mu - 3 sigma) in this server; a team's: its members' mean
    dropped: bool = False  # by a GM (/league drop): never paired again
    partner: str = ""  # a team league's second member
    partner_name: str = ""
    waiting: bool = False  # a team whose partner has not joined it yet: not paired
    seed: int = 0  # in the top cut
    named: bool = False  # this join named a new partner for the team (who is then told)

    @property
    def is_ai(self) -> bool:
        return self.member.startswith("ai:")


@dataclass(frozen=True)
class Pairing:
    round: int
    table: int
    a: str
    a_name: str
    b: str | None  # None: a bye
    b_name: str
    game_id: int | None
    thread_id: str | None
    status: str  # pending | making | playing | done
    winner: str | None
    a_points: int
    b_points: int
    reason: str
    forfeited: str = ""  # the sides that forfeited: "", "A", "B" or "AB"
    a_partner: str = ""  # team leagues: the second member of each side
    b_partner: str = ""


@dataclass(frozen=True)
class LeagueInfo:
    id: int
    name: str
    guild_id: str
    channel_id: str
    scenario: str
    size: str
    format: str
    round_hours: int
    rounds: int
    current_round: int
    status: str
    deadline: datetime | None
    entrants: tuple[EntryInfo, ...]
    pairings: tuple[Pairing, ...]  # the current round's (or the round asked for)
    settings: LeagueSettings = DEFAULTS
    paused: bool = False  # a GM paused the league: its round's deadline waits (game/service/league_pause.py)
    top_cut: int = 0  # the bracket's size after the Swiss rounds (0: none)
    teams: bool = False
    stage: str = ""  # the pairings' round's, in the bracket: "semi-finals", "final" …

    @property
    def settings_text(self) -> str:
        return describe(self.settings)

    @property
    def swiss_rounds(self) -> int:
        return self.rounds - bracket.cut_rounds(self.top_cut)


@dataclass(frozen=True)
class Table:
    league: LeagueInfo
    rows: tuple[StandingRow, ...]  # ranked by the Swiss rounds (the bracket ranks its own)
    bracket: tuple[tuple[bracket.Match, ...], ...] = ()  # the top cut's rounds so far
    champion: str | None = None  # the winner of the bracket's final (or of the league, once over)

    @property
    def final(self) -> bool:
        return self.league.status == "over"


@dataclass(frozen=True)
class Notice:
    """A line for one entrant alone (a forfeit they did not choose themselves)."""

    member: str
    text: str


@dataclass(frozen=True)
class RoundReport:
    league: LeagueInfo
    closed: tuple[Pairing, ...]  # the results of the round just closed (timed-out games included)
    started: tuple[Pairing, ...]  # the new round's pairings (empty when the league is over)
    made: tuple[Pairing, ...] = ()  # the games this call made (another GM's command makes the rest)
    notices: tuple[Notice, ...] = ()  # entrants who forfeited a pairing for want of a valid list


@dataclass(frozen=True)
class LateEntry:
    entry: EntryInfo
    first_round: int  # the round they are first paired in
    league: str


@dataclass(frozen=True)
class LogLine:
    action: LoggedAction
    subject_name: str  # the entrant it concerns, by name ("" for none)


@dataclass(frozen=True)
class LogPage:
    league: str
    lines: tuple[LogLine, ...]
    total: int
    page: int
    per_page: int


class _EntrantsChanged(Exception):
    """A join or a drop was committed between reading the entrants and pairing them."""


def _aware(when: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; every time stored here is UTC
    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


class Leagues:
    """The league part of the service. It keeps no state of its own: a front end makes one per call."""

    def __init__(self, store: GameStore, data: GuildData, reading: Reading, commands: Commands, lobby: Lobby,
                 clock: Callable[[], datetime] = utcnow, game_clock: Clock | None = None,
                 front: FrontEnd | None = None) -> None:
        self.store = store
        self.data = data
        self.reading = reading
        self.commands = commands
        self.lobby = lobby
        self.session = store.repo.session
        self.clock = clock
        self.game_clock = game_clock  # sets each new game's clock to the league's
        self.front = front  # with its outbox on, a round closed by itself is posted through it
        # leagues whose round a GM's command in this process is closing: the games it times out end
        # without closing the round by themselves (the command closes it; shared by `at`'s copies)
        self._by_hand: set[int] = set()
        store.when_over(self.game_ended)

    def at(self, clock: Callable[[], datetime]) -> Leagues:
        """The same leagues read at another time (a test's clock); the copy registers no second hook."""
        found = copy.copy(self)
        found.clock = clock
        return found

    # ------------------------------------------------------------------ creating and registering

    async def create(self, actor: Actor, channel_id: str, name: str, scenario: str = "quickstart",
                     scenario_text: str | None = None, size: str = "skirmish", format: str = "swiss",
                     round_hours: int = 72, settings: LeagueSettings = DEFAULTS, top_cut: int = 0,
                     teams: bool = False) -> LeagueInfo:
        require_gm(actor, "create a league")
        wrong = problem(settings)
        if wrong is not None:
            raise LeagueRefused(*wrong)
        name = " ".join(name.split())
        if not 1 <= len(name) <= MAX_LEAGUE_NAME:
            raise LeagueRefused(f"A league needs a name of 1 to {MAX_LEAGUE_NAME} characters.")
        if format not in FORMATS:
            raise LeagueRefused(f"There is no league format {format[:30]!r}.", "Formats: swiss, round_robin.")
        if not 1 <= round_hours <= MAX_ROUND_HOURS:
            raise LeagueRefused(f"A round lasts 1 to {MAX_ROUND_HOURS} hours.")
        if top_cut not in bracket.CUTS:
            raise LeagueRefused(f"A top cut is 2, 4 or 8 entrants (or 0 for none), not {top_cut}.")
        if top_cut and format != "swiss":
            raise LeagueRefused("A top cut follows Swiss rounds: a round robin already meets everyone.",
                                "Create a Swiss league for a top cut.")
        if teams and scenario == "quickstart" and scenario_text is None:
            scenario = "fleet_battle"  # the quick start is one against one; a team league plays fleet battles
        state = starting_state(scenario, scenario_text, size, None, await self.data.rules(actor.guild_id))
        if teams:
            league_teams.check_scenario(state)
        elif len(state.players) != 2:
            raise LeagueRefused("A league's games are between two players; that scenario has "
                                f"{len(state.players)} sides.", "Use the quick start, a drafted game or your own "
                                "two-sided scenario.")
        if state.tutorial:
            raise LeagueRefused("The tutorial is a guided game against the computer captain, not a league's.",
                                "Use the quick start, a drafted game or your own two-sided scenario.")
        if state.prep is not None:  # a drafted scenario (drafted_skirmish, a `drafted = SIZE` file) is a drafted league
            scenario, scenario_text, size = DRAFTED, None, state.prep.size
        if await self._find(actor.guild_id, name) is not None:  # the constraint alone would let "cup" and "Cup" be
            raise LeagueRefused(f"This server already has a league called {name!r}.", "Choose another name.")
        row = League(guild_id=actor.guild_id, channel_id=channel_id, name=name, scenario=scenario[:100],
                     scenario_text=scenario_text or "", size=size if scenario == DRAFTED else "", format=format,
                     round_hours=round_hours, created_by=actor.user_id, auto_close=settings.auto_close,
                     reminder_hours=settings.reminder_hours, deadline_hours=settings.deadline_hours,
                     on_deadline=settings.on_deadline, skip_quiet=settings.skip_quiet, top_cut=top_cut, teams=teams)
        try:
            async with self.session() as s, s.begin():
                s.add(row)
                await s.flush()
                await log_action(s, row.id, actor.user_id, "create",
                                 f"{format.replace('_', ' ')}, {f'drafted {size}' if scenario == DRAFTED else scenario}, "
                                 f"{round_hours} h a round{f'; a top cut of {top_cut}' if top_cut else ''}"
                                 f"{'; teams of two' if teams else ''}; {describe(settings)}", at=self.clock())
        except IntegrityError:
            raise LeagueRefused(f"This server already has a league called {name!r}.", "Choose another name.") from None
        return await self.show(actor.guild_id, name)

    async def join(self, actor: Actor, league: str, display_name: str = "", squadron: str | None = None,
                   ai: bool = False, team: str | None = None, partner: str | None = None,
                   partner_name: str = "") -> EntryInfo:
        """Register the actor (with one of their saved squadrons for a drafted league), or with `ai` a
        computer captain (a GM's choice). In a team league the actor registers a team with a partner, or
        joins the team that named them (docs/leagues.md, "Team leagues")."""
        lg = await self._league(actor.guild_id, league)
        closed = LeagueRefused(f"Registration for {lg.name} has closed: its first round has started.",
                               "In a Swiss league a GM may still enter you with /league late-entry.")
        if lg.status != "registering":
            raise closed
        assert lg.id is not None
        if lg.teams or team or partner:
            if squadron:
                raise LeagueRefused("A team league plays its fleet battle: the squadrons come from the scenario.",
                                    "Register without a squadron.")
            try:
                return await self._join_team(actor, lg, display_name, ai, team, partner, partner_name, closed)
            except IntegrityError:  # a second join of the same member landing at the same moment
                raise LeagueRefused(f"You are already registered in {lg.name}.") from None
        if ai:
            require_gm(actor, "enter a computer captain")
        else:
            mine = next((e for e in await self._entries(lg) if e.member == actor.user_id), None)
            if mine is not None and mine.dropped_at is not None:
                raise LeagueRefused(f"A GM has dropped you from {lg.name}.", "Ask a GM of the server why.")
            squadron = await self._check_squadron(actor, lg, squadron)
        try:
            async with self.session() as s, s.begin():
                # the league's row is locked from here to the commit: the count and the number below
                # are every other join's, finished
                if not await change_entrants(s, lg.id, "registering"):
                    raise closed
                entries = select(func.count()).select_from(LeagueEntry).where(col(LeagueEntry.league_id) == lg.id)
                if (await s.execute(entries.where(col(LeagueEntry.dropped_at).is_(None)))).scalar_one() >= MAX_ENTRANTS:
                    raise LeagueRefused(f"{lg.name} is full: a league takes {MAX_ENTRANTS} entrants.")
                if ai:  # dropped ones keep their number: a number is never given twice in a league
                    n = (await s.execute(entries.where(col(LeagueEntry.member).like("ai:%")))).scalar_one() + 1
                    member, name, squadron = f"ai:{n}", f"Computer captain {n}", None
                else:
                    member, name = actor.user_id, (display_name.strip() or actor.user_id)[:100]
                s.add(LeagueEntry(league_id=lg.id, member=member, name=name, squadron=squadron or ""))
        except IntegrityError:
            raise LeagueRefused(f"You are already registered in {lg.name}.") from None
        return EntryInfo(member, name, squadron or "", (await self._skill(actor.guild_id, member)).ordinal)

    async def _join_team(self, actor: Actor, lg: League, display_name: str, ai: bool, team: str | None,
                         partner: str | None, partner_name: str, closed: LeagueRefused) -> EntryInfo:
        if not lg.teams:
            raise LeagueRefused(f"{lg.name} is not a team league: each player registers alone.",
                                "Register without a team or a partner.")
        name = " ".join((team or "").split())[:MAX_LEAGUE_NAME]
        if ai:
            require_gm(actor, "enter a team of computer captains")
        elif not name:
            raise LeagueRefused(f"{lg.name} is a team league: register a team with its name and your partner.",
                                "/league join team: NAME partner: @member (your partner then joins with "
                                "/league join team: NAME).")
        me = actor.user_id
        named = False
        async with self.session() as s, s.begin():
            if not await change_entrants(s, lg.id, "registering"):  # joins one at a time from here
                raise closed
            entries = list((await s.execute(select(LeagueEntry).where(col(LeagueEntry.league_id) == lg.id))).scalars())
            if not ai and any(e.dropped_at is not None and league_teams.plays_in(e, me) for e in entries):
                raise LeagueRefused(f"A GM has dropped you from {lg.name}.", "Ask a GM of the server why.")
            found = league_teams.find_team(entries, name) if name and not ai else None
            mine = None if ai else league_teams.team_of(entries, me)
            if (found is not None and found.partner == me and not found.partner_joined
                    and (mine is None or not mine.partner_joined)):
                if mine is not None:  # the team they registered themselves, still without a partner, gives way
                    await s.delete(mine)
                found.partner_joined, found.partner_name = True, (display_name.strip() or me)[:100]
                row = found
                logged = ("team-complete", "the partner joined the team: it is complete")
            elif mine is not None and (mine.partner_joined or mine.member != me):
                raise LeagueRefused(f"You are already in team {mine.name[:64]} of {lg.name}.")
            elif mine is None and sum(1 for e in entries if e.dropped_at is None) >= MAX_ENTRANTS:
                raise LeagueRefused(f"{lg.name} is full: a league takes {MAX_ENTRANTS} entrants.")
            elif ai:  # two numbers a team: a number is never given twice in a league
                n = 2 * sum(1 for e in entries if e.member.startswith("ai:")) + 1
                row = LeagueEntry(league_id=lg.id or 0, member=f"ai:{n}", name=f"Computer captains {n} & {n + 1}",
                                  partner=f"ai:{n + 1}", partner_name=f"Computer captain {n + 1}", partner_joined=True)
                logged = ("team", "a team of two computer captains entered")
            else:
                if found is not None and found is not mine:
                    raise LeagueRefused(f"{lg.name} already has a team called {name!r}.", "Choose another name.")
                if not partner or partner == me:
                    raise LeagueRefused("A team is two members: name your partner.",
                                        "/league join team: NAME partner: @member")
                taken = league_teams.team_of(entries, partner)  # only a complete team holds them
                if (taken is not None and taken.partner_joined) or any(e.dropped_at is not None and league_teams.plays_in(e, partner)
                                            for e in entries):
                    raise LeagueRefused("Your partner is already in a team of this league (or was dropped from it).",
                                        "Choose another partner.")
                # a team whose partner has not joined yet is registered again: its name and partner change
                named = mine is None or mine.partner != partner
                row = mine or LeagueEntry(league_id=lg.id or 0, member=me, name=name)
                row.name, row.partner, row.partner_name = name, partner, (partner_name.strip() or partner)[:100]
                # names stay out of the note: the subject and actor are ids, which /privacy pseudonymises
                logged = ("team", "registered the team; its partner is named and has not joined yet" if named
                          else "registered the team again under a new name, with the same partner")
            s.add(row)  # a no-op for a team already in the session
            await s.flush()
            await log_action(s, lg.id, actor.user_id, logged[0], logged[1], subject=row.member, at=self.clock())
        return replace(await self._entry_info(lg, row), named=named)

    async def _entry_info(self, lg: League, e: LeagueEntry) -> EntryInfo:
        skills = await self._skills(lg.guild_id, league_teams.members(e))
        rating = sum(k.ordinal for k in skills.values()) / len(skills)
        return EntryInfo(e.member, e.name, e.squadron, rating, e.dropped_at is not None, e.partner, e.partner_name,
                         not league_teams.complete(e, lg.teams), e.seed)

    async def _check_squadron(self, actor: Actor, lg: League, squadron: str | None) -> str | None:
        if lg.scenario != DRAFTED:
            if squadron:
                raise LeagueRefused("This league plays a scenario: its squadrons come from the scenario.",
                                    "Register without a squadron.")
            return None
        if not squadron:
            raise LeagueRefused(f"{lg.name} plays drafted {lg.size} games: register with one of your saved squadrons.",
                                "Build one with /squadron new, then /league join squadron: NAME.")
        mine = {r.name.casefold(): r for r in await self.store.repo.squadrons_of(actor.guild_id, actor.user_id)}
        found = mine.get(squadron.casefold())
        if found is None:
            raise LeagueRefused(f"You have no saved squadron called {squadron[:64]!r}.", "List yours with /squadron list.")
        if not found.complete or found.size != lg.size:
            raise LeagueRefused(f"{found.name} is not a complete {lg.size} list.",
                                f"Bring a finished {lg.size} squadron (/squadron list shows which are).")
        return found.name

    # ------------------------------------------------------------------ rounds

    async def start(self, actor: Actor, league: str, place: Place | None = None) -> RoundReport:
        """Close registration, fix the number of rounds and begin the first."""
        require_gm(actor, "start a league")
        lg = await self._league(actor.guild_id, league)
        if lg.status != "registering":
            raise LeagueRefused(f"{lg.name} has already started.", "Close a round with /league round.")
        lg, notices = await self._pair_next(actor.guild_id, lg.name, 0, actor.user_id)
        made = await self._made(lg, place)
        info = await self.show(actor.guild_id, lg.name)
        return RoundReport(info, (), info.pairings, made, notices)

    async def next_round(self, actor: Actor, league: str, place: Place | None = None) -> RoundReport:
        """Close the current round and begin the next (or end the league after its last). Games still
        being played once the round's time is up are decided: the side the game waits for concedes;
        a game waiting on both sides (or neither) is a draw."""
        require_gm(actor, "close a league round")
        lg = await self._league(actor.guild_id, league)
        if lg.status != "running":
            raise LeagueRefused(f"{lg.name} is not running.",
                                "Start it with /league start." if lg.status == "registering" else "It is over.")
        if lg.paused_at is not None:  # its round's deadline is moved when it resumes (game/service/league_pause.py)
            raise LeagueRefused(f"{lg.name} is paused.", "/league resume starts its clocks again first.")
        rows = await self._round_rows(lg, lg.current_round)
        if any(r.status in ("pending", "making") for r in rows):
            # a restart (or a refused thread) came between pairing the round and making its games, or
            # another GM's command is making them now: this makes those nobody is making, and the round
            # goes on
            made = await self._made(lg, place)
            info = await self.show(actor.guild_id, lg.name)
            return RoundReport(info, (), info.pairings, made)
        assert lg.id is not None
        self._by_hand.add(lg.id)
        try:
            await self._reconcile(lg, rows)
            rows = await self._round_rows(lg, lg.current_round)
            playing = [r for r in rows if r.status != "done"]
            deadline = self._deadline(lg)
            if playing and deadline is not None and self.clock() < deadline:
                raise LeagueRefused(f"{len(playing)} game{'s' if len(playing) != 1 else ''} of round "
                                    f"{lg.current_round} {'are' if len(playing) != 1 else 'is'} still being played.",
                                    f"The round's time is up {moment(deadline, 'R')}; then this command "
                                    "decides them (a GM can also record a result with /league result).")
            for r in playing:
                await self._time_out(lg, r)
        finally:
            self._by_hand.discard(lg.id)
        closed = tuple(await self._pairings(lg, await self._round_rows(lg, lg.current_round)))
        if lg.current_round >= lg.rounds:
            if not await self._end(lg, actor.user_id):
                raise _under_way(lg, lg.current_round + 1)
            return RoundReport(await self.show(actor.guild_id, lg.name), closed, ())
        lg, notices = await self._pair_next(actor.guild_id, lg.name, lg.current_round, actor.user_id)
        made = await self._made(lg, place)
        info = await self.show(actor.guild_id, lg.name)
        return RoundReport(info, closed, info.pairings, made, notices)

    async def record_result(self, actor: Actor, league: str, table: int, winner: str | None,
                            reason: str = "") -> Pairing:
        """A GM decides a pairing of the current round: `winner` is "A", "B" or None (a draw). The game, if
        it goes on, no longer counts."""
        require_gm(actor, "record a league result")
        lg, row = await self._open_table(actor, league, table)
        if row.b_member is None:
            raise LeagueRefused(f"Table {table} already has its result.")
        member = {"A": row.a_member, "B": row.b_member, None: None}.get(winner, "?")
        if member == "?":
            raise LeagueRefused("The winner is side A, side B, or nobody (a draw).")
        async with self.session() as s, s.begin():
            settled = await self._settle(s, lg, row, member, row.a_points, row.b_points,
                                         (reason.strip() or "recorded by a GM")[:150] + f" ({actor.user_id})")
            if settled:
                await log_action(s, lg.id, actor.user_id, "result", f"round {row.round} table {table}: "
                                 f"{'a draw' if winner is None else f'side {winner} won'}: "
                                 f"{reason.strip() or 'no note'}", at=self.clock())
        found = await self._settled_table(lg, table, settled)
        await self._close_if_done(lg.id, row.game_id)
        return found

    async def forfeit(self, actor: Actor, league: str, table: int, side: str, reason: str = "") -> Pairing:
        """A GM forfeits a pairing of the current round for side "A", "B" or "AB" (both): the other side
        wins (both forfeiting: both lose). A forfeit moves no rating; its game, if it goes on, no longer
        counts, and a side that forfeited alone concedes it."""
        require_gm(actor, "forfeit a league pairing")
        if side not in ("A", "B", "AB"):
            raise LeagueRefused("The side that forfeits is A, B, or both.")
        lg, row = await self._open_table(actor, league, table)
        if row.b_member is None and side != "A":
            raise LeagueRefused(f"Table {table} is a bye: only its side A can forfeit it.")
        note = f"forfeit by a GM: {reason.strip() or 'no reason given'}"[:150] + f" ({actor.user_id})"
        async with self.session() as s, s.begin():
            settled = await self._settle(s, lg, row, None, 0, 0, note, forfeited=side)
            if settled:
                await log_action(s, lg.id, actor.user_id, "forfeit", f"round {row.round} table {table}, side "
                                 f"{'A and B' if side == 'AB' else side}: {reason.strip() or 'no note'}",
                                 at=self.clock())
        log.info("league %s round %s table %s: side %s forfeited by GM %s", lg.id, row.round, table, side, actor.user_id)
        if settled:
            await self._concede_for(lg, row, side)
        found = await self._settled_table(lg, table, settled)
        await self._close_if_done(lg.id, row.game_id)
        return found

    async def drop(self, actor: Actor, league: str, entrant: str, reason: str = "") -> EntryInfo:
        """A GM drops an entrant: never paired again (a round robin keeps their place in its schedule and
        they forfeit each game of it), their unfinished pairing of this round forfeited; the results so
        far stay in the standings, where they are marked as dropped."""
        require_gm(actor, "drop a league entrant")
        lg = await self._league(actor.guild_id, league)
        if lg.status == "over":
            raise LeagueRefused(f"{lg.name} is over.")
        entry = self._entrant(await self._entries(lg), entrant)
        if entry.dropped_at is not None:
            raise LeagueRefused(f"{entry.name} has already been dropped from {lg.name}.")
        open_row = next((r for r in await self._round_rows(lg, lg.current_round)
                         if entry.member in (r.a_member, r.b_member) and r.status != "done"), None)
        if open_row is not None and open_row.status == "making":
            raise LeagueRefused(f"The game of table {open_row.table_no} is being made right now.", "Try again in a moment.")
        why = (reason.strip() or "no reason given")[:150]
        side = "A" if open_row is not None and open_row.a_member == entry.member else "B"
        async with self.session() as s, s.begin():
            if not await change_entrants(s, lg.id, "registering", "running"):
                raise LeagueRefused(f"{lg.name} is over.")
            await s.execute(update(LeagueEntry).where(col(LeagueEntry.id) == entry.id)
                            .values(dropped_at=self.clock(), dropped_by=actor.user_id, drop_reason=why))
            settled = open_row is not None and await self._settle(
                s, lg, open_row, None, 0, 0, f"forfeit: {entry.name[:40]} was dropped by a GM ({actor.user_id})",
                forfeited=side)
            if open_row is not None and not settled:
                now = await s.get(LeagueGame, open_row.id, populate_existing=True)
                if now is not None and now.status == "making":  # claimed since it was read: nothing is dropped
                    raise LeagueRefused(f"The game of table {now.table_no} is being made right now.",
                                        "Try again in a moment.")
            await log_action(s, lg.id, actor.user_id, "drop", why, subject=entry.member, at=self.clock())
        log.info("league %s: entrant %s dropped by GM %s (%s)", lg.id, entry.member, actor.user_id, why)
        if settled and open_row is not None:
            await self._concede_for(lg, open_row, side)
            await self._close_if_done(lg.id, open_row.game_id)
        entry.dropped_at = self.clock()
        return await self._entry_info(lg, entry)

    async def _open_table(self, actor: Actor, league: str, table: int) -> tuple[League, LeagueGame]:
        """A table of the current round that a GM may still decide."""
        lg = await self._league(actor.guild_id, league)
        row = next((r for r in await self._round_rows(lg, lg.current_round) if r.table_no == table), None)
        if lg.status != "running" or row is None:
            raise LeagueRefused(f"Round {lg.current_round} of {lg.name} has no table {table}.",
                                "/league show lists the tables of the round.")
        if actor.user_id in (row.a_member, row.b_member):
            # a GM who plays has a player's rights at their own table (game/service/authority.py)
            raise LeagueRefused("You play at that table: its result is not yours to record.",
                                "Finish or concede the game, or ask another GM.")
        if row.status == "done":
            raise LeagueRefused(f"Table {table} already has its result.")
        return lg, row

    async def _settled_table(self, lg: League, table: int, settled: bool) -> Pairing:
        (p,) = await self._pairings(lg, [r for r in await self._round_rows(lg, lg.current_round) if r.table_no == table])
        if not settled:  # decided (or claimed to be made) since it was read
            raise LeagueRefused(f"The game of table {table} is being made right now.", "Try again in a moment.") \
                if p.status == "making" else LeagueRefused(f"Table {table} already has its result.")
        return p

    async def _concede_for(self, lg: League, row: LeagueGame, forfeited: str) -> None:
        """A side that forfeited alone ends its game, if it is still being played (its result is already
        the forfeit: the game's ending records nothing more)."""
        if row.game_id is None or forfeited not in ("A", "B"):
            return
        state = await self.reading.state_for_audit(row.game_id)
        if state.phase is Phase.OVER:
            return
        try:
            await self.commands.concede(Actor(SYSTEM, lg.guild_id, gm=True), row.game_id,
                                        state.players_of(state.teams[0 if forfeited == "A" else 1])[0])
        except (RulesError, ServiceError) as exc:  # it ended meanwhile, or it cannot be played: nothing to stop
            log.info("league game %s was not conceded after a forfeit: %s", row.game_id, exc.message)

    @staticmethod
    def _entrant(entries: Sequence[LeagueEntry], who: str) -> LeagueEntry:
        """An entrant by member id or name (a name two entrants share names neither); the bot reads a
        mention as the member's id before it asks."""
        key = who.strip().casefold()
        found = ([e for e in entries if key and league_teams.plays_in(e, key)]  # a team by either member
                 or [e for e in entries if e.name.casefold() == key])
        if len(found) != 1:
            raise LeagueRefused(f"{len(found) or 'No'} entrants are called {who[:64]!r}." if found else
                                f"There is no entrant {who[:64]!r}.", "Pick one from the list, or give a mention.")
        return found[0]

    async def _pair_next(self, guild_id: str, name: str, closing: int, by: str,
                         post_on: int | None = None) -> tuple[League, tuple[Notice, ...]]:
        """Pair the round after `closing` (0: the first, which closes registration), from the entrants as
        they stand; read again if a join or a drop came in between. `by` closed it (a GM, or AUTOMATIC);
        with `post_on`, the game whose outbox carries the round's post (a round closed by itself)."""
        for _ in range(PAIRING_TRIES):
            lg = await self._league(guild_id, name)
            if lg.current_round != closing:
                raise _under_way(lg, closing + 1)
            entries = await self._entries(lg)
            if closing == 0:
                n = sum(1 for e in entries if e.dropped_at is None and league_teams.complete(e, lg.teams))
                if n < 2:
                    raise LeagueRefused(f"A league needs at least two {'complete teams' if lg.teams else 'entrants'}.",
                                        "Players register with /league join.")
                lg.rounds = swiss_rounds(n) if lg.format == "swiss" else round_robin_rounds(n)
                lg.top_cut = bracket.cut_size(lg.top_cut, n)  # a smaller league plays a smaller cut
                lg.rounds += bracket.cut_rounds(lg.top_cut)
                lg.status = "running"
            try:
                return lg, await self._pair_round(lg, entries, await self._all_rows(lg), by, post_on)
            except _EntrantsChanged:
                continue
        raise LeagueRefused("The entrants changed while the round was being paired.", "Run the command again.")

    async def _pair_round(self, lg: League, entries: Sequence[LeagueEntry], rows: Sequence[LeagueGame],
                          by: str, post_on: int | None = None) -> tuple[Notice, ...]:
        """The next round's pairings, stored (with the league's new round) before any game is made. An
        entrant who cannot play (dropped, or a drafted list that no longer holds) forfeits at once."""
        number = lg.current_round + 1
        # a team whose partner never joined is not paired: it was never complete
        entries = [e for e in entries if league_teams.complete(e, lg.teams)]
        active = [e.member for e in entries if e.dropped_at is None]
        seeds: dict[str, int] = {}
        if league_bracket.in_bracket(lg, number):
            if number == league_bracket.swiss_rounds_of(lg) + 1:
                ranked = [s.entrant for s in standings([e.member for e in entries], _results(rows))]
                seeded = league_bracket.seeding(lg, ranked, {e.member for e in entries if e.dropped_at is not None})
                seeds = {m: i + 1 for i, m in enumerate(seeded)}
                pairs: list[tuple[str, str]] = league_bracket.first_pairs(seeded)
            else:
                pairs = league_bracket.pairs_after(lg, number, rows, league_bracket.seeds_of(entries))
            bye: str | None = None
        elif lg.format == "round_robin":
            # the schedule was fixed at the start: the dropped keep their places and forfeit
            scheduled = {m for r in rows for m in (r.a_member, r.b_member)} if rows else set(active)
            pairs, bye = round_robin([e.member for e in entries if e.member in scheduled], number)
        else:
            ranked = [s.entrant for s in standings([e.member for e in entries], _results(rows)) if s.entrant in active]
            met = {frozenset((r.a_member, r.b_member)) for r in rows if r.b_member is not None}
            pairs, bye = swiss(ranked, met, {r.a_member for r in rows if r.b_member is None and r.winner == r.a_member})
            # who takes side A: as even a count of sides for each as the pairings allow (game/league/sides.py);
            # a round robin's come with its schedule
            place = {s.entrant: s.rank for s in standings([e.member for e in entries], _results(rows))}
            pairs = allocate(pairs, records((r.a_member, r.b_member) for r in rows
                                            if r.b_member is not None and r.game_id is not None), place)
        unable = {e.member: f"{e.name[:40]} was dropped by a GM" for e in entries if e.dropped_at is not None}
        broken = await self._broken_lists(lg, [e for e in entries if e.dropped_at is None])
        names = {e.member: e.name for e in entries}
        unable |= {m: f"{names[m][:40]} has no valid list" for m in broken}
        made = [LeagueGame(league_id=lg.id or 0, round=number, table_no=i + 1, a_member=a, b_member=b)
                for i, (a, b) in enumerate(pairs)]
        if bye is not None:
            made.append(LeagueGame(league_id=lg.id or 0, round=number, table_no=len(pairs) + 1, a_member=bye,
                                   status="done", winner=bye, reason="a bye", recorded_at=self.clock()))
        notices = []
        for row in made:
            gone = "".join(side for side, m in (("A", row.a_member), ("B", row.b_member)) if m in unable)
            if not gone:
                continue
            row.status, row.forfeited, row.winner = "done", gone, _forfeit_winner(row, gone)
            row.reason = ("forfeit: " + ", ".join(unable[m] for m in (row.a_member, row.b_member) if m in unable))[:200]
            row.recorded_at = self.clock()
            log.info("league %s round %s table %s: %s", lg.id, number, row.table_no, row.reason)
            notices += [Notice(m, f"You forfeit table {row.table_no} of round {number} of {lg.name}: your registered "
                                  f"list {broken[m]!r} is no longer a complete {lg.size} list. Save a complete list "
                                  "under that name (/squadron) before the next round is paired.")
                        for m in (row.a_member, row.b_member) if m in broken]
        async with self.session() as s, s.begin():
            # an UPDATE's result is a CursorResult, which counts the rows it matched
            changed = cast(CursorResult[Any], await s.execute(update(League).where(col(League.id) == lg.id,
                                                           col(League.current_round) == lg.current_round,
                                                           col(League.entry_version) == lg.entry_version)
                                      .values(current_round=number, rounds=lg.rounds, status=lg.status,
                                              round_started_at=self.clock(), top_cut=lg.top_cut)))
            if changed.rowcount != 1:
                now = await s.get(League, lg.id, populate_existing=True)
                if now is None or now.current_round != lg.current_round:
                    raise _under_way(lg, number)
                raise _EntrantsChanged
            for row in made:
                s.add(row)
            for member, seed in seeds.items():  # the bracket's seeds, fixed as it begins
                await s.execute(update(LeagueEntry).where(col(LeagueEntry.league_id) == lg.id,
                                                          col(LeagueEntry.member) == member).values(seed=seed))
            await log_action(s, lg.id, by, "start" if number == 1 else "round",
                             f"registration closed; round 1 of {lg.rounds} paired, {len(active)} entrants" if number == 1
                             else f"round {number - 1} closed; round {number} of {lg.rounds} paired", at=self.clock())
            if seeds:
                await log_action(s, lg.id, by, "seeding", f"the top cut of {lg.top_cut} seeded from the standings: "
                                 + ", ".join(f"{seed}. {names[m][:40]}" for m, seed in seeds.items()), at=self.clock())
            if post_on is not None:
                await self._post_round(s, post_on, LeagueRound(lg.id or 0, number - 1, tuple(n.member for n in notices),
                                                               tuple(n.text for n in notices)))
        lg.current_round = number
        return tuple(notices)

    async def _end(self, lg: League, by: str, post_on: int | None = None) -> bool:
        """The last round closed: the league is over. Whether this caller ended it (once, whoever races)."""
        async with self.session() as s, s.begin():
            done = cast(CursorResult[Any], await s.execute(
                update(League).where(col(League.id) == lg.id, col(League.status) == "running",
                                     col(League.current_round) == lg.current_round).values(status="over")))
            if done.rowcount != 1:
                return False
            await log_action(s, lg.id, by, "round", f"round {lg.current_round} closed; the league is over",
                             at=self.clock())
            if post_on is not None:
                await self._post_round(s, post_on, LeagueRound(lg.id or 0, lg.current_round))
        return True

    async def _post_round(self, s: AsyncSession, game_id: int, post: LeagueRound) -> None:
        """The round's post in the outbox, in the transaction that closed the round (with a front end
        that posts: the bot)."""
        if self.front is None or not self.front.outbox:
            return
        now = self.clock()
        await s.run_sync(lambda sync: stage_posts(sync.connection(), [(game_id, stored(post), now)]))

    async def _close_if_done(self, league_id: int | None, game_id: int | None) -> None:
        """A round whose last game has just ended (or been decided) closes by itself, if its league says
        so: the next round is paired (or the league ends) at once, and the post that tells the channel
        goes out through the game's outbox; the courier makes the new round's games as it delivers it.
        Two games ending at once close the round once: the pairing is a conditional update of the
        league's round, and the second finds it done."""
        if league_id is None or game_id is None or league_id in self._by_hand:
            return
        async with self.session() as s:
            lg = await s.get(League, league_id)
        if lg is None or not lg.auto_close or lg.status != "running" or lg.paused_at is not None:
            return  # a paused league's round waits for the GM's resume (round_over)
        rows = await self._round_rows(lg, lg.current_round)
        if not rows or any(r.status != "done" for r in rows):
            return
        try:
            if lg.current_round >= lg.rounds:
                await self._end(lg, AUTOMATIC, game_id)
            else:
                await self._pair_next(lg.guild_id, lg.name, lg.current_round, AUTOMATIC, game_id)
        except LeagueRefused as exc:  # another game's end (or a GM) closed it first
            log.info("league %s round %s was closed by another: %s", lg.id, lg.current_round, exc.message)

    async def _made(self, lg: League, place: Place | None) -> tuple[Pairing, ...]:
        """Make the game of each pairing of the round still without one, each under a claim (another
        GM's command makes the ones it claimed): in its own thread when `place` gives one. The
        pairings whose games this call made."""
        entries = await self._entries(lg)
        names = {e.member: e.name for e in entries}
        system = Actor(SYSTEM, lg.guild_id, gm=True)
        tables = set()
        for row in await self._round_rows(lg, lg.current_round):
            if row.status not in ("pending", "making") or row.b_member is None:
                continue
            async with self.session() as s, s.begin():
                token = await claim_pairing(s, row.id, self.clock())
            if token is None:
                continue
            title = f"{lg.name} · round {row.round} · {names[row.a_member]} v {names[row.b_member]}"
            try:
                thread = await place(title) if place is not None else None
                channel = lg.channel_id if thread else f"league-{lg.id}-{row.round}-{row.table_no}"
                info = await self.lobby.create_game(system, channel, scenario=lg.scenario,
                                                  scenario_text=lg.scenario_text or None, name=title[:64],
                                                  thread_id=thread, size=lg.size or "skirmish")
            except Exception:
                async with self.session() as s, s.begin():
                    await release_pairing(s, row.id, token)
                raise
            async with self.session() as s, s.begin():
                linked = await link_game(s, row.id, token, info.id)
            if not linked:  # held past the lease and taken over: the other claim's game is the pairing's
                log.warning("league %s table %s: game %s was made under a lapsed claim and is not the pairing's",
                            lg.id, row.table_no, info.id)
                continue
            row.game_id, row.status = info.id, "playing"
            tables.add(row.table_no)
            await self._set_clock(lg, info.id)
            if lg.teams:  # each member of a team takes one of its side's squadrons
                plan = league_teams.seat_plan(await self.reading.state_for_audit(info.id), row, entries)
            else:
                plan = [league_teams.SeatPlan(seat.player, member, names[member], side) for seat, member, side
                        in zip(info.seats, (row.a_member, row.b_member or ""), "AB", strict=True)]
            for seat in plan:
                try:
                    await self._seat(lg, info.id, seat.squadron, seat.member, seat.name)
                except (RulesError, ServiceError) as exc:
                    # their list went between the check and the game (or would not enlist): the pairing
                    # is forfeited rather than leaving a ranked game with a seat anyone could take
                    log.info("league %s table %s: %s forfeits, not seated: %s", lg.id, row.table_no, seat.member,
                             exc.message)
                    async with self.session() as s, s.begin():
                        await self._settle(s, lg, row, None, 0, 0, f"forfeit: {seat.name[:40]} could not be "
                                           f"seated ({exc.message[:100]})", forfeited=seat.side)
                    break
        return tuple(p for p in await self._pairings(lg, await self._round_rows(lg, lg.current_round))
                     if p.table in tables)

    async def _set_clock(self, lg: League, game_id: int) -> None:
        """A new game of the league gets the league's clock (written in the game's log as a GM's
        /clock would be); nothing set, the server's."""
        settings = of(lg)
        if self.game_clock is None or not settings.has_clock:
            return
        await self.game_clock.settings(Actor(SYSTEM, lg.guild_id, gm=True), game_id, settings.reminder_hours,
                                       settings.deadline_hours, settings.on_deadline, settings.skip_quiet)

    async def _broken_lists(self, lg: League, entries: Sequence[LeagueEntry]) -> dict[str, str]:
        """The members of a drafted league who no longer have the complete list they registered, with
        its name: they forfeit (a game is never made with a seat that cannot be filled, and nobody
        holds the round up)."""
        if lg.scenario != DRAFTED:
            return {}
        broken = {}
        for e in entries:
            if e.member.startswith("ai:"):
                continue
            lists = {r.name.casefold(): r for r in await self.store.repo.squadrons_of(lg.guild_id, e.member)}
            found = lists.get(e.squadron.casefold())
            if found is None or not found.complete or found.size != lg.size:
                broken[e.member] = e.squadron
        return broken

    async def _seat(self, lg: League, game_id: int, side: str, member: str, name: str) -> None:
        if member.startswith("ai:"):
            await self.lobby.join(Actor(SYSTEM, lg.guild_id, gm=True), game_id, side, ai=True)
            return
        squadron = await self._entry_squadron(lg, member)
        await self.lobby.join(Actor(member, lg.guild_id), game_id, side, name, squadron=squadron or None)

    async def _time_out(self, lg: League, row: LeagueGame) -> None:
        assert row.game_id is not None
        state = await self.reading.state_for_audit(row.game_id)
        due = sorted(deciders(state)) if state.phase is not Phase.OVER else []
        if len({state.team_of(p) for p in due}) == 1:  # one side (in a fleet battle, one team) to play
            try:
                await self.commands.concede(Actor(SYSTEM, lg.guild_id, gm=True), row.game_id, due[0])
            except RulesError:
                state = await self.reading.state_for_audit(row.game_id)
                if state.phase is not Phase.OVER:
                    raise
                await self._record(row.game_id, state)  # another GM's command ended it a moment ago
                return
            async with self.session() as s, s.begin():  # the game's end recorded the result; say why
                await s.execute(update(LeagueGame).where(col(LeagueGame.id) == row.id)
                                .values(reason=f"timed out: player {state.team_of(due[0])[:8]} had not played"))
            return
        if state.phase is Phase.OVER:
            await self._record(row.game_id, state)
            return
        async with self.session() as s, s.begin():
            await self._settle(s, lg, row, None, *_points(state, row),
                               "timed out with both sides (or neither) to play: a draw")

    async def recover_results(self) -> int:
        """At start: the results of league games that ended while their result could not be written (a
        crash right after the ending's commit, a lost connection) are recorded now, not only when their
        round closes. One query over the pairings still being played whose game is over; how many."""
        async with self.session() as s:
            q = (select(col(LeagueGame.game_id)).join(GameRecord, col(GameRecord.id) == col(LeagueGame.game_id))
                 .where(col(LeagueGame.status) == "playing", col(GameRecord.status) == "over"))
            ended = [gid for gid in (await s.execute(q)).scalars() if gid is not None]
        for game_id in ended:
            await self._record(game_id, await self.reading.state_for_audit(game_id))
        return len(ended)

    async def _reconcile(self, lg: League, rows: Sequence[LeagueGame]) -> None:
        """Results of games that ended while their result could not be written (a crash, a lost
        connection) are recorded now."""
        for r in rows:
            if r.status == "playing" and r.game_id is not None:
                state = await self.reading.state_for_audit(r.game_id)
                if state.phase is Phase.OVER:
                    await self._record(r.game_id, state)

    # ------------------------------------------------------------------ results

    async def _record(self, game_id: int, state: Game) -> int | None:
        """The result of a league game that has just ended (by the rules, a concession or a time-out): the
        league's id, if it was one of a league's (whether or not this call wrote its result)."""
        async with self.session() as s, s.begin():
            row = (await s.execute(select(LeagueGame).where(col(LeagueGame.game_id) == game_id,
                                                            col(LeagueGame.status) == "playing"))).scalars().first()
            if row is None:
                return None
            lg = await s.get(League, row.league_id)
            assert lg is not None
            sides = state.teams  # the players, or in a fleet battle its two teams
            winner = {sides[0]: row.a_member, sides[1]: row.b_member}.get(state.winner or "")
            await self._settle(s, lg, row, winner, *_points(state, row), state.result[:200])
            return lg.id

    async def _settle(self, s: AsyncSession, lg: League, row: LeagueGame, winner: str | None, a_points: int,
                      b_points: int, reason: str, forfeited: str = "") -> bool:
        """Write a result and move both ratings, once: a second writer finds the pairing done (and a
        pairing whose game is being made is left to its maker). A forfeit names the sides that
        forfeited, decides the winner by them, and moves no rating: nothing was played. Whether this
        call wrote it."""
        if forfeited:
            winner = _forfeit_winner(row, forfeited)
        done = cast(CursorResult[Any], await s.execute(update(LeagueGame).where(col(LeagueGame.id) == row.id,
                                                        col(LeagueGame.status).in_(("pending", "playing")))
                               .values(status="done", winner=winner, a_points=a_points, b_points=b_points,
                                       reason=reason[:200], recorded_at=self.clock(), forfeited=forfeited)))
        if done.rowcount != 1:
            return False
        if row.b_member is None or forfeited:
            return True
        entries = {e.member: e for e in (await s.execute(
            select(LeagueEntry).where(col(LeagueEntry.league_id) == lg.id))).scalars()}
        names = {e.member: e.name for e in entries.values()} | {e.partner: e.partner_name for e in entries.values()
                                                                 if e.partner}
        # every member of each side is rated: OpenSkill rates a team as the sum of its members
        sides = [league_teams.members(entries[m]) if m in entries else [m] for m in (row.a_member, row.b_member)]
        olds = [[await s.get(Rating, (lg.guild_id, m)) for m in side] for side in sides]
        skills = [[Skill(o.mu, o.sigma) if o else Skill() for o in old] for old in olds]
        side = "a" if winner == row.a_member else "b" if winner == row.b_member else None
        new_a, new_b = rate_teams(skills[0], skills[1], side)
        for member, old, new in zip([*sides[0], *sides[1]], [*olds[0], *olds[1]], [*new_a, *new_b], strict=True):
            if old is None:
                s.add(Rating(guild_id=lg.guild_id, member=member, name=names.get(member, member), mu=new.mu,
                             sigma=new.sigma, games=1))
            else:
                old.mu, old.sigma, old.games, old.updated_at = new.mu, new.sigma, old.games + 1, utcnow()
                old.name = names.get(member, old.name)
        return True

    # ------------------------------------------------------------------ organisers

    async def late_entry(self, actor: Actor, league: str, member: str | None, display_name: str = "",
                         squadron: str | None = None, ai: bool = False) -> LateEntry:
        """A GM enters a member (or with `ai` a computer captain) in a Swiss league that has started. They
        are paired from the next round; the rounds they missed count nothing (docs/leagues.md)."""
        require_gm(actor, "enter a member late")
        lg = await self._league(actor.guild_id, league)
        if lg.status == "registering":
            raise LeagueRefused(f"{lg.name} has not started: registration is open.",
                                "The member registers with /league join (a GM enters a computer captain with "
                                "/league join ai: True).")
        if lg.status == "over":
            raise LeagueRefused(f"{lg.name} is over.")
        if lg.format == "round_robin":
            raise LeagueRefused(f"{lg.name} is a round robin: its schedule was fixed at the start so that "
                                "everyone meets everyone once, and a late entrant would miss the games already "
                                "played.", "Late entry is for Swiss leagues; enter them in the next league.")
        if lg.teams:
            raise LeagueRefused(f"{lg.name} is a team league: a team is two members who register together, and "
                                "late entry enters one member.", "Enter the team in the next league.")
        assert lg.id is not None
        if not ai:
            if not member or not member.isdigit():
                raise LeagueRefused("Name the member to enter (a mention).", "Or enter a computer captain: ai: True.")
            known = next((e for e in await self._entries(lg) if e.member == member), None)
            if known is not None:
                raise LeagueRefused(f"{known.name} was dropped from {lg.name}: a dropped entrant does not come back."
                                    if known.dropped_at is not None else f"{known.name} is already in {lg.name}.")
            try:
                squadron = await self._check_squadron(Actor(member, actor.guild_id), lg, squadron)
            except LeagueRefused as exc:  # worded for the member; the GM is told whose list it is
                raise LeagueRefused(f"For {(display_name or member)[:40]}: {exc.message}", exc.allowed) from None
        try:
            async with self.session() as s, s.begin():
                # the league's row is locked from here to the commit: a round paired meanwhile is either
                # finished (they start in the round after it) or waits and pairs them
                if not await change_entrants(s, lg.id, "running"):
                    raise LeagueRefused(f"{lg.name} is over.")
                now = await s.get(League, lg.id, populate_existing=True)
                assert now is not None
                if now.top_cut and now.current_round >= league_bracket.swiss_rounds_of(now):
                    # the bracket is seeded from the Swiss standings: a late entrant has no Swiss round left
                    raise LeagueRefused(f"{lg.name} has played its Swiss rounds: its top cut is seeded from them, "
                                        "and a late entrant has no Swiss round left to play.",
                                        "Enter them in the next league.")
                if now.current_round >= now.rounds:
                    raise LeagueRefused(f"{lg.name} is in its last round: there is no round left to pair a late "
                                        "entrant in.")
                entries = select(func.count()).select_from(LeagueEntry).where(col(LeagueEntry.league_id) == lg.id)
                if (await s.execute(entries.where(col(LeagueEntry.dropped_at).is_(None)))).scalar_one() >= MAX_ENTRANTS:
                    raise LeagueRefused(f"{lg.name} is full: a league takes {MAX_ENTRANTS} entrants.")
                if ai:
                    n = (await s.execute(entries.where(col(LeagueEntry.member).like("ai:%")))).scalar_one() + 1
                    member, name, squadron = f"ai:{n}", f"Computer captain {n}", None
                else:
                    assert member is not None
                    name = (" ".join(display_name.split()) or member)[:100]
                s.add(LeagueEntry(league_id=lg.id, member=member, name=name, squadron=squadron or ""))
                first = now.current_round + 1
                await log_action(s, lg.id, actor.user_id, "late-entry",
                                 f"paired from round {first}; "
                                 f"{'round 1 counts' if first == 2 else f'rounds 1 to {first - 1} count'} nothing",
                                 subject=member, at=self.clock())
        except IntegrityError:
            raise LeagueRefused(f"That member is already in {lg.name}.") from None
        log.info("league %s: %s entered late by GM %s, from round %s", lg.id, member, actor.user_id, first)
        entry = EntryInfo(member, name, squadron or "", (await self._skill(actor.guild_id, member)).ordinal)
        return LateEntry(entry, first, lg.name)

    async def settings(self, actor: Actor, league: str, auto_close: bool | None = None,
                       reminder_hours: int | None = None, deadline_hours: int | None = None,
                       on_deadline: str | None = None, skip_quiet: bool | None = None,
                       server_clock: bool = False) -> LeagueInfo:
        """A GM changes the league's settings (None leaves one as it is; `server_clock` gives the games the
        server's clock again). Clock settings apply to the games made after the change."""
        require_gm(actor, "change a league's settings")
        lg = await self._league(actor.guild_id, league)
        if lg.status == "over":
            raise LeagueRefused(f"{lg.name} is over.")
        old = of(lg)
        new = LeagueSettings(old.auto_close) if server_clock else old
        new = new.changed(auto_close=auto_close, reminder_hours=reminder_hours, deadline_hours=deadline_hours,
                          on_deadline=on_deadline, skip_quiet=skip_quiet)
        wrong = problem(new)
        if wrong is not None:
            raise LeagueRefused(*wrong)
        changes = new.differences(old)
        if not changes:
            raise LeagueRefused(f"That changes nothing: {describe(old)}.", "Give a setting with a new value.")
        async with self.session() as s, s.begin():
            await s.execute(update(League).where(col(League.id) == lg.id).values(
                auto_close=new.auto_close, reminder_hours=new.reminder_hours, deadline_hours=new.deadline_hours,
                on_deadline=new.on_deadline, skip_quiet=new.skip_quiet))
            await log_action(s, lg.id, actor.user_id, "settings", "; ".join(changes), at=self.clock())
        if new.auto_close and not old.auto_close:  # a round already finished closes now
            rows = await self._round_rows(lg, lg.current_round)
            await self._close_if_done(lg.id, next((r.game_id for r in rows if r.game_id is not None), None))
        return await self.show(actor.guild_id, lg.name)

    async def action_log(self, guild_id: str, league: str, page: int = 1, per_page: int = 10) -> LogPage:
        """A page of the league's action log, newest first: for anyone in the server to read."""
        lg = await self._league(guild_id, league)
        names = {e.member: e.name for e in await self._entries(lg)}
        async with self.session() as s:
            found, total = await actions(s, lg.id, (max(1, page) - 1) * per_page, per_page)
        return LogPage(lg.name, tuple(LogLine(a, names.get(a.subject, a.subject)) for a in found), total, page,
                       per_page)

    async def round_over(self, league_id: int) -> int | None:
        """As a paused league resumes: its round, if every game of it ended during the pause, closes now
        as it would have then. The game whose outbox carries the round's post (None: nothing closed)."""
        async with self.session() as s:
            lg = await s.get(League, league_id)
        if lg is None:
            return None
        rows = await self._round_rows(lg, lg.current_round)
        last = max((r for r in rows if r.game_id is not None), default=None,
                   key=lambda r: _aware(r.recorded_at) or datetime.min.replace(tzinfo=UTC))
        if last is None:
            return None
        before = lg.current_round, lg.status
        await self._close_if_done(league_id, last.game_id)
        async with self.session() as s:
            now = await s.get(League, league_id)
        return last.game_id if now is not None and (now.current_round, now.status) != before else None

    async def where(self, league_id: int) -> tuple[str, str] | None:
        """The league's server and channel, for a post about it (None: no such league)."""
        async with self.session() as s:
            lg = await s.get(League, league_id)
        return (lg.guild_id, lg.channel_id) if lg is not None else None

    async def continue_round(self, league_id: int, closed: int, place: Place | None = None) -> RoundReport | None:
        """For the post of a round that closed by itself: its results, and the next round's games made
        (those nobody is making yet), as `/league round` would report them. None: no such league."""
        async with self.session() as s:
            lg = await s.get(League, league_id)
        if lg is None:
            return None
        results = tuple(await self._pairings(lg, await self._round_rows(lg, closed)))
        if lg.status == "running" and lg.current_round == closed + 1:
            made = await self._made(lg, place)
            info = await self.show(lg.guild_id, lg.name)
            return RoundReport(info, results, info.pairings, made)
        # the league ended with that round (or has moved on since: a GM's command posted the rest)
        return RoundReport(await self.show(lg.guild_id, lg.name, closed), results, ())

    # ------------------------------------------------------------------ reading

    async def names(self, guild_id: str) -> list[str]:
        async with self.session() as s:
            q = select(col(League.name)).where(col(League.guild_id) == guild_id).order_by(col(League.id).desc())
            return list((await s.execute(q)).scalars())

    async def show(self, guild_id: str, league: str, round: int | None = None) -> LeagueInfo:
        """The league, with the pairings of its current round (or of `round`)."""
        lg = await self._league(guild_id, league)
        assert lg.id is not None
        entries = await self._entries(lg)
        skills = await self._skills(guild_id, [m for e in entries for m in league_teams.members(e)])

        def entry(e: LeagueEntry) -> EntryInfo:
            rating = sum(skills[m].ordinal for m in league_teams.members(e)) / len(league_teams.members(e))
            return EntryInfo(e.member, e.name, e.squadron, rating, e.dropped_at is not None, e.partner,
                             e.partner_name, not league_teams.complete(e, lg.teams), e.seed)

        number = lg.current_round if round is None else round
        rows = await self._round_rows(lg, number)
        stage = (bracket.stage(len(rows)) if lg.status != "registering"
                 and league_bracket.in_bracket(lg, number) else "")
        return LeagueInfo(
            lg.id, lg.name, lg.guild_id, lg.channel_id, lg.scenario, lg.size, lg.format, lg.round_hours, lg.rounds,
            lg.current_round, lg.status, self._deadline(lg), tuple(entry(e) for e in entries),
            tuple(await self._pairings(lg, rows)), of(lg), lg.paused_at is not None, lg.top_cut, lg.teams, stage,
        )

    async def standings(self, guild_id: str, league: str) -> Table:
        """The Swiss (or round robin) standings by their tie-breaks, and the top cut's bracket so far;
        teams whose partner never joined are left out (they were never paired)."""
        info = await self.show(guild_id, league)
        lg = await self._league(guild_id, league)
        rows = [r for r in await self._all_rows(lg) if r.status == "done"]
        names = {e.member: e for e in info.entrants if not e.waiting}
        table = standings(list(names), _results(league_bracket.swiss_rows(lg, rows)))
        shown = league_bracket.shown(lg, await self._entries(lg), await self._all_rows(lg))
        return Table(info, tuple(StandingRow.of(s, names[s.entrant].name, names[s.entrant].rating,
                                                names[s.entrant].dropped) for s in table),
                     tuple(tuple(r) for r in shown), bracket.champion(shown))

    async def game_ended(self, record: GameRecord, state: Game) -> None:
        """Called by the store as any game ends: a league game's result is recorded at once. A failure
        here must not undo the game's ending (it is already committed); the result is picked up when the
        round is closed (`_reconcile`)."""
        if record.id is None:
            return
        try:
            league_id = await self._record(record.id, state)
        except Exception:
            log.exception("the league result of game %s could not be recorded now; it will be when the round closes",
                          record.id)
            return
        try:
            await self._close_if_done(league_id, record.id)
        except Exception:  # the round stays open: a GM's /league round closes it
            log.exception("the league round of game %s could not be closed by itself", record.id)

    async def ranked(self, game_id: int) -> bool:
        """Whether the game is a league game (ranked: its seats change hands only through a GM)."""
        async with self.session() as s:
            found = (await s.execute(select(col(LeagueGame.id)).where(col(LeagueGame.game_id) == game_id))).first()
            return found is not None

    # ------------------------------------------------------------------ internals

    def _deadline(self, lg: League) -> datetime | None:
        started = _aware(lg.round_started_at)
        return started + timedelta(hours=lg.round_hours) if started is not None and lg.status == "running" else None

    async def _find(self, guild_id: str, name: str) -> League | None:
        async with self.session() as s:
            return (await s.execute(select(League).where(col(League.guild_id) == guild_id,
                                                         func.lower(League.name) == " ".join(name.split()).lower())
                                    )).scalars().first()

    async def _league(self, guild_id: str, name: str) -> League:
        found = await self._find(guild_id, name)
        if found is None:
            raise LeagueRefused(f"This server has no league called {name[:64]!r}.", "/league show lists them.")
        return found

    async def _entries(self, lg: League) -> list[LeagueEntry]:
        async with self.session() as s:
            q = select(LeagueEntry).where(col(LeagueEntry.league_id) == lg.id).order_by(col(LeagueEntry.id))
            return list((await s.execute(q)).scalars())

    async def _entry_squadron(self, lg: League, member: str) -> str:
        return next((e.squadron for e in await self._entries(lg) if e.member == member), "")

    async def _round_rows(self, lg: League, number: int) -> list[LeagueGame]:
        async with self.session() as s:
            q = (select(LeagueGame).where(col(LeagueGame.league_id) == lg.id, col(LeagueGame.round) == number)
                 .order_by(col(LeagueGame.table_no)))
            return list((await s.execute(q)).scalars())

    async def _all_rows(self, lg: League) -> list[LeagueGame]:
        async with self.session() as s:
            q = (select(LeagueGame).where(col(LeagueGame.league_id) == lg.id)
                 .order_by(col(LeagueGame.round), col(LeagueGame.table_no)))
            return list((await s.execute(q)).scalars())

    async def _skill(self, guild_id: str, member: str) -> Skill:
        return (await self._skills(guild_id, [member]))[member]

    async def _skills(self, guild_id: str, members: Sequence[str]) -> dict[str, Skill]:
        async with self.session() as s:
            q = select(Rating).where(col(Rating.guild_id) == guild_id, col(Rating.member).in_(list(members)))
            found = {r.member: Skill(r.mu, r.sigma) for r in (await s.execute(q)).scalars()}
        return {m: found.get(m, Skill()) for m in members}

    async def _pairings(self, lg: League, rows: Sequence[LeagueGame]) -> list[Pairing]:
        entries = await self._entries(lg)
        names = {e.member: e.name for e in entries}
        partners = {e.member: e.partner for e in entries}
        threads: dict[int, str | None] = {}
        ids = [r.game_id for r in rows if r.game_id is not None]
        if ids:
            async with self.session() as s:
                q = select(col(GameRecord.id), col(GameRecord.thread_id)).where(col(GameRecord.id).in_(ids))
                threads = {i: t for i, t in (await s.execute(q)).all() if i is not None}
        return [Pairing(r.round, r.table_no, r.a_member, names.get(r.a_member, r.a_member), r.b_member,
                        names.get(r.b_member, r.b_member) if r.b_member else "", r.game_id,
                        threads.get(r.game_id) if r.game_id else None, r.status, r.winner, r.a_points, r.b_points,
                        r.reason, r.forfeited, partners.get(r.a_member, ""),
                        partners.get(r.b_member, "") if r.b_member else "") for r in rows]


def _results(rows: Sequence[LeagueGame]) -> list[Result]:
    return [Result(r.a_member, r.b_member, r.winner, r.a_points, r.b_points,
                   frozenset(m for side, m in (("A", r.a_member), ("B", r.b_member)) if m and side in r.forfeited))
            for r in rows if r.status == "done"]


def _under_way(lg: League, number: int) -> LeagueRefused:
    """What the GM who lost the race to pair a round is told."""
    return LeagueRefused(f"Round {number} of {lg.name} is already under way: another GM has just paired it.",
                         "/league show lists its tables.")


def _forfeit_winner(row: LeagueGame, forfeited: str) -> str | None:
    """The side that did not forfeit wins; when both did (or a bye was forfeited), nobody does."""
    if forfeited == "A":
        return row.b_member
    return row.a_member if forfeited == "B" else None


def _points(state: Game, row: LeagueGame) -> tuple[int, int]:
    """The Strike Points each side had suffered when the game ended (none counted yet: 0)."""
    points = dict(state.strike_points)
    a, b = (sum(points.get(p, 0) for p in state.players_of(side)) for side in state.teams[:2])
    return a, b
