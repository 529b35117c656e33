"""When a member can play: weekday windows in their time zone (`/clock days`), less their quiet hours
(`/clock hours`). One model for both: quiet hours are the complement of a daily window, and a week of
windows is what is left open. Pure: no I/O.

The clock reads two things of it (game/service/clock.py): a reminder waits for the next open moment
(nobody is pinged outside their windows), and a deadline counts only open time (`advance`), so the
time a member is given is the same whatever hours they keep. Windows are wall-clock times in the
member's zone; a day whose clocks change (DST) is as long, in real time, as the zone makes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from game.errors import RulesError

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
FULL_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_MINUTES = 24 * 60
WEEK_MINUTES = 7 * DAY_MINUTES
EXAMPLE = "Mon-Fri 18:00-23:00, Sat-Sun 10:00-22:00"
MAX_TEXT = 400
_SPAN = re.compile(r"^(?P<days>[A-Za-z]{3,9}(?:\s*-\s*[A-Za-z]{3,9})?(?:\s*/\s*[A-Za-z]{3,9}(?:\s*-\s*[A-Za-z]{3,9})?)*)"
                   r"\s+(?P<start>\d{1,2}(?::\d{2})?)\s*-\s*(?P<end>\d{1,2}(?::\d{2})?)$")
# A deadline counts open time, but never runs past this many times its own length in real time: a
# member who keeps one minute a week (to be spiteful, or by a slip) still meets their deadline within
# weeks, not in the next century. A seventh is a day a week (a 72-hour deadline ends within 21 days).
STRETCH = 7
_LOOKAHEAD_DAYS = 15  # two weeks and a day: any week with open time has some within it

Week = tuple[tuple[int, int], ...]  # open minutes of the week [start, end), Monday 00:00 is 0


def _refuse(what: str) -> RulesError:
    return RulesError(what[:200], f"Write days and hours like: {EXAMPLE} (24-hour times; `clear` removes them).")


def _day(word: str) -> int:
    key = word.strip().casefold()
    for i, full in enumerate(FULL_DAYS):
        if len(key) >= 3 and full.startswith(key):
            return i
    raise _refuse(f"{word.strip()[:12]!r} is not a day of the week.")


def _minute(text: str, end: bool) -> int:
    h, _, m = text.partition(":")
    hour, minute = int(h), int(m or 0)
    if minute > 59 or hour > 24 or (hour == 24 and (minute or not end)):
        raise _refuse(f"{text!r} is not a time of day.")
    return hour * 60 + minute


def parse_windows(text: str) -> Week:
    """The open minutes of a week from "Mon-Fri 18:00-23:00, Sat 10-22" (a day range wraps: Sat-Mon; a
    window past midnight runs into the next day: Fri 22:00-02:00). Refused with an example when any part
    is not read, or when the week would have no open time."""
    if len(text) > MAX_TEXT:
        raise _refuse(f"That is {len(text)} characters; windows fit in {MAX_TEXT}.")
    parts = [p.strip() for p in re.split(r"[,;\n]", text) if p.strip()]
    if not parts:
        raise _refuse("No days and hours were given.")
    spans: list[tuple[int, int]] = []
    for part in parts:
        found = _SPAN.match(part)
        if found is None:
            raise _refuse(f"{part[:40]!r} is not days and hours.")
        start, end = _minute(found["start"], False), _minute(found["end"], True)
        if start == end:
            raise _refuse(f"{part[:40]!r} is an empty window.")
        length = end - start if end > start else DAY_MINUTES - start + end
        for day in _days(found["days"]):
            a = day * DAY_MINUTES + start
            spans.extend(_wrapped(a, a + length))
    return _merged(spans)


def _days(text: str) -> list[int]:
    out: list[int] = []
    for group in text.split("/"):
        first, _, last = group.partition("-")
        a = _day(first)
        b = _day(last) if last else a
        out.extend((a + i) % 7 for i in range((b - a) % 7 + 1))
    return out


def _wrapped(a: int, b: int) -> list[tuple[int, int]]:
    """[a, b) in week minutes, split where the week wraps from Sunday to Monday."""
    if b <= WEEK_MINUTES:
        return [(a, b)]
    return [(a, WEEK_MINUTES), (0, b - WEEK_MINUTES)]


def _merged(spans: list[tuple[int, int]]) -> Week:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def windows_text(week: Week) -> str:
    """The week read back as a member would write it, one day's windows after another."""
    out = []
    for a, b in week:
        day, start = divmod(a, DAY_MINUTES)
        end_day, end = divmod(b, DAY_MINUTES)
        last = end if end_day == day else DAY_MINUTES if end_day == day + 1 and end == 0 else None
        if last is not None:
            out.append(f"{DAYS[day]} {_clock(start)}-{_clock(last) if last < DAY_MINUTES else '24:00'}")
        else:
            out.append(f"{DAYS[day]} {_clock(start)} to {DAYS[end_day % 7]} {_clock(end)}")
    return ", ".join(out)


