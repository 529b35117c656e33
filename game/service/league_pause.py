"""A GM's pause of a whole league (`/league pause`, `/league resume`): every game of its current
round still being played has its clock stopped (the same pause as a game's, of kind "league", which
only a GM resumes), and when the league resumes its round's deadline moves on by the pause's length
and those games' clocks run again with the time they had left.

A game paused by its players' consent keeps its own pause through the league's: the league's
resume leaves it paused, and a pause by consent never moves the round's deadline (the organiser
decides whether to give the round more time)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update
from sqlmodel import col

from game.service.authority import Actor, require_gm
from game.service.clock_service import Clock, quoted
from game.service.errors import ServiceRefusal
from game.service.league_log import log_action
from game.service.models import League, LeagueGame, utcnow
from game.service.store import GameStore


class LeaguePauseRefused(ServiceRefusal):
    code = "league"


@dataclass(frozen=True)
class LeaguePaused:
    """What a league's pause or resume did: the games whose clocks stopped (or ran again), and the
    round's deadline as it now stands (None while paused)."""

    league: str
    games: tuple[int, ...]
    deadline: datetime | None = None
    closed_on: int | None = None  # the round closed as the league resumed: the game whose outbox posts it


def _aware(when: datetime | None) -> datetime | None:
    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


class LeaguePauses:
    def __init__(self, store: GameStore, clock: Clock, now: Callable[[], datetime] = utcnow,
                 round_over: Callable[[int], Awaitable[int | None]] | None = None) -> None:
        self.store = store
        self.clock = clock
        self.now = now
        # a round whose last game ended during the pause closes as the league resumes (it does not
        # close by itself while paused): the game whose outbox carries the round's post, if it closed
        self.round_over = round_over

    async def holds(self, game_id: int) -> bool:
        """Whether the game is one of a paused league's current round still being played."""
        async with self.store.repo.session() as s:
            q = (select(col(League.id)).join(LeagueGame, col(LeagueGame.league_id) == col(League.id))
                 .where(col(LeagueGame.game_id) == game_id, col(LeagueGame.status) == "playing",
                        col(LeagueGame.round) == col(League.current_round), col(League.status) == "running",
                        col(League.paused_at).is_not(None)))
            return (await s.execute(q)).first() is not None

    async def pause(self, actor: Actor, name: str, reason: str = "") -> LeaguePaused:
        require_gm(actor, "pause a league")
        lg = await self._running(actor.guild_id, name)
        if lg.paused_at is not None:
            raise LeaguePauseRefused(f"{lg.name} is already paused.", "/league resume starts its clocks again.")
        reason = " ".join(reason.split())[:200]
        async with self.store.repo.session() as s, s.begin():
            done = await s.execute(update(League).where(col(League.id) == lg.id, col(League.paused_at).is_(None))
                                   .values(paused_at=self.now(), pause_reason=reason))
            if not done.rowcount:  # type: ignore[attr-defined]
                raise LeaguePauseRefused(f"{lg.name} is already paused.", "/league resume starts its clocks again.")
            await log_action(s, lg.id, actor.user_id, "pause", reason)
        stopped = []
        for game_id in await self._playing(lg):
            if (await self.clock.paused(game_id)).paused:
                continue  # paused by its players already: that pause stays theirs
            await self.clock.stop(actor, game_id, "league", None, reason,
                                  f"the league {quoted(lg.name)} is paused by a GM ({{by}}): no reminders and no deadlines")
            stopped.append(game_id)
        return LeaguePaused(lg.name, tuple(stopped))

    async def resume(self, actor: Actor, name: str) -> LeaguePaused:
        require_gm(actor, "resume a league")
        lg = await self._running(actor.guild_id, name)
        paused_at = _aware(lg.paused_at)
        if paused_at is None:
            raise LeaguePauseRefused(f"{lg.name} is not paused.", "/league pause pauses it.")
        started = _aware(lg.round_started_at)
        moved = started + (self.now() - paused_at) if started is not None else None
        async with self.store.repo.session() as s, s.begin():
            done = await s.execute(update(League).where(col(League.id) == lg.id, col(League.paused_at) == lg.paused_at)
                                   .values(paused_at=None, pause_reason="", round_started_at=moved))
            if not done.rowcount:  # type: ignore[attr-defined]
                raise LeaguePauseRefused(f"{lg.name} is not paused.", "/league pause pauses it.")
            await log_action(s, lg.id, actor.user_id, "resume", "")
        resumed = []
        for game_id in await self._playing(lg):
            clock = await self.clock.paused(game_id)
            if clock.paused and clock.pause_kind == "league":
                await self.clock.resume(actor, game_id, f"the league {quoted(lg.name)} is resumed by a GM ({{by}}): each "
                                                        "clock runs again with the time it had left")
                resumed.append(game_id)
        deadline = moved + timedelta(hours=lg.round_hours) if moved is not None else None
        closed_on = await self.round_over(lg.id) if self.round_over is not None and lg.id is not None else None
        return LeaguePaused(lg.name, tuple(resumed), deadline, closed_on)

    async def _running(self, guild_id: str, name: str) -> League:
        async with self.store.repo.session() as s:
            lg = (await s.execute(select(League).where(col(League.guild_id) == guild_id,
                                                       func.lower(League.name) == " ".join(name.split()).lower())
                                  )).scalars().first()
        if lg is None:
            raise LeaguePauseRefused(f"This server has no league called {name[:64]!r}.", "/league show lists them.")
        if lg.status != "running":
            raise LeaguePauseRefused(f"{lg.name} is not running: only a running league's round pauses.")
        return lg

    async def _playing(self, lg: League) -> list[int]:
        async with self.store.repo.session() as s:
            q = select(col(LeagueGame.game_id)).where(col(LeagueGame.league_id) == lg.id,
                                                 col(LeagueGame.round) == lg.current_round,
                                                 col(LeagueGame.status) == "playing",
                                                 col(LeagueGame.game_id).is_not(None))
            return sorted(int(g) for g in (await s.execute(q)).scalars() if g is not None)
