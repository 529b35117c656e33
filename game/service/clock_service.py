"""The game clock in the service: per-game settings, a GM's pause, resume and extension, members'
hours and vacations, and what a deadline does when it passes. Every change is committed as a
ClockChanged event in the game's log. GameService's methods of the same names delegate here."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlmodel import col

from game import events as ev
from game.ai.captain import Captain, deciders
from game.dice import derived_number
from game.errors import RulesError
from game.model import Phase
from game.service import orders_store as store
from game.service.authority import Actor, as_seated, require_gm
from game.service.cache import SHARED_TTL
from game.service.clock import ACTION_TEXT, ACTIONS, AWAY_MODES, hours_of, plan_jobs, zone
from game.service.errors import ServiceError
from game.service.models import ScheduledJob, utcnow
from game.standing import passing
from game.views import view_of

if TYPE_CHECKING:
    from game.service.game_service import GameService, Outcome
    from game.service.repository import Loaded

SYSTEM = Actor("clock", "")  # the clock itself, in the log


@dataclass(frozen=True)
class DeadlineResult:
    """What a deadline did: the line for the channel and the outcomes to publish."""

    text: str
    outcomes: tuple[Outcome, ...]


async def clock_plan(svc: GameService, loaded: Loaded, players: list[str]) -> tuple[Any, ...]:
    """Repository.append's `replan` for the players the game now waits for."""
    assert loaded.record.id is not None
    settings = await svc._guild_settings(loaded.record.guild_id)
    users = {s.player: s.user_id for s in loaded.seats if not s.is_ai}
    wanted = sorted({u for p, u in users.items() if u and p in players})
    clock = svc._clocks.get(loaded.record.id)
    # with other processes on the database, one of them may have set a member's hours: they are read
    # again after SHARED_TTL, like the guild's settings. A game's clock changes only with a ClockChanged
    # event, which moves the game's version, and a game read again from the database drops its clock
    # (GameService._load): a plan made from a stale copy fails at its commit and is made again
    now = time.monotonic()
    stale = svc.shared and any(now - svc._hours_read.get(u, 0.0) > SHARED_TTL for u in wanted)
    if clock is None or stale or any(u not in svc._hours for u in wanted):
        clock, found = await store.clocks_for(svc.repo, loaded.record.id, wanted)
        svc._clocks[loaded.record.id] = clock
        svc._hours.update({u: found.get(u) for u in wanted})
        svc._hours_read.update(dict.fromkeys(wanted, now))
    members = {u: h for u in wanted if (h := svc._hours.get(u)) is not None}
    hours = hours_of(clock, settings.reminder_hours, settings.turn_deadline_hours)
    jobs = plan_jobs(utcnow(), players, users, clock, hours, members)
    return players, hours.reminder, hours.deadline, jobs


async def replan(svc: GameService, loaded: Loaded, players: list[str]) -> None:
    assert loaded.record.id is not None
    await svc.repo.replan(loaded.record.id, *(await clock_plan(svc, loaded, players)))


async def log_clock(svc: GameService, game_id: int, actor: Actor, change: str, detail: str,
                    replan_after: bool = True) -> Outcome:
    """Write a change of clock in the game's log; with `replan_after`, plan its jobs afresh."""
    async with svc._lock(game_id):
        loaded = await svc._load(game_id, fresh=True)
        event = ev.ClockChanged(change, actor.user_id if actor is not SYSTEM else "", detail)
        outcome = await svc._commit(loaded, actor, [event], None)
        if replan_after and loaded.state.phase is not Phase.OVER:
            await replan(svc, loaded, sorted(deciders(loaded.state)))
    return outcome


def _gm(svc: GameService, loaded: Loaded, actor: Actor, what: str) -> None:
    require_gm(as_seated(loaded.seats, actor), what)


