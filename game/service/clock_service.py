"""The game clock in the service: per-game settings, a GM's pause, resume and extension, members'
hours and vacations, and what a deadline does when it passes. Every change is committed as a
ClockChanged event in the game's log. GameService's methods of the same names delegate here."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from game import events as ev
from game.ai.captain import Captain
from game.dice import derived_number
from game.errors import RulesError
from game.names import mention
from game.service import orders_store as store
from game.service.authority import Actor, as_seated, require_gm
from game.service.cache import SHARED_TTL
from game.service.clock import ACTION_TEXT, ACTIONS, AWAY_MODES, hours_of, plan_wait, reminder_text, zone
from game.service.decision import (
    Decision,
    Retime,
    Wait,
    changed,
    current_waits,
    decode_waits,
    encode_waits,
    keep,
    lengthen,
    restart,
    waits_after,
)
from game.service.errors import AlreadyDecided, OtherSystem, ServiceError
from game.service.models import ScheduledJob, utcnow
from game.service.scheduler import Job
from game.service.writer import PlannedJob, VersionConflict
from game.standing import passing
from game.views import view_of

if TYPE_CHECKING:
    from game.model import Game
    from game.service.game_service import GameService, Outcome
    from game.service.repository import Loaded

SYSTEM = Actor("clock", "")  # the clock itself, in the log


@dataclass(frozen=True)
class DeadlineResult:
    """What a deadline did: the line for the channel and the outcomes to publish."""

    text: str
    outcomes: tuple[Outcome, ...]


async def clock_plan(svc: GameService, loaded: Loaded, waits: Mapping[str, Wait],
                     sides: Sequence[str]) -> tuple[list[str], list[PlannedJob]]:
    """Repository.append's `replan`: these sides' jobs, each from the side's wait (its holder, when its
    clock started, a GM's extension), the game's clock and the holder's hours, naming its decision."""
    assert loaded.record.id is not None
    settings = await svc._guild_settings(loaded.record.guild_id)
    wanted = sorted({w.holder for p in sides if (w := waits.get(p)) is not None and w.holder
                     and not w.holder.startswith("ai:")})
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
    hours = hours_of(clock, settings.reminder_hours, settings.turn_deadline_hours)
    at = utcnow()
    jobs = [(kind, due, payload, side, wait.holder, wait.since)
            for side in sides if (wait := waits.get(side)) is not None
            for kind, due, payload in plan_wait(at, side, wait, clock, hours, svc._hours.get(wait.holder or ""))]
    return list(sides), jobs


async def plan_after(svc: GameService, loaded: Loaded, new_state: Game, position: int, retime: Retime | None
                     ) -> tuple[str | None, tuple[list[str], list[PlannedJob]] | None]:
    """What a command (its last event at `position`) writes of the clock: the waits, if they changed,
    and the plans of the sides whose wait began, ended or was re-timed (every side's, with `retime`).
    Nobody else's plan is touched: an opponent's move never re-times a wait that goes on."""
    stored = decode_waits(loaded.record.waits)
    # the stored holders, not the seats: a hand-over's command has already put the new holder in them
    held = current_waits(loaded.record.waits, loaded.state, loaded.seats, loaded.record.updated_at, False)
    waits = waits_after(held, loaded.state, new_state, loaded.seats, position, utcnow())
    sides = changed(stored, waits)
    if retime is not None:
        waits, sides = retime(waits), sorted({*stored, *waits})
    if not sides:
        return None, None
    return encode_waits(waits), await clock_plan(svc, loaded, waits, sides)


async def plan_afresh(svc: GameService, game_id: int) -> None:
    """Plan every side's clock again outside a command (the game began; a member's hours changed; a
    job from before jobs named their decision fell due): the waits as stored, a side waited on
    without one beginning its wait now."""
    async with svc._lock(game_id):
        for attempt in range(3):
            loaded = await svc._load(game_id, fresh=attempt > 0)
            stored = decode_waits(loaded.record.waits)
            waits = waits_after(svc._waits(loaded), loaded.state, loaded.state, loaded.seats, loaded.record.last_seq,
                                utcnow())
            sides, jobs = await clock_plan(svc, loaded, waits, sorted({*stored, *waits}))
            try:
                await svc.repo.replan(loaded.record, sides, jobs, encode_waits(waits) if changed(stored, waits) else None)
                return
            except VersionConflict:
                svc._cache.pop(game_id, None)  # a command came first: it planned what it changed


async def log_clock(svc: GameService, game_id: int, actor: Actor, change: str, detail: str,
                    retime: Retime | None = None, expect: Decision | None = None) -> Outcome:
    """Write a change of clock in the game's log; with `retime`, the waits it re-times and every side's
    plan made again, in the same transaction. With `expect`, only while the game still waits on that
    decision (AlreadyDecided otherwise)."""
    async with svc._lock(game_id):
        loaded = await svc._load(game_id, fresh=True)
        if expect is not None:
            svc._require_waiting(loaded, expect)
        event = ev.ClockChanged(change, actor.user_id if actor is not SYSTEM else "", detail)
        return await svc._commit(loaded, actor, [event], None, retime=retime)


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
    return await log_clock(svc, game_id, actor, "settings", detail, retime=restart(utcnow()))


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
    return await log_clock(svc, game_id, actor, "paused" if paused else "resumed", detail,
                           retime=keep if paused else restart(utcnow()))


