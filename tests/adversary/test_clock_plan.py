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
    await t.service.hand_over(GM, 1, str(CARL[0]), CARL[1], "A")
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
    await t.service.hand_over(GM, 1, str(CARL[0]), CARL[1], "A")
    deadlines = await planned(t, "deadline", "A")
    assert len(deadlines) == 1
    assert timedelta(hours=47, minutes=55) < deadlines[0][0] - utcnow() <= timedelta(hours=48)
    assert {p["user"] for _, p in await planned(t, "reminder", "A")} == {str(CARL[0])}
