"""Issue 22, finding 3 (property 1): a scheduled action names the decision it was planned for and acts
only while the game still waits on exactly that decision. Played as a scheduler that claimed a job and
died, and the scheduler that takes the job over once the lease has run out."""

from __future__ import annotations

from datetime import timedelta

from game import events as ev
from game.service.authority import Actor
from game.service.models import utcnow
from tests.adversary.clock_jobs import claim_and_die, make_due, planned, scheduler_pass
from tests.adversary.eyes import ANN, BOB, GUS, Table
from tests.adversary.test_referee_secrets import sealed_game
from tests.adversary.test_sweep import make_gm_role
from tests.bot.fake_discord import GUILD_ID

CARL = (444444444444444444, "Carl")  # the member a GM hands side A to
UMA = (444444444444444444, "Uma")  # the referee's seat in sealed_game


async def both_to_pick(t: Table) -> None:
    await make_gm_role(t)
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    await t.cmd(GUS, "clock", "settings", on_deadline="captain")


async def deadline_events(t: Table) -> list[str]:
    return [e.detail for e in await t.log_events() if isinstance(e, ev.ClockChanged) and e.change == "deadline"]


async def test_a_stale_deadline_does_not_play_for_a_player_who_played(table: Table) -> None:
    """A's deadline is claimed by a scheduler that dies; Ann picks in time and the game waits for her
    next pick with a fresh deadline; the old job, run after the lease, plays nothing for A."""
    t = table
    await both_to_pick(t)
    await t.submit(BOB, "pick B Take Courage")
    await make_due(t, "deadline", "A")
    claimed = await claim_and_die(t)
    assert [j.kind for j in claimed] == ["deadline"]
    await t.submit(ANN, "pick A Down!")  # in time: the set-up's pick; turn 1's pick is A's next decision
    state = await t.state()
    assert state.turn == 1 and not state.squadron("A").picked
    fresh = await planned(t, "deadline", "A")
    assert len(fresh) == 1 and fresh[0][0] > utcnow() + timedelta(hours=47)
    mark = t.mark()
    await scheduler_pass(t, after_lease=True)
    after = await t.state()
    assert not after.squadron("A").picked, "the stale deadline picked A's card"
    assert await deadline_events(t) == []
    assert "deadline has passed" not in "\n".join(i.text for i in t.public(mark))
    assert await planned(t, "deadline", "A") == fresh  # Ann's own deadline stands


async def test_a_stale_deadline_does_not_act_for_the_side_after_a_hand_over(table: Table) -> None:
    """Ann's deadline is claimed by a scheduler that dies; a GM hands A to Carl, whose clock starts
    afresh; the old job, run after the lease, neither acts for A nor tells the channel A was late."""
    t = table
    await both_to_pick(t)
    await t.submit(BOB, "pick B Take Courage")
    await make_due(t, "deadline", "A")
    await claim_and_die(t)
    gm = Actor(str(GUS[0]), str(GUILD_ID), gm=True)
    await t.service.seats.hand_over(gm, 1, str(CARL[0]), CARL[1], "A")
    mark = t.mark()
    await scheduler_pass(t, after_lease=True)
    assert not (await t.state()).squadron("A").picked, "the stale deadline picked for Carl"
    assert await deadline_events(t) == []
    assert "deadline has passed" not in "\n".join(i.text for i in t.public(mark))


async def test_a_stale_referee_reminder_pings_nobody(table: Table) -> None:
    """A referee assistant's game (WS&IM): the British plot's reminder is claimed by a scheduler that
    dies; Ann plots in time, and the game waits on the umpire; the old reminder, run after the lease,
    pings nobody. A reminder planned for the wait that goes on still pings its holder."""
    t = table
    await sealed_game(t)  # Bob has plotted: the game waits on Ann's British plot
    await make_due(t, "reminder", "p1")  # jobs name a seat by its key: British holds p1
    assert [j.kind for j in await claim_and_die(t)] == ["reminder"]
    await t.cmd(ANN, "ref", "order", line="plot Victory 1")
    mark = t.mark()
    await scheduler_pass(t, after_lease=True)
    assert not [i.text for i in t.public(mark) if f"<@{ANN[0]}>" in i.text], "the stale reminder pinged Ann"
    await make_due(t, "reminder", "ref")  # the umpire's seat
    await scheduler_pass(t)
    assert [i.text for i in t.public(mark) if f"<@{UMA[0]}>" in i.text], "the umpire's own reminder went missing"
