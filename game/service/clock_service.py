"""The game clock in the service: per-game settings, a GM's pause, resume and extension, members'
hours and vacations, and what a deadline does when it passes. Every change is committed as a
ClockChanged event in the game's log, and a commit plans the clock's jobs with its events (the
store's planner, `Clock.plan_after`)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from game import events as ev
from game import names
from game.ai.captain import Captain
from game.dice import derived_number
from game.errors import RulesError
from game.names import iso
from game.service import orders_store
from game.service.authority import Actor, as_seated, require_gm
from game.service.availability import EXAMPLE, Availability, parse_windows, windows_text
from game.service.cache import SHARED_TTL, Bounded
from game.service.clock import (
    ACTION_TEXT,
    ACTIONS,
    AWAY_MODES,
    availability,
    hours_of,
    plan_wait,
    reminder_text,
    zone,
    zone_name,
)
from game.service.commands import Commands
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
    resumed,
    waits_after,
)
from game.service.errors import AlreadyDecided, ServiceRefusal
from game.service.models import GameClock, ScheduledJob, utcnow
from game.service.repository import Loaded, Stored
from game.service.results import Expect, Outcome
from game.service.scheduler import Job, schedule
from game.service.sides import moment
from game.service.store import GameStore
from game.service.waiting import decision_now, is_waiting, require_waiting, waits_of
from game.service.writer import PlannedJob, VersionConflict
from game.standing import passing
from game.systems.base import DEADLINE_ACTIONS, GM_AUTHORITY
from game.views import view_of

SYSTEM = Actor("clock", "")  # the clock itself, in the log


def _aware(when: datetime | None) -> datetime | None:
    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


def quoted(words: str) -> str:
    """A member's own words (a pause's reason) inside a clock's stored detail: text, never markup, and
    no `{by}` or `{until}` for the account to fill in."""
    return names.text(words[:200]).replace("{", "(").replace("}", ")")


def _token(when: datetime) -> str:
    """A pause named by when it began, to the microsecond: a pause's end acts on that pause only."""
    return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


def _until(when: datetime | None) -> str:
    return f" until {names.moment(when)}" if when is not None else ""


@dataclass(frozen=True)
class DeadlineResult:
    """What a deadline did: the line for the channel and the outcomes to publish."""

    text: str
    outcomes: tuple[Outcome, ...]
    late: str = ""  # who held the side when its deadline passed (a member's id, or a computer captain)


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


