"""Weekday windows and quiet hours as one model of a member's open time (game/service/availability.py):
the parser, its refusals, and properties of the deadline it gives (never outside a window; the open
time given is exactly the deadline's length), across the clock changes of the member's zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import RulesError
from game.service.availability import EXAMPLE, STRETCH, Availability, parse_windows, windows_text
from game.service.clock import Hours, plan_wait
from game.service.decision import Wait
from game.service.models import GameClock, PlayerClock

PARIS = ZoneInfo("Europe/Paris")
EVENINGS = parse_windows(EXAMPLE)


def test_the_example_reads_back_as_written() -> None:
    assert windows_text(EVENINGS) == ("Mon 18:00-23:00, Tue 18:00-23:00, Wed 18:00-23:00, Thu 18:00-23:00, "
                                      "Fri 18:00-23:00, Sat 10:00-22:00, Sun 10:00-22:00")
    assert parse_windows("monday 9-17; Sat/Sun 10:00-12:00") == ((540, 1020), (7800, 7920), (9240, 9360))
    # a window past midnight runs into the next day; Sunday's into Monday's (the week wraps)
    assert parse_windows("Sun 22:00-02:00") == ((0, 120), (9960, 10080))
    assert parse_windows("Fri-Mon 00:00-24:00") == ((0, 1440), (5760, 10080))


@pytest.mark.parametrize("typed", ["", "Mon", "Mon 18:00", "Funday 18-20", "Mon 25:00-26:00", "Mon 18:00-18:00",
                                   "Mon 18:61-19:00", "Mon 24:00-02:00", "18:00-23:00 Mon", "x" * 500])
def test_bad_windows_are_refused_with_an_example(typed: str) -> None:
    with pytest.raises(RulesError) as refused:
        parse_windows(typed)
    assert EXAMPLE in refused.value.allowed


def test_quiet_hours_are_the_complement_of_a_daily_window() -> None:
    night = Availability(PARIS, None, 22, 8)
    same = Availability(PARIS, parse_windows("Mon-Sun 08:00-22:00"))
    start = datetime(2026, 11, 23, 12, tzinfo=UTC)
    for hours in (1, 9, 10, 30, 100):
        assert night.advance(start, hours * 3600) == same.advance(start, hours * 3600)
    # windows and quiet hours together: what is left of each window
    both = Availability(PARIS, EVENINGS, 22, 8)
    monday = datetime(2026, 11, 23, 17, tzinfo=UTC)  # 18:00 in Paris
    assert both.counted(monday, monday + timedelta(days=1)) == 4 * 3600  # 18:00 to 22:00


def test_no_open_time_is_read_as_always_open() -> None:
    stuck = Availability(PARIS, parse_windows("Mon 23:00-23:30"), 22, 8)
    assert stuck.never
    start = datetime(2026, 11, 23, 12, tzinfo=UTC)
    assert stuck.advance(start, 3600) == start + timedelta(hours=1)


def test_the_clock_change_is_real_time() -> None:
    """The night the clocks go back in Paris (25 Oct 2026) a 00:00-06:00 window is seven hours long;
    the night they go forward (29 Mar 2026), five."""
    nights = Availability(PARIS, parse_windows("Sun 00:00-06:00"))
    autumn = datetime(2026, 10, 24, 12, tzinfo=UTC)
    spring = datetime(2026, 3, 28, 12, tzinfo=UTC)
    assert nights.counted(autumn, autumn + timedelta(days=2)) == 7 * 3600
    assert nights.counted(spring, spring + timedelta(days=2)) == 5 * 3600


def test_a_members_windows_hold_their_deadline_and_reminders() -> None:
    """Bob plays weekday evenings in Paris; asked on Monday at noon UTC with a 12-hour deadline, his
    time runs 18:00-23:00 Monday, Tuesday and to 20:00 on Wednesday, in Paris."""
    bob = PlayerClock(user_id="222", time_zone="Europe/Paris", windows="Mon-Fri 18:00-23:00")
    noon = datetime(2026, 11, 23, 12, tzinfo=UTC)
    jobs = plan_wait(noon, "B", Wait(3, "222", noon), GameClock(game_id=1), Hours(2, 12), bob)
    assert [(k, due) for k, due, _ in jobs] == [
        ("reminder", datetime(2026, 11, 23, 19, tzinfo=UTC)),  # 20:00 in Paris: two hours of his time
        ("reminder", datetime(2026, 11, 24, 18, tzinfo=UTC)),  # six hours: one more on Tuesday
        ("reminder", datetime(2026, 11, 25, 18, tzinfo=UTC)),  # eleven
        ("deadline", datetime(2026, 11, 25, 19, tzinfo=UTC))]  # twelve: Wednesday 20:00 in Paris
    # a game whose deadlines ignore members' hours keeps the wall clock, but pings only in a window
    wall = plan_wait(noon, "B", Wait(3, "222", noon), GameClock(game_id=1, skip_quiet=False), Hours(2, 12), bob)
    assert wall[-1][1] == noon + timedelta(hours=12)
    assert wall[0][1] == datetime(2026, 11, 23, 17, tzinfo=UTC)  # 14:00 UTC waits for 18:00 in Paris


def test_time_spent_before_a_pause_is_not_given_twice() -> None:
    noon = datetime(2026, 11, 23, 12, tzinfo=UTC)
    jobs = plan_wait(noon, "B", Wait(3, "222", noon, 0, 40 * 3600), GameClock(game_id=1), Hours(12, 48), None)
    # 40 of its 48 hours ran before the pause: the reminders at 12 and 24 hours went out then
    assert [(k, p.get("stage"), due - noon) for k, due, p in jobs] == [("reminder", 3, timedelta(hours=7)),
                                                                      ("deadline", None, timedelta(hours=8))]


ZONES = st.sampled_from(["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC",
                         "America/Santiago"])
DAY_SPANS = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 23), st.integers(1, 12)), min_size=1, max_size=4)
STARTS = st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2027, 12, 31), timezones=st.just(UTC))


def _week(spans: list[tuple[int, int, int]]) -> str:
    days = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    return ", ".join(f"{days[d]} {h:02d}:00-{(h + n) % 24:02d}:00" for d, h, n in spans if n % 24)


@settings(max_examples=150, deadline=None)
@given(ZONES, DAY_SPANS, st.one_of(st.none(), st.tuples(st.integers(0, 23), st.integers(0, 23))), STARTS,
       st.integers(1, 200 * 3600))
def test_a_deadline_falls_in_a_window_and_gives_exactly_its_length(zone: str, spans: list[tuple[int, int, int]],
                                                                   quiet: tuple[int, int] | None, start: datetime,
                                                                   seconds: int) -> None:
    text = _week(spans)
    if not text:
        return
    open_time = Availability(ZoneInfo(zone), parse_windows(text), *(quiet or (None, None)))
    due = open_time.advance(start, seconds)
    if open_time.never:
        assert due == start + timedelta(seconds=seconds)
        return
    assert due <= start + STRETCH * timedelta(seconds=seconds)
    if due == start + STRETCH * timedelta(seconds=seconds):
        return  # so little open time that the deadline stopped stretching (a spiteful week's limit)
    # the open time given is the deadline's length, to the second
    assert abs(open_time.counted(start, due) - seconds) < 1e-6
    # and the deadline ends open time: the moment before it is inside a window
    assert open_time.is_open(due - timedelta(seconds=1))
    # a reminder moved out of closed time lands in a window
    assert open_time.is_open(open_time.next_open(due))