async def settings(svc: GameService, actor: Actor, game_id: int, reminder_hours: int | None = None,
                   deadline_hours: int | None = None, on_deadline: str | None = None,
                   skip_quiet: bool | None = None) -> Outcome:
    loaded = await svc._load(game_id, actor)
    _gm(svc, loaded, actor, "change a game's clock")
    if on_deadline is not None and on_deadline not in ACTIONS:
        raise RulesError(f"A deadline cannot do {on_deadline[:20]!r}.", f"It can: {', '.join(ACTIONS)}.")
    for h in (reminder_hours, deadline_hours):
        if h is not None and not 1 <= h <= 24 * 30:
            raise RulesError("Hours run from 1 to 720 (30 days).")
    clock = await store.game_clock(svc.repo, game_id)
    if reminder_hours is not None:
        clock.reminder_hours = reminder_hours
    if deadline_hours is not None:
        clock.deadline_hours = deadline_hours
    if on_deadline is not None:
        clock.on_deadline = on_deadline
    if skip_quiet is not None:
        clock.skip_quiet = skip_quiet
    await store.save_clock(svc.repo, clock)
    svc._clocks[game_id] = clock
    guild = await svc._guild_settings(loaded.record.guild_id)
    hours = hours_of(clock, guild.reminder_hours, guild.turn_deadline_hours)
    detail = (f"reminder after {hours.reminder} h, deadline after {hours.deadline} h; at the deadline "
              f"{ACTION_TEXT[clock.on_deadline]}; deadlines {'wait out' if clock.skip_quiet else 'ignore'} quiet hours")
    return await log_clock(svc, game_id, actor, "settings", detail)


async def pause(svc: GameService, actor: Actor, game_id: int, paused: bool) -> Outcome:
    loaded = await svc._load(game_id, actor)
    _gm(svc, loaded, actor, "pause or resume a game")
    clock = await store.game_clock(svc.repo, game_id)
    if clock.paused == paused:
        raise ServiceError(f"The game's clock is already {'paused' if paused else 'running'}.")
    clock.paused = paused
    await store.save_clock(svc.repo, clock)
    svc._clocks[game_id] = clock
    detail = ("the game is paused: no reminders and no deadlines until a GM resumes it" if paused
              else "the game is resumed: the clock starts afresh for whoever it waits for")
    return await log_clock(svc, game_id, actor, "paused" if paused else "resumed", detail)


async def extend(svc: GameService, actor: Actor, game_id: int, hours: int) -> Outcome:
    """Push the pending reminders and deadlines of the game back by `hours`."""
    loaded = await svc._load(game_id, actor)
    _gm(svc, loaded, actor, "extend a deadline")
    if not 1 <= hours <= 24 * 30:
        raise RulesError("An extension runs from 1 to 720 hours.")
    async with svc.repo.session() as s, s.begin():  # row by row: SQLite has no interval arithmetic
        jobs = (await s.execute(select(ScheduledJob).where(
            col(ScheduledJob.game_id) == game_id, col(ScheduledJob.status) == "pending",
            col(ScheduledJob.kind).in_(("reminder", "deadline"))))).scalars().all()
        for job in jobs:
            job.due_at = job.due_at + timedelta(hours=hours)
    due = await svc.repo.next_deadline(game_id)
    when = f" (now <t:{int(due.timestamp())}:f>)" if due is not None else ""
    return await log_clock(svc, game_id, actor, "extended", f"the deadline is extended by {hours} h{when}",
                           replan_after=False)


async def set_hours(svc: GameService, actor: Actor, time_zone: str | None = None, quiet_from: int | None = None,
                    quiet_to: int | None = None) -> str:
    clock = await store.player_clock(svc.repo, actor.user_id)
    if time_zone is not None:
        if zone(time_zone).key != time_zone:
            raise RulesError(f"There is no time zone {time_zone[:40]!r}.", "Use a name like Europe/Paris or UTC.")
        clock.time_zone = time_zone
    for h in (quiet_from, quiet_to):
        if h is not None and not 0 <= h <= 23:
            raise RulesError("Quiet hours are given as hours of the day, 0 to 23.")
    if quiet_from is not None:
        clock.quiet_from = quiet_from
    if quiet_to is not None:
        clock.quiet_to = quiet_to
    await store.save_clock(svc.repo, clock)
    svc._hours[actor.user_id] = clock
    svc._hours_read[actor.user_id] = time.monotonic()
    quiet = (f"quiet {clock.quiet_from}:00–{clock.quiet_to}:00" if clock.quiet_from is not None
             and clock.quiet_to is not None else "no quiet hours")
    return f"{clock.time_zone}, {quiet}"


