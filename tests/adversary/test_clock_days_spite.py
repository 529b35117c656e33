"""Adversary probes of weekday windows (`/clock days`, issue 27 item 4): a player who keeps one minute
a week so that their deadline never comes, hostile texts (huge, empty windows, overlapping, every
day closed), and what the deadline does then: it is never pushed to the next century, and planning
it never loops (the walk through the weeks stops at the limit)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from game.errors import RulesError
from game.service.availability import STRETCH, Availability, parse_windows
from game.service.models import utcnow
from tests.adversary.clock_jobs import planned
from tests.adversary.eyes import ANN, Table, answer_text
from tests.adversary.test_sweep import open_quickstart

UNEXPECTED = "Something went wrong on my side"
START = datetime(2026, 11, 27, 10, 30, tzinfo=UTC)


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "America/Santiago"])
@pytest.mark.parametrize("hours", [1, 72, 720])
def test_one_minute_a_week_does_not_put_the_deadline_in_the_next_century(zone: str, hours: int) -> None:
    week = Availability(ZoneInfo(zone), parse_windows("Mon 10:00-10:01"))
    due = week.advance(START, hours * 3600)
    assert START < due <= START + STRETCH * timedelta(hours=hours)


def test_a_fair_week_still_counts_its_open_time_exactly() -> None:
    """Evenings and weekends (well over a day a week): the limit never cuts a real member's time."""
    week = Availability(ZoneInfo("Europe/Paris"), parse_windows("Mon-Fri 18:00-23:00, Sat-Sun 10:00-22:00"))
    due = week.advance(START, 72 * 3600)
    assert week.counted(START, due) == 72 * 3600 and due < START + STRETCH * timedelta(hours=72)


@pytest.mark.parametrize("typed", ["Mon 10:00-10:00", "Mon-Sun 0-0", "Mon " + "1" * 390, "Mon/" * 99 + "Mon 1-2x",
                                   "Mon 24:00-01:00", "Mon 25-26", "Mon 10:60-11", "Funday 10-12", "-", "\x00"])
def test_hostile_windows_are_refused_with_an_example(typed: str) -> None:
    with pytest.raises(RulesError) as refused:
        parse_windows(typed)
    assert len(refused.value.message) <= 200 and "Mon-Fri" in refused.value.allowed


def test_overlapping_windows_merge_and_a_whole_week_is_always_open() -> None:
    week = parse_windows("Mon-Sun 00:00-24:00, Mon 10-12, Sun 22:00-02:00")
    assert week == ((0, 7 * 24 * 60),)
    assert Availability(ZoneInfo("UTC"), week).advance(START, 3600) == START + timedelta(hours=1)


async def test_a_player_who_keeps_one_minute_a_week_still_meets_a_deadline(table: Table) -> None:
    t = table
    await open_quickstart(t)  # the game waits on Ann's pick
    ((plain, _),) = await planned(t, "deadline", "A")
    length = plain - utcnow()
    answer = await t.cmd(ANN, "clock", "days", days="Mon 10:00-10:01")
    assert answer.ephemeral and "Mon 10:00-10:01" in answer_text(answer), answer_text(answer)
    ((due, _),) = await planned(t, "deadline", "A")
    assert due <= utcnow() + STRETCH * length + timedelta(minutes=1), due
    for typed in ("", "Mon 10:00-10:00", "Mon " * 99, "every day"):
        refused = await t.cmd(ANN, "clock", "days", days=typed)
        text = answer_text(refused)
        assert refused.ephemeral and text.startswith("❌") and UNEXPECTED not in text and len(text) <= 2000, text
    # windows wholly inside quiet hours are refused: never free to play
    await t.cmd(ANN, "clock", "hours", time_zone="UTC", quiet_from=22, quiet_to=7)
    refused = await t.cmd(ANN, "clock", "days", days="Mon-Sun 23:00-06:00")
    assert "never be free" in answer_text(refused), answer_text(refused)
    assert "Mon 10:00-10:01" in answer_text(await t.cmd(ANN, "clock", "days"))  # the refusal changed nothing


def test_windows_rewritten_at_the_last_hour_win_at_most_a_bounded_delay() -> None:
    """Bob has used 47 of his 48 hours (no windows: all open) and, in the last hour, sets windows
    that leave out the time he already spent: the wait is planned again from its start over the new
    windows, so the hours spent stop counting. Known and not closed here (it needs the moment the
    windows were set, docs/playing-by-chat.md); what bounds it is that the deadline never lands past
    STRETCH times its length from the wait's start."""
    from game.service.clock import Hours, plan_wait
    from game.service.decision import Wait
    from game.service.models import GameClock, PlayerClock

    now = START
    wait = Wait(since=1, holder="222222222222222222", started=now - timedelta(hours=47))
    clock = GameClock(game_id=1, skip_quiet=True, on_deadline="pass")
    before = PlayerClock(user_id="222222222222222222", time_zone="UTC")
    plain = [due for kind, due, _ in plan_wait(now, "B", wait, clock, Hours(12, 48), before) if kind == "deadline"]
    assert plain == [now + timedelta(hours=1)]
    spiteful = PlayerClock(user_id="222222222222222222", time_zone="UTC", windows="Mon 10:00-10:01")
    (due,) = [due for kind, due, _ in plan_wait(now, "B", wait, clock, Hours(12, 48), spiteful) if kind == "deadline"]
    assert now < due <= wait.started + STRETCH * timedelta(hours=48)
