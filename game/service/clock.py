"""A game's clock: when the player holding it up is reminded, when their deadline falls, and what
the deadline does. Per game (/clock settings), with each member's own hours (/clock hours, /clock
days): a time zone, their open time (weekday windows less quiet hours, game/service/availability.py:
no pings outside it, and only it counts toward the deadline if the game says so) and a vacation (the
clock stops for their games, or a substitute is pinged, or the computer captain plays for them).

`plan_wait` is pure: from one side's wait (game/service/decision.py: its holder, when its clock
started, a GM's extension, the clock time it spent before a pause), the game's clock and the
holder's hours, the reminders and the deadline; the service writes them, each naming the decision it
was planned for, in the transaction that began or changed the wait. Every change of a clock is also
an event in the game's log (ClockChanged), so the account shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from game.errors import RulesError
from game.fuzzy import ranked
from game.service.availability import Availability, parse_windows
from game.service.decision import Wait
from game.service.models import GameClock, PlayerClock

ACTIONS = ("gm", "captain", "pass")  # what a deadline does
ACTION_TEXT = {"gm": "a GM may act for the late player", "captain": "the computer captain plays the late activation",
               "pass": "the late activation is passed"}
AWAY_MODES = ("stop", "substitute", "captain")
Job = tuple[str, datetime, dict[str, Any]]  # kind, due, payload


@dataclass(frozen=True)
class Hours:
    reminder: int
    deadline: int


def hours_of(clock: GameClock, guild_reminder: int, guild_deadline: int) -> Hours:
    return Hours(clock.reminder_hours or guild_reminder, clock.deadline_hours or guild_deadline)


def reminder_times(hours: Hours) -> list[float]:
    """When reminders go out, in hours after the game came to wait: the first reminder, then
    escalating at half the deadline and one hour before it."""
    marks = {float(hours.reminder), hours.deadline / 2, hours.deadline - 1.0}
    return sorted(m for m in marks if 0 < m < hours.deadline)


def zone(name: str) -> ZoneInfo:
    """The named zone, or UTC for a name that is none (too long for a file name included: OSError)."""
    if len(name) > 64:  # the longest IANA names are about 30 characters
        return ZoneInfo("UTC")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return ZoneInfo("UTC")


@cache
def time_zones() -> tuple[str, ...]:
    """Every IANA zone name this system knows (about 600 with tzdata), sorted: what members pick from."""
    return tuple(sorted(available_timezones()))


def zone_name(typed: str) -> str:
    """The zone a member named, in any case ("europe/paris"); anything else is refused with the nearest
    names, as a time zone that is wrong would shift every reminder and quiet hour silently."""
    known = time_zones()
    if typed in known:
        return typed
    key = typed.casefold()  # as typed: a stray space or newline is refused, not guessed away
    same = [z for z in known if z.casefold() == key]
    if same:
        return same[0]
    near = ranked(typed[:64], known)[:3]
    raise RulesError(f"There is no time zone {typed[:40]!r}.",
                     f"Did you mean {' or '.join(near)}?" if near else "Use a name like Europe/Paris or UTC.")


def availability(hours: PlayerClock) -> Availability:
    """A member's open time: their weekday windows (a stored text that no longer reads is ignored, as
    if none were set) less their quiet hours."""
    try:
        week = parse_windows(hours.windows) if hours.windows else None
    except RulesError:
        week = None
    return Availability(zone(hours.time_zone), week, hours.quiet_from, hours.quiet_to)


def in_quiet(when: datetime, hours: PlayerClock) -> bool:
    """Outside the member's open time (their quiet hours, or outside their weekday windows)."""
    return not availability(hours).is_open(when)


def away(hours: PlayerClock | None, now: datetime) -> bool:
    return hours is not None and hours.away_until is not None and _utc(hours.away_until) > now


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def plan_wait(now: datetime, player: str, wait: Wait, clock: GameClock, hours: Hours,
              member: PlayerClock | None, acts: bool = True) -> list[Job]:
    """The reminders and the deadline of one side's wait, from when its clock started, the hours a GM
    added, the holder's vacation and quiet hours. A paused game plans none, nor does a computer
    captain's side (it plays at once); a holder on vacation either stops the clock (it starts when
    they return), has a substitute pinged, or has the computer captain play at once. In a game whose
    deadlines cannot act (`acts` False: a referee system, where nobody plays for an absent seat) the
    wait has one reminder and no deadline, and a holder away stops its clock."""
    if clock.paused or (wait.holder or "").startswith("ai:"):
        return []
    base, ping = wait.started, wait.holder
    if member is not None and away(member, now):
        if member.away_mode == "captain" and acts:
            return [("deadline", now, {"player": player, "action": "captain", "why": "away"})]
        if member.away_mode == "substitute" and member.substitute:
            ping = member.substitute
        elif member.away_until is not None:
            base = max(base, _utc(member.away_until))
    # the member's open time: no ping outside it, and, where the game says deadlines wait out members'
    # hours, only open time counts against them
    open_time = availability(member) if member is not None else None
    counting = open_time if clock.skip_quiet else None

    def after(h: float) -> datetime | None:
        seconds = (h + wait.extended) * 3600 - wait.used
        if seconds <= 0 and h < hours.deadline:
            return None  # spent before a pause: it was sent then
        return counting.advance(base, seconds) if counting is not None else base + timedelta(seconds=max(seconds, 0))

    jobs: list[Job] = []
    times = reminder_times(hours) if acts else [float(hours.reminder)]
    for stage, h in enumerate(times, start=1):
        due = after(h)
        if due is None:
            continue
        if open_time is not None:
            due = open_time.next_open(due)
        jobs.append(("reminder", due, {"player": player, "stage": stage, "of": len(times), "user": ping,
                                       "stand_in": ping != wait.holder}))
    if not acts:
        return jobs
    jobs.append(("deadline", after(hours.deadline) or base, {"player": player, "action": clock.on_deadline}))
    return jobs


def reminder_text(payload: Mapping[str, Any]) -> str:
    """Reminders escalate: the last one says the deadline is near."""
    stage, of = int(payload.get("stage", 1)), int(payload.get("of", 1))
    if stage >= of and of > 1:
        return "⏰ Last reminder: the deadline is about an hour away; the game is waiting for you"
    if stage > 1:
        return "⏰ Second reminder: half the time to the deadline has gone; the game is waiting for you"
    return "⏰ Reminder: the game is waiting for you"