async def set_away(svc: GameService, actor: Actor, until: datetime | None, mode: str = "stop",
                   substitute: str | None = None) -> list[int]:
    """A vacation (or its end, with `until` None), written in the log of each of the member's games
    that are still going; the clock of each is planned afresh. Answers with those games."""
    if mode not in AWAY_MODES:
        raise RulesError(f"There is no vacation mode {mode[:20]!r}.", f"Modes: {', '.join(AWAY_MODES)}.")
    if mode == "substitute" and not substitute:
        raise RulesError("Name the member who stands in for you.")
    clock = await store.player_clock(svc.repo, actor.user_id)
    clock.away_until, clock.away_mode, clock.substitute = until, mode, substitute if mode == "substitute" else None
    await store.save_clock(svc.repo, clock)
    svc._hours[actor.user_id] = clock
    svc._hours_read[actor.user_id] = time.monotonic()
    who = f"<@{actor.user_id}>" if actor.user_id.isdigit() else actor.user_id
    if until is None:
        detail = f"{who} is back: their clock runs again"
    else:
        what = {"stop": "their clock stops until then", "captain": "the computer captain plays for them",
                "substitute": f"<@{substitute}> is asked to stand in"}[mode]
        detail = f"{who} is away until <t:{int(until.timestamp())}:f>: {what}"
    games = await svc.repo.live_games_of_user(actor.user_id)
    for gid in games:
        await log_clock(svc, gid, Actor(actor.user_id, (await svc._load(gid)).record.guild_id), "away", detail)
    return games


async def on_deadline(svc: GameService, game_id: int, player: str, action: str | None = None) -> DeadlineResult | None:
    """A player's deadline has passed: do what the game says (a GM may act; the computer captain
    plays the late activation; it is passed). None when the game no longer waits for them."""
    loaded = await svc._load(game_id, fresh=True)
    if loaded.state.phase is Phase.OVER or player not in deciders(loaded.state):
        return None
    clock = await store.game_clock(svc.repo, game_id)
    if clock.paused:
        return None
    action = action if action in ACTIONS else clock.on_deadline
    text = f"⌛ Player {player}'s deadline has passed: {ACTION_TEXT[action]}"
    outcomes = [await log_clock(svc, game_id, SYSTEM, "deadline", text[2:], replan_after=False)]
    if action != "gm":
        rules = await svc.rules_for(loaded.record)
        captain = Actor(f"ai:{player}", loaded.record.guild_id)
        for _ in range(20):  # the late activation to its end: its rolls and choices too
            loaded = await svc._load(game_id)
            if player not in deciders(loaded.state) or loaded.state.phase is Phase.OVER:
                break
            judgement = derived_number(loaded.record.dice_seed, f"deadline:{player}:{loaded.record.last_seq}")
            view = view_of(loaded.state, player)
            if action == "captain":
                cmd = await asyncio.to_thread(Captain(player, judgement, rules).choose, view)
            else:
                cmd = await asyncio.to_thread(passing, view, rules, judgement)
            state = loaded.state
            outcomes.append(await svc.submit(captain, game_id, cmd))
            after = (await svc._load(game_id)).state
            mid_activation = after.pending is not None or after.offer is not None or after.choices or (
                after.activation is not None)
            if not mid_activation or after.turn != state.turn:
                break
    return DeadlineResult(text, tuple(outcomes))