class Clock:
    """The clock part of the service: every change is committed as a ClockChanged event in the game's
    log, and every commit plans the clock jobs of the sides whose wait began, ended or was re-timed."""

    def __init__(self, store: GameStore, commands: Commands) -> None:
        self.store = store
        self.commands = commands
        # game clocks and members' hours, read on every change of turn: kept like the guild settings,
        # and bounded like every per-game cache
        self._clocks: Bounded = Bounded(10_000)
        self._hours: Bounded = Bounded(10_000)
        self._hours_read: Bounded = Bounded(10_000)  # when each member's hours were read (shared database)
        store.plan_with(self.plan_after)
        store.when_reloaded(lambda game_id: self._clocks.pop(game_id, None))  # it changed with the game

    def forget_member(self, user_id: str) -> None:
        """The member's hours were deleted (/privacy delete): read again as the defaults."""
        self._hours.pop(user_id, None)
        self._hours_read.pop(user_id, None)

    async def plan(self, loaded: Stored[Any], waits: Mapping[str, Wait],
                   sides: Sequence[str]) -> tuple[list[str], list[PlannedJob]]:
        """Repository.append's `replan`: these sides' jobs, each from the side's wait (its holder, when its
        clock started, a GM's extension), the game's clock and the holder's hours, naming its decision."""
        assert loaded.record.id is not None
        settings = await self.store.guild_settings(loaded.record.guild_id)
        wanted = sorted({w.holder for p in sides if (w := waits.get(p)) is not None and w.holder
                         and not w.holder.startswith("ai:")})
        clock = self._clocks.get(loaded.record.id)
        # with other processes on the database, one of them may have set a member's hours: they are read
        # again after SHARED_TTL, like the guild's settings. A game's clock changes only with a ClockChanged
        # event, which moves the game's version, and a game read again from the database drops its clock
        # (GameStore.load): a plan made from a stale copy fails at its commit and is made again
        now = time.monotonic()
        stale = self.store.shared and any(now - self._hours_read.get(u, 0.0) > SHARED_TTL for u in wanted)
        if clock is None or stale or any(u not in self._hours for u in wanted):
            clock, found = await orders_store.clocks_for(self.store.repo, loaded.record.id, wanted)
            self._clocks[loaded.record.id] = clock
            self._hours.update({u: found.get(u) for u in wanted})
            self._hours_read.update(dict.fromkeys(wanted, now))
        hours = hours_of(clock, settings.reminder_hours, settings.turn_deadline_hours)
        at = utcnow()
        acts = DEADLINE_ACTIONS in loaded.system.capabilities
        jobs = [(kind, due, payload, side, wait.holder, wait.since)
                for side in sides if (wait := waits.get(side)) is not None
                for kind, due, payload in plan_wait(at, side, wait, clock, hours, self._hours.get(wait.holder or ""),
                                                    acts)]
        return list(sides), jobs

    async def plan_after(self, loaded: Stored[Any], new_state: Any, position: int, retime: Retime | None
                         ) -> tuple[str | None, tuple[list[str], list[PlannedJob]] | None]:
        """What a command (its last event at `position`) writes of the clock: the waits, if they changed,
        and the plans of the sides whose wait began, ended or was re-timed (every side's, with `retime`).
        Nobody else's plan is touched: an opponent's move never re-times a wait that goes on."""
        stored = decode_waits(loaded.record.waits)
        # the stored holders, not the seats: a hand-over's command has already put the new holder in them
        before, after = moment(loaded.system, loaded.state), moment(loaded.system, new_state)
        held = current_waits(loaded.record.waits, before, loaded.seats, loaded.record.updated_at, False)
        waits = waits_after(held, before, after, loaded.seats, position, utcnow())
        sides = changed(stored, waits)
        if retime is not None:
            waits, sides = retime(waits), sorted({*stored, *waits})
        if not sides:
            return None, None
        return encode_waits(waits), await self.plan(loaded, waits, sides)

    async def plan_afresh(self, game_id: int, retime: Retime | None = None) -> None:
        """Plan every side's clock again outside a command (the game began; a member's hours changed; a
        job from before jobs named their decision fell due; a seat of a referee game changed hands): the
        waits as stored (re-timed by `retime`), a side waited on without one beginning its wait now."""
        async with self.store.lock(game_id):
            for attempt in range(3):
                loaded = await self.store.load_any(game_id, fresh=attempt > 0)
                stored = decode_waits(loaded.record.waits)
                now = moment(loaded.system, loaded.state)
                waits = waits_after(waits_of(loaded), now, now, loaded.seats, loaded.record.last_seq, utcnow())
                if retime is not None:
                    waits = retime(waits)
                sides, jobs = await self.plan(loaded, waits, sorted({*stored, *waits}))
                try:
                    await self.store.repo.replan(loaded.record, sides, jobs, encode_waits(waits) if changed(stored, waits) else None)
                    return
                except VersionConflict:
                    self.store.forget(game_id)  # a command came first: it planned what it changed

    async def log(self, game_id: int, actor: Actor, change: str, detail: str,
                        retime: Retime | None = None, expect: Decision | None = None,
                        until: datetime | None = None, substitute: str = "") -> Outcome:
        """Write a change of clock in the game's log; with `retime`, the waits it re-times and every side's
        plan made again, in the same transaction. With `expect`, only while the game still waits on that
        decision (AlreadyDecided otherwise)."""
        async with self.store.lock(game_id):
            loaded = await self.store.load(game_id, fresh=True)
            if expect is not None:
                require_waiting(loaded, expect)
            event = ev.ClockChanged(change, actor.user_id if actor is not SYSTEM else "", detail,
                                    iso(until) if until is not None else "", substitute)
            return await self.store.commit(loaded, actor, [event], None, retime=retime)

    @staticmethod
    def _gm(loaded: Loaded, actor: Actor, what: str) -> None:
        require_gm(as_seated(loaded.seats, actor), what)

    async def settings(self, actor: Actor, game_id: int, reminder_hours: int | None = None,
                       deadline_hours: int | None = None, on_deadline: str | None = None,
                       skip_quiet: bool | None = None) -> Outcome:
        loaded = await self.store.load(game_id, actor)
        self._gm(loaded, actor, "change a game's clock")
        if on_deadline is not None and on_deadline not in ACTIONS:
            raise RulesError(f"A deadline cannot do {on_deadline[:20]!r}.", f"It can: {', '.join(ACTIONS)}.")
        for h in (reminder_hours, deadline_hours):
            if h is not None and not 1 <= h <= 24 * 30:
                raise RulesError("Hours run from 1 to 720 (30 days).")
        clock = await orders_store.game_clock(self.store.repo, game_id)
        if reminder_hours is not None:
            clock.reminder_hours = reminder_hours
        if deadline_hours is not None:
            clock.deadline_hours = deadline_hours
        if on_deadline is not None:
            clock.on_deadline = on_deadline
        if skip_quiet is not None:
            clock.skip_quiet = skip_quiet
        await orders_store.save_clock(self.store.repo, clock)
        self._clocks[game_id] = clock
        guild = await self.store.guild_settings(loaded.record.guild_id)
        hours = hours_of(clock, guild.reminder_hours, guild.turn_deadline_hours)
        detail = (f"reminder after {hours.reminder} h, deadline after {hours.deadline} h; at the deadline "
                  f"{ACTION_TEXT[clock.on_deadline]}; deadlines {'wait out' if clock.skip_quiet else 'ignore'} quiet hours")
        return await self.log(game_id, actor, "settings", detail, retime=restart(utcnow()))

    async def pause(self, actor: Actor, game_id: int, paused: bool = True) -> Outcome:
        """A GM stops or starts the game's clock alone (/clock pause, /game pause as a GM)."""
        loaded = await self.store.load(game_id, actor)
        self._gm(loaded, actor, "pause or resume a game")
        if paused:
            return await self.stop(actor, game_id, "gm", detail="the game is paused by a GM ({by}): no reminders "
                                   "and no deadlines until it is resumed; moves may still be played")
        return await self.resume(actor, game_id)

    async def stop(self, actor: Actor, game_id: int, kind: str, until: datetime | None = None, reason: str = "",
                   detail: str = "") -> Outcome:
        """Stop the game's clock (a pause of `kind` gm, consent or league): each wait keeps the clock time
        it has spent, given back when it runs again (`resume`); with `until` it runs again then."""
        clock = await orders_store.game_clock(self.store.repo, game_id)
        if clock.paused:
            raise ServiceRefusal(f"The game's clock is already paused{_until(clock.paused_until)}.",
                                 "/game resume starts it again.")
        stopped = utcnow()
        clock.paused, clock.paused_at, clock.paused_until = True, stopped, until
        clock.pause_kind, clock.pause_reason, clock.proposal = kind, reason[:200], ""
        await orders_store.save_clock(self.store.repo, clock)
        self._clocks[game_id] = clock
        if until is not None:  # the pause's end, which a restart keeps: it is a row like any job
            await schedule(self.store.repo, "pause_end", until, game_id, {"paused_at": _token(stopped)})
        why = f" ({quoted(reason)})" if reason else ""
        return await self.log(game_id, actor, "paused", (detail or "the game is paused") + why
                              + (" until {until}" if until is not None else ""), retime=keep, until=until)

    async def resume(self, actor: Actor, game_id: int, detail: str = "", paused_at: str | None = None) -> Outcome:
        """Start the game's clock again: each wait gets back the clock time it had left when it stopped.
        With `paused_at`, only the pause that began then (a pause's end that fell due after a later one)."""
        clock = await orders_store.game_clock(self.store.repo, game_id)
        if not clock.paused or (paused_at is not None and (clock.paused_at is None
                                                           or _token(clock.paused_at) != paused_at)):
            raise ServiceRefusal("The game's clock is not paused.", "/game pause asks for a pause.")
        stopped = _aware(clock.paused_at)
        clock.paused, clock.paused_at, clock.paused_until, clock.pause_kind, clock.pause_reason = (
            False, None, None, "", "")
        await orders_store.save_clock(self.store.repo, clock)
        self._clocks[game_id] = clock
        loaded = await self.store.load(game_id)
        holders = sorted({w.holder for w in waits_of(loaded).values() if w.holder and not w.holder.startswith("ai:")})
        _, found = await orders_store.clocks_for(self.store.repo, game_id, holders)

        def spent(wait: Wait) -> float:
            # what ran of the wait's clock from its start to the pause, as the plan counts it
            if stopped is None:
                return 0.0
            member = found.get(wait.holder or "")
            if member is not None and clock.skip_quiet:
                return availability(member).counted(wait.started, stopped)
            return max((stopped - wait.started).total_seconds(), 0.0)

        return await self.log(game_id, actor, "resumed",
                              detail or "the game is resumed ({by}): each clock runs again with the time it had left",
                              retime=resumed(utcnow(), spent))

    async def hold(self, actor: Actor, game_id: int, kind: str, paused_at: str, detail: str) -> Outcome | None:
        """The pause that began at `paused_at` ends, but another holds the clock (a league's, which began
        meanwhile): the clock stays stopped, as a pause of `kind` with no end of its own. None: that pause
        is already over."""
        clock = await orders_store.game_clock(self.store.repo, game_id)
        if not clock.paused or clock.paused_at is None or _token(clock.paused_at) != paused_at:
            return None
        clock.pause_kind, clock.paused_until = kind, None
        await orders_store.save_clock(self.store.repo, clock)
        self._clocks[game_id] = clock
        return await self.log(game_id, actor, "paused", detail, retime=keep)

    async def paused(self, game_id: int) -> GameClock:
        """The game's clock as stored: whether it is paused, since and until when, and by whom."""
        return await orders_store.game_clock(self.store.repo, game_id)

    async def save_proposal(self, game_id: int, proposal: str, expected: str) -> bool:
        """Write the open request for a pause if the stored one is still `expected` (False: it changed).
        One conditional update: two answers pressed at once (Agree and Decline from two clients) settle
        it once, the other finds it changed."""
        clock = await orders_store.game_clock(self.store.repo, game_id)
        if clock.proposal != expected:
            return False
        try:
            async with self.store.repo.session() as s, s.begin():
                if await s.get(GameClock, game_id) is None:  # a game whose clock was never written
                    s.add(GameClock(game_id=game_id))
                    await s.flush()
                done = await s.execute(update(GameClock).where(col(GameClock.game_id) == game_id,
                                                               col(GameClock.proposal) == expected)
                                       .values(proposal=proposal, updated_at=utcnow()))
        except IntegrityError:  # another answer wrote the clock's first row a moment ago
            return False
        if not done.rowcount:  # type: ignore[attr-defined]
            return False
        clock.proposal = proposal
        self._clocks[game_id] = clock
        return True

    async def extend(self, actor: Actor, game_id: int, hours: int) -> Outcome:
        """Give every side the game waits on `hours` more: the extension belongs to the decision each waits
        on, and holds (re-planned with it) until that wait ends."""
        loaded = await self.store.load(game_id, actor)
        self._gm(loaded, actor, "extend a deadline")
        if not 1 <= hours <= 24 * 30:
            raise RulesError("An extension runs from 1 to 720 hours.")
        due = await self.store.repo.next_deadline(game_id)
        until = due + timedelta(hours=hours) if due is not None else None
        return await self.log(game_id, actor, "extended",
                              f"the deadline is extended by {hours} h{' (now {until})' if until else ''}",
                              retime=lengthen(hours), until=until)

    async def set_hours(self, actor: Actor, time_zone: str | None = None, quiet_from: int | None = None,
                        quiet_to: int | None = None) -> str:
        clock = await orders_store.player_clock(self.store.repo, actor.user_id)
        if time_zone is not None:
            clock.time_zone = zone_name(time_zone)
        for h in (quiet_from, quiet_to):
            if h is not None and not 0 <= h <= 23:
                raise RulesError("Quiet hours are given as hours of the day, 0 to 23.")
        if quiet_from is not None:
            clock.quiet_from = quiet_from
        if quiet_to is not None:
            clock.quiet_to = quiet_to
        await orders_store.save_clock(self.store.repo, clock)
        self._hours[actor.user_id] = clock
        self._hours_read[actor.user_id] = time.monotonic()
        for gid in await self.store.repo.live_games_of_user(actor.user_id):  # the reminders and deadlines keep new hours
            await self.plan_afresh(gid)
        quiet = (f"quiet {clock.quiet_from}:00–{clock.quiet_to}:00" if clock.quiet_from is not None
                 and clock.quiet_to is not None else "no quiet hours")
        return f"{clock.time_zone}, {quiet}"

    async def set_windows(self, actor: Actor, text: str | None) -> str:
        """The member's weekday windows ("Mon-Fri 18:00-23:00, Sat-Sun 10:00-22:00" in their zone; `clear`
        removes them; None shows them). Their games' reminders and deadlines are planned again with them."""
        clock = await orders_store.player_clock(self.store.repo, actor.user_id)
        if text is not None:
            wanted = " ".join(text.split())
            if wanted.casefold() in ("clear", "none", "any"):
                clock.windows = ""
            else:
                week = parse_windows(wanted)
                if Availability(zone(clock.time_zone), week, clock.quiet_from, clock.quiet_to).never:
                    raise RulesError("Those windows all fall in your quiet hours: you would never be free to play.",
                                     f"Change them or your quiet hours (/clock hours); for example: {EXAMPLE}.")
                clock.windows = windows_text(week)
            await orders_store.save_clock(self.store.repo, clock)
            self._hours[actor.user_id] = clock
            self._hours_read[actor.user_id] = time.monotonic()
            for gid in await self.store.repo.live_games_of_user(actor.user_id):  # their clocks count the new windows
                await self.plan_afresh(gid)
        return clock.windows

    async def set_away(self, actor: Actor, until: datetime | None, mode: str = "stop",
                       substitute: str | None = None) -> list[int]:
        """A vacation (or its end, with `until` None), written in the log of each of the member's games
        that are still going; the clock of each is planned afresh. Answers with those games."""
        if mode not in AWAY_MODES:
            raise RulesError(f"There is no vacation mode {mode[:20]!r}.", f"Modes: {', '.join(AWAY_MODES)}.")
        if mode == "substitute" and not substitute:
            raise RulesError("Name the member who stands in for you.")
        clock = await orders_store.player_clock(self.store.repo, actor.user_id)
        clock.away_until, clock.away_mode, clock.substitute = until, mode, substitute if mode == "substitute" else None
        await orders_store.save_clock(self.store.repo, clock)
        self._hours[actor.user_id] = clock
        self._hours_read[actor.user_id] = time.monotonic()
        if until is None:  # the event names the member (by), the time and the substitute; the account says them
            detail = "{by} is back: their clock runs again"
        else:
            what = {"stop": "their clock stops until then", "captain": "the computer captain plays for them",
                    "substitute": "{substitute} is asked to stand in"}[mode]
            detail = "{by} is away until {until}: " + what
        games = await self.store.repo.live_games_of_user(actor.user_id)
        for gid in games:  # the member's own waits start again (as they leave, and as they come back)
            loaded = await self.store.load_any(gid)
            if GM_AUTHORITY not in loaded.system.capabilities:  # a referee game's log is the game's alone
                await self.plan_afresh(gid, restart(utcnow(), actor.user_id))
                continue
            await self.log(gid, Actor(actor.user_id, loaded.record.guild_id), "away", detail,
                            retime=restart(utcnow(), actor.user_id), until=until,
                            substitute=substitute or "" if mode == "substitute" else "")
        return games

    async def due_reminder(self, job: ScheduledJob | Job) -> Reminder | None:
        """A reminder fell due: None unless the game still waits on the decision it was planned for and its
        clock runs (another process may have paused it). It pings whom the plan named for that holder."""
        if job.game_id is None:
            return None
        payload = json.loads(job.payload)
        text = reminder_text(payload)
        decision = decision_of_job(job)
        loaded = await self.store.load_any(job.game_id, fresh=True)
        if decision is None:
            await self.plan_afresh(job.game_id)
            return None
        if not is_waiting(loaded, decision) or (await orders_store.game_clock(self.store.repo, job.game_id)).paused:
            return None
        user = payload.get("user") or decision.holder
        if not user or not str(user).isdigit():
            return None
        return Reminder(str(user), text, bool(payload.get("stand_in")))

    async def due_deadline(self, job: ScheduledJob | Job) -> DeadlineResult | None:
        """A deadline job fell due: what the game's clock says, if the game still waits on its decision."""
        if job.game_id is None:
            return None
        decision = decision_of_job(job)
        if decision is None:
            await self.plan_afresh(job.game_id)  # the game's sides get jobs that name their decisions
            return None
        return await self.deadline_passed(decision, json.loads(job.payload).get("action"))

    async def deadline_passed(self, decision: Decision, action: str | None = None) -> DeadlineResult | None:
        """A side's deadline has passed: do what the game says (a GM may act; the computer captain plays
        the late activation; it is passed). None when the game no longer waits on the decision the
        deadline was planned for: the side has played, changed hands, or the game is over."""
        game_id, player = decision.game_id, decision.player
        clock = await orders_store.game_clock(self.store.repo, game_id)
        if clock.paused:
            return None
        action = action if action in ACTIONS else clock.on_deadline
        text = f"⌛ Player {player}'s deadline has passed: {ACTION_TEXT[action]}"
        try:
            outcomes = [await self.log(game_id, SYSTEM, "deadline", text[2:], expect=decision)]
        except AlreadyDecided:
            return None
        if action != "gm":
            # one read of the game per step of the late activation: each step's commit moves the game on
            loaded = await self.store.load(game_id)
            rules = await self.store.rules_for(loaded.record)
            captain = Actor(f"ai:{player}", loaded.record.guild_id)
            for _ in range(20):  # the late activation to its end: its rolls and choices too
                step = replace(decision, at=loaded.record.last_seq)
                if not is_waiting(loaded, step):
                    break
                judgement = derived_number(loaded.record.dice_seed, f"deadline:{player}:{loaded.record.last_seq}")
                view = view_of(loaded.state, player)
                if action == "captain":
                    cmd = await asyncio.to_thread(Captain(player, judgement, rules).choose, view)
                else:
                    cmd = await asyncio.to_thread(passing, view, rules, judgement)
                state = loaded.state
                try:
                    outcomes.append(await self.commands.submit(captain, game_id, cmd,
                                                               expect=Expect(decision=step)))
                except AlreadyDecided:
                    break
                loaded = await self.store.load(game_id)
                after = loaded.state
                mid_activation = after.pending is not None or after.offer is not None or after.choices or (
                    after.activation is not None)
                if not mid_activation or after.turn != state.turn:
                    break
        return DeadlineResult(text, tuple(outcomes), decision.holder or "")

    async def on_deadline(self, game_id: int, player: str, action: str | None = None) -> DeadlineResult | None:
        """What the game's clock says a passed deadline does, for the decision the side is waited on now."""
        decision = decision_now(await self.store.load(game_id, fresh=True), player)
        return None if decision is None else await self.deadline_passed(replace(decision, at=None), action)

    async def next_deadline(self, game_id: int) -> datetime | None:
        return await self.store.repo.next_deadline(game_id)
