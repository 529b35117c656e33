"""Issue 22, findings 5, 6 and 7 (property 2): a side's clock plan follows its holder, the decision
waited on, extensions, vacations and quiet hours. Played as the opponent whose pick must not undo a
GM's extension, and as the member a side is handed to."""

from __future__ import annotations

from datetime import timedelta

from game.service.authority import Actor
from game.service.models import utcnow
from tests.adversary.clock_jobs import make_due, planned, scheduler_pass
from tests.adversary.eyes import ANN, BOB, GUS, Table, answer_text
from tests.adversary.test_stale_deadline import CARL, both_to_pick
from tests.bot.fake_discord import GUILD_ID

GM = Actor(str(GUS[0]), str(GUILD_ID), gm=True)


def reminders(t: Table, since: int) -> str:
    """The reminders posted in the game's channel since the mark."""
    return "\n".join(line for i in t.public(since) for line in i.text.splitlines() if "⏰" in line)


async def test_the_opponents_pick_keeps_a_gms_extension(table: Table) -> None:
    """Both sides are to pick; a GM extends the deadline by a week; Bob picks. A still waits on the
    same decision, so A's deadline stays where the extension put it."""
    t = table
    await both_to_pick(t)
    before = await planned(t, "deadline", "A")
    answer = answer_text(await t.cmd(GUS, "clock", "extend", hours=168))
    assert "extended by 168 h" in answer, answer
    extended = await planned(t, "deadline", "A")
    assert [due - was for (due, _), (was, _) in zip(extended, before, strict=True)] == [timedelta(hours=168)]
    await t.submit(BOB, "pick B Take Courage")  # the opponent's pick: the game still waits on A's
    assert await planned(t, "deadline", "A") == extended
    assert await planned(t, "deadline", "B") == []  # B is waited on no more


async def test_reminders_after_a_hand_over_ping_the_new_holder(table: Table) -> None:
    """Side A goes from Ann to Carl; the reminder pings Carl, as the side's player, not Ann as a
    stand-in."""
    t = table
    await both_to_pick(t)
    await t.submit(BOB, "pick B Take Courage")
    await t.service.seats.hand_over(GM, 1, str(CARL[0]), CARL[1], "A")
    assert {p["user"] for _, p in await planned(t, "reminder", "A")} == {str(CARL[0])}
    await make_due(t, "reminder", "A")
    mark = t.mark()
    await scheduler_pass(t)
    said = "\n".join(i.text for i in t.public(mark))
    assert f"<@{CARL[0]}>" in said and f"<@{ANN[0]}>" not in said, said
    assert "stand in" not in said, said
    assert "⏰" in said


async def test_a_handed_over_side_does_not_keep_the_old_holders_vacation(table: Table) -> None:
    """Ann is away for 60 days (her clock stops); a GM hands A to Carl: Carl's clock is the game's
    normal one (a deadline 48 hours out, reminders to him)."""
    t = table
    await both_to_pick(t)
    await t.submit(BOB, "pick B Take Courage")
    away = answer_text(await t.cmd(ANN, "clock", "away", days=60))
    assert "Away until" in away, away
    assert (await planned(t, "deadline", "A"))[0][0] > utcnow() + timedelta(days=60)
    await t.service.seats.hand_over(GM, 1, str(CARL[0]), CARL[1], "A")
    deadlines = await planned(t, "deadline", "A")
    assert len(deadlines) == 1
    assert timedelta(hours=47, minutes=55) < deadlines[0][0] - utcnow() <= timedelta(hours=48)
    assert {p["user"] for _, p in await planned(t, "reminder", "A")} == {str(CARL[0])}


async def test_a_substitute_is_told_they_stand_in_and_the_holder_is_not(table: Table) -> None:
    """Ann is away with Carl standing in: Carl's reminder says he stands in; once she is back, the
    reminder pings her as the side's player."""
    t = table
    await both_to_pick(t)
    await t.submit(BOB, "pick B Take Courage")
    await t.service.clock.set_away(Actor(str(ANN[0]), str(GUILD_ID)), utcnow() + timedelta(days=5), "substitute",
                             str(CARL[0]))
    await make_due(t, "reminder", "A")
    mark = t.mark()
    await scheduler_pass(t)
    said = reminders(t, mark)
    assert f"<@{CARL[0]}>: you stand in for player A while their player is away" in said, said
    assert f"<@{ANN[0]}>" not in said, said
    await t.cmd(ANN, "clock", "away", days=0)
    await make_due(t, "reminder", "A")
    mark = t.mark()
    await scheduler_pass(t)
    said = reminders(t, mark)
    assert f"<@{ANN[0]}> (game #1)" in said and "stand in" not in said and f"<@{CARL[0]}>" not in said, said


async def test_new_quiet_hours_move_the_reminders_already_planned(table: Table) -> None:
    """Ann's first reminder falls in the quiet hours she sets after it was planned: it moves to their
    end; her deadline moves on by the quiet hours it now crosses (quiet time does not count against
    her: game/service/availability.py)."""
    t = table
    await both_to_pick(t)
    await t.submit(BOB, "pick B Take Courage")
    first, deadline = (await planned(t, "reminder", "A"))[0][0], (await planned(t, "deadline", "A"))[0][0]
    quiet_from, quiet_to = first.hour, (first.hour + 2) % 24
    answer = answer_text(await t.cmd(ANN, "clock", "hours", time_zone="UTC", quiet_from=quiet_from, quiet_to=quiet_to))
    assert answer.startswith("🕰️"), answer
    moved = (await planned(t, "reminder", "A"))[0][0]
    assert moved.hour == quiet_to and first < moved <= first + timedelta(hours=2)
    late = (await planned(t, "deadline", "A"))[0][0]
    # the wait began 12 hours before the quiet hour its first reminder fell in: each day's quiet hours
    # from that one on, up to the deadline, are two hours more
    nights = sum(1 for d in range(4) if first.replace(minute=0, second=0, microsecond=0) + timedelta(days=d) < deadline)
    assert late - deadline == timedelta(hours=2 * nights), (late, deadline, nights)