@dataclass(frozen=True)
class Availability:
    """A member's open time: `week` (None: every day, all day) less the daily quiet hours."""

    zone: ZoneInfo
    week: Week | None = None
    quiet_from: int | None = None
    quiet_to: int | None = None

    def _day_open(self, weekday: int) -> list[tuple[int, int]]:
        """The open minutes of one local day, [start, end) in minutes after its midnight."""
        if self.week is None:
            spans = [(0, DAY_MINUTES)]
        else:
            lo, hi = weekday * DAY_MINUTES, (weekday + 1) * DAY_MINUTES
            spans = [(max(a, lo) - lo, min(b, hi) - lo) for a, b in self.week if a < hi and b > lo]
        quiet = _quiet(self.quiet_from, self.quiet_to)
        return [(max(a, qa), min(b, qb)) for a, b in spans for qa, qb in _complement(quiet) if max(a, qa) < min(b, qb)]

    def intervals(self, since: datetime) -> Iterator[tuple[datetime, datetime]]:
        """The open intervals in UTC that end after `since`, in order, for the next two weeks."""
        first = since.astimezone(self.zone).date() - timedelta(days=1)
        for n in range(_LOOKAHEAD_DAYS + 1):
            day = first + timedelta(days=n)
            for a, b in self._day_open(day.weekday()):
                start, end = _at(day, a, self.zone), _at(day, b, self.zone)
                if end > since and end > start:
                    yield max(start, since), end

    @property
    def never(self) -> bool:
        """No open time in a week: read as always open, as a clock that never runs would stall a game."""
        return not any(self._day_open(d) for d in range(7))

    def is_open(self, when: datetime) -> bool:
        if self.never:
            return True
        return any(a <= when < b for a, b in self._until(when, when + timedelta(minutes=1)))

    def next_open(self, when: datetime) -> datetime:
        """`when` if it is open, else the start of the next open interval."""
        if self.never:
            return when
        return next(iter(self.intervals(when)), (when, when))[0]

    def advance(self, start: datetime, seconds: float) -> datetime:
        """The moment by which `seconds` of open time have passed since `start` (the end of the open time
        it takes, so the minute before it is open). Nothing to count: `start` itself. Never later than
        STRETCH times `seconds` after `start`, however little open time there is."""
        if seconds <= 0:
            return start
        if self.never:
            return start + timedelta(seconds=seconds)
        left = timedelta(seconds=seconds)
        limit = start + STRETCH * left
        while True:
            end = start
            for a, b in self.intervals(start):
                if a >= limit:
                    return limit
                if b - a >= left:
                    return min(a + left, limit)
                left -= b - a
                end = b
            if end == start:  # no open time ahead at all (a week open only in a skipped hour)
                return min(start + left, limit)
            start = end  # beyond the look-ahead: carry on from where it ended

    def counted(self, start: datetime, end: datetime) -> float:
        """The open time between two moments, in seconds."""
        if end <= start:
            return 0.0
        if self.never:
            return (end - start).total_seconds()
        return sum((min(b, end) - a).total_seconds() for a, b in self._until(start, end) if a < end)

    def _until(self, start: datetime, end: datetime) -> Iterator[tuple[datetime, datetime]]:
        while start < end:
            last = start
            for a, b in self.intervals(start):
                if a >= end:
                    return
                yield a, b
                last = b
            if last == start:
                return
            start = last


def _quiet(a: int | None, b: int | None) -> list[tuple[int, int]]:
    """Quiet hours as minutes of the day (22 to 7: from 22:00 to midnight and from midnight to 07:00)."""
    if a is None or b is None or a == b:
        return []
    if a < b:
        return [(a * 60, b * 60)]
    return [(a * 60, DAY_MINUTES), (0, b * 60)]


def _complement(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out, at = [], 0
    for a, b in sorted(spans):
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if at < DAY_MINUTES:
        out.append((at, DAY_MINUTES))
    return out


def _at(day: date, minute: int, zone: ZoneInfo) -> datetime:
    """A wall-clock minute of a local day, in UTC (24:00 is the next midnight). A time the clocks skip
    reads with the offset before the change, as zoneinfo does: a window in the gap is empty."""
    extra, minute = divmod(minute, DAY_MINUTES)
    local = datetime.combine(day + timedelta(days=extra), time(minute // 60, minute % 60), tzinfo=zone)
    return local.astimezone(UTC)