async def extend(svc: GameService, actor: Actor, game_id: int, hours: int) -> Outcome:
    """Give every side the game waits on `hours` more: the extension belongs to the decision each waits
    on, and holds (re-planned with it) until that wait ends."""
    loaded = await svc._load(game_id, actor)
    _gm(svc, loaded, actor, "extend a deadline")
    if not 1 <= hours <= 24 * 30:
        raise RulesError("An extension runs from 1 to 720 hours.")
    due = await svc.repo.next_deadline(game_id)
    when = f" (now <t:{int((due + timedelta(hours=hours)).timestamp())}:f>)" if due is not None else ""
    return await log_clock(svc, game_id, actor, "extended", f"the deadline is extended by {hours} h{when}",
                           retime=lengthen(hours))


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
    for gid in await svc.repo.live_games_of_user(actor.user_id):  # the reminders and deadlines keep new hours
        await plan_afresh(svc, gid)
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
    who = mention(actor.user_id)
    if until is None:
        detail = f"{who} is back: their clock runs again"
    else:
        what = {"stop": "their clock stops until then", "captain": "the computer captain plays for them",
                "substitute": f"<@{substitute}> is asked to stand in"}[mode]
        detail = f"{who} is away until <t:{int(until.timestamp())}:f>: {what}"
    games = await svc.repo.live_games_of_user(actor.user_id)
    for gid in games:  # the member's own waits start again (as they leave, and as they come back)
        await log_clock(svc, gid, Actor(actor.user_id, (await svc._load(gid)).record.guild_id), "away", detail,
                        retime=restart(utcnow(), actor.user_id))
    return games


def decision_of_job(job: ScheduledJob | Job) -> Decision | None:
    """The decision a clock job was planned for (None: planned before jobs named one)."""
    if job.game_id is None or job.player is None or job.since is None:
        return None
    return Decision(job.game_id, job.player, job.holder, job.since)


@dataclass(frozen=True)
class Reminder:
    """Whom a reminder pings, and whether they stand in for the side's player (a vacation's substitute)."""

    user: str
    text: str
    stand_in: bool


async def due_reminder(svc: GameService, job: ScheduledJob | Job) -> Reminder | None:
    """A reminder fell due: None unless the game still waits on the decision it was planned for and its
    clock runs (another process may have paused it). It pings whom the plan named for that holder."""
    if job.game_id is None:
        return None
    payload = json.loads(job.payload)
    text = reminder_text(payload)
    decision = decision_of_job(job)
    try:
        loaded = await svc._load(job.game_id, fresh=True)
    except OtherSystem:  # a referee assistant's game: the same check, over the waits it stores
        if decision is None:  # planned before its jobs named their decision: the seat's player
            info = await svc.info(job.game_id)
            user = next((u for p, u, _, ai in info.seats if p == payload.get("player") and not ai), None)
            return Reminder(user, text, False) if user else None
        holder = await svc.referee.waiting_holder(decision)
        return Reminder(holder, text, False) if holder and holder.isdigit() else None
    if decision is None:
        await plan_afresh(svc, job.game_id)
        return None
    if not svc._is_waiting(loaded, decision) or (await store.game_clock(svc.repo, job.game_id)).paused:
        return None
    user = payload.get("user") or decision.holder
    if not user or not str(user).isdigit():
        return None
    return Reminder(str(user), text, bool(payload.get("stand_in")))


async def due_deadline(svc: GameService, job: ScheduledJob | Job) -> DeadlineResult | None:
    """A deadline job fell due: what the game's clock says, if the game still waits on its decision."""
    if job.game_id is None:
        return None
    decision = decision_of_job(job)
    if decision is None:
        await plan_afresh(svc, job.game_id)  # the game's sides get jobs that name their decisions
        return None
    return await on_deadline(svc, decision, json.loads(job.payload).get("action"))


async def on_deadline(svc: GameService, decision: Decision, action: str | None = None) -> DeadlineResult | None:
    """A side's deadline has passed: do what the game says (a GM may act; the computer captain plays
    the late activation; it is passed). None when the game no longer waits on the decision the
    deadline was planned for: the side has played, changed hands, or the game is over."""
    game_id, player = decision.game_id, decision.player
    clock = await store.game_clock(svc.repo, game_id)
    if clock.paused:
        return None
    action = action if action in ACTIONS else clock.on_deadline
    text = f"⌛ Player {player}'s deadline has passed: {ACTION_TEXT[action]}"
    try:
        outcomes = [await log_clock(svc, game_id, SYSTEM, "deadline", text[2:], expect=decision)]
    except AlreadyDecided:
        return None
    if action != "gm":
        rules = await svc.rules_for((await svc._load(game_id)).record)
        captain = Actor(f"ai:{player}", (await svc._load(game_id)).record.guild_id)
        for _ in range(20):  # the late activation to its end: its rolls and choices too
            loaded = await svc._load(game_id)
            moment = replace(decision, at=loaded.record.last_seq)
            if not svc._is_waiting(loaded, moment):
                break
            judgement = derived_number(loaded.record.dice_seed, f"deadline:{player}:{loaded.record.last_seq}")
            view = view_of(loaded.state, player)
            if action == "captain":
                cmd = await asyncio.to_thread(Captain(player, judgement, rules).choose, view)
            else:
                cmd = await asyncio.to_thread(passing, view, rules, judgement)
            state = loaded.state
            from game.service.game_service import Expect

            try:
                outcomes.append(await svc.submit(captain, game_id, cmd, expect=Expect(decision=moment)))
            except AlreadyDecided:
                break
            after = (await svc._load(game_id)).state
            mid_activation = after.pending is not None or after.offer is not None or after.choices or (
                after.activation is not None)
            if not mid_activation or after.turn != state.turn:
                break
    return DeadlineResult(text, tuple(outcomes))
