"""The game clock: the planned reminders and deadlines (pure), and through the service a GM's
settings, pause, resume and extension, a vacation, and a deadline that acts, each in the game's log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, select

from game import events as ev
from game.ai.captain import Captain
from game.errors import RulesError
from game.model import Phase
from game.phases.flow import deciders
from game.service.clock import Hours, in_quiet, plan_wait, reminder_times
from game.service.decision import Wait
from game.service.game_service import Actor, GameService, NotPermitted
from game.service.models import GameClock, PlayerClock, ScheduledJob

ANN, BOB, GM = Actor("111", "g1"), Actor("222", "g1"), Actor("999", "g1", gm=True)
NOON = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def plan_jobs(clock: GameClock, hours: Hours, member: PlayerClock | None = None,
              extended: int = 0) -> list[tuple[str, datetime, dict[str, object]]]:
    """Side B's plan, held by Bob (222), whose wait began at noon."""
    return plan_wait(NOON, "B", Wait(3, "222", NOON, extended), clock, hours, member)


def test_reminders_escalate_at_half_the_deadline_and_an_hour_before() -> None:
    assert reminder_times(Hours(12, 48)) == [12.0, 24.0, 47.0]
    assert reminder_times(Hours(24, 48)) == [24.0, 47.0]
    assert reminder_times(Hours(1, 2)) == [1.0]


def test_the_plan_for_a_late_player() -> None:
    jobs = plan_jobs(GameClock(game_id=1, on_deadline="captain"), Hours(12, 48))
    assert [(k, due - NOON, p.get("stage"), p.get("action")) for k, due, p in jobs] == [
        ("reminder", timedelta(hours=12), 1, None), ("reminder", timedelta(hours=24), 2, None),
        ("reminder", timedelta(hours=47), 3, None), ("deadline", timedelta(hours=48), None, "captain")]
    assert plan_jobs(GameClock(game_id=1, paused=True), Hours(12, 48)) == []


def test_quiet_hours_hold_pings_and_deadlines_back() -> None:
    night = PlayerClock(user_id="222", time_zone="Europe/Paris", quiet_from=22, quiet_to=8)
    assert in_quiet(datetime(2026, 11, 23, 22, 30, tzinfo=UTC), night)  # 23:30 in Paris
    assert not in_quiet(datetime(2026, 11, 23, 7, 30, tzinfo=UTC), night)  # 08:30 in Paris
    # asked at noon UTC (13:00 in Paris) with a 10-hour reminder: 9 hours run until 22:00 in Paris, the
    # night does not count, and the tenth hour runs from 08:00: 09:00 in Paris (08:00 UTC)
    jobs = plan_jobs(GameClock(game_id=1), Hours(10, 48), night)
    first = jobs[0][1]
    assert first == datetime(2026, 11, 24, 8, 0, tzinfo=UTC)
    # 48 hours of open time: 9 on Monday, 14 each on Tuesday and Wednesday, 11 on Thursday to 19:00 Paris
    assert jobs[-1] == ("deadline", datetime(2026, 11, 26, 18, 0, tzinfo=UTC), {"player": "B", "action": "gm"})
    ignoring = plan_jobs(GameClock(game_id=1, skip_quiet=False), Hours(10, 34), night)
    assert ignoring[-1][1] == NOON + timedelta(hours=34)  # 22:00 UTC, in quiet hours, kept


def test_a_vacation_stops_the_clock_or_hands_the_turn_on() -> None:
    back = NOON + timedelta(days=3)
    stop = PlayerClock(user_id="222", away_until=back, away_mode="stop")
    jobs = plan_jobs(GameClock(game_id=1), Hours(12, 48), stop)
    assert jobs[-1][1] == back + timedelta(hours=48)
    captain = PlayerClock(user_id="222", away_until=back, away_mode="captain")
    assert plan_jobs(GameClock(game_id=1), Hours(12, 48), captain) == [
        ("deadline", NOON, {"player": "B", "action": "captain", "why": "away"})]
    sub = PlayerClock(user_id="222", away_until=back, away_mode="substitute", substitute="444")
    jobs = plan_jobs(GameClock(game_id=1), Hours(12, 48), sub)
    assert {p["user"] for k, _, p in jobs if k == "reminder"} == {"444"} and jobs[-1][1] == NOON + timedelta(hours=48)


async def new_game(service: GameService) -> int:
    info = await service.lobby.create_game(ANN, "chan-1")
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(BOB, info.id, "B", "Bob")
    return info.id


async def pending(service: GameService, gid: int) -> list[tuple[str, datetime, dict[str, object]]]:
    async with service.store.repo.session() as s:
        rows = (await s.execute(select(ScheduledJob).where(ScheduledJob.game_id == gid,
                                                           ScheduledJob.status == "pending"))).scalars().all()
    return sorted(((r.kind, r.due_at.replace(tzinfo=UTC) if r.due_at.tzinfo is None else r.due_at,
                    json.loads(r.payload)) for r in rows), key=lambda j: (j[0], j[1]))


async def clock_log(service: GameService, gid: int) -> list[tuple[str, str, str]]:
    return [(e.change, e.by, e.detail) for _, _, e in await service.store.repo.events(gid) if isinstance(e, ev.ClockChanged)]


async def test_only_a_gm_sets_the_clock_and_every_change_is_logged(service: GameService) -> None:
    gid = await new_game(service)
    with pytest.raises(NotPermitted):
        await service.clock.settings(ANN, gid, deadline_hours=24)
    with pytest.raises(RulesError):
        await service.clock.settings(GM, gid, on_deadline="forfeit")
    await service.clock.settings(GM, gid, reminder_hours=6, deadline_hours=24, on_deadline="captain")
    deadlines = [j for j in await pending(service, gid) if j[0] == "deadline"]
    assert {j[2]["action"] for j in deadlines} == {"captain"} and len(deadlines) == 2  # both still to pick
    await service.clock.pause(GM, gid)
    assert await pending(service, gid) == []
    with pytest.raises(RulesError):
        await service.clock.pause(GM, gid)
    await service.clock.pause(GM, gid, paused=False)
    before = max(j[1] for j in await pending(service, gid) if j[0] == "deadline")
    await service.clock.extend(GM, gid, 5)
    after = max(j[1] for j in await pending(service, gid) if j[0] == "deadline")
    assert after - before == timedelta(hours=5)
    changes = await clock_log(service, gid)
    assert [c for c, _, _ in changes] == ["settings", "paused", "resumed", "extended"]
    assert all(by == GM.user_id for _, by, _ in changes)
    assert changes[0][2] == ("reminder after 6 h, deadline after 24 h; at the deadline the computer captain plays "
                             "the late activation; deadlines wait out quiet hours")
    # the log names the new deadline as data, and its wording says where: no markup is stored
    assert changes[3][2] == "the deadline is extended by 5 h (now {until})"
    (extended,) = [e for _, _, e in await service.store.repo.events(gid) if isinstance(e, ev.ClockChanged)
                   and e.change == "extended"]
    assert datetime.fromisoformat(extended.until) == after.replace(microsecond=0)  # stored to the second


async def test_a_deadline_lets_the_computer_captain_play_the_late_player(service: GameService) -> None:
    gid = await new_game(service)
    await service.clock.settings(GM, gid, on_deadline="captain")
    await service.commands.pick(ANN, gid, "Effective Fire")
    assert deciders(await service.reading.state_for_audit(gid)) == {"B"}
    assert await service.clock.on_deadline(gid, "A") is None  # A is not holding the game up
    done = await service.clock.on_deadline(gid, "B")
    assert done is not None and done.text == ("⌛ Player B's deadline has passed: the computer captain plays the late "
                                              "activation")
    assert "B" not in deciders(await service.reading.state_for_audit(gid)) or (await service.reading.state_for_audit(gid)).turn == 1
    log = [e for _, _, e in await service.store.repo.events(gid)]
    picked = [e for e in log if isinstance(e, ev.CardPicked)]
    assert [e.player for e in picked] == ["A", "B"]
    assert any(isinstance(e, ev.ClockChanged) and e.change == "deadline" for e in log)


async def test_a_deadline_that_passes_the_activation(service: GameService) -> None:
    gid = await new_game(service)
    actors = {"A": ANN, "B": BOB}
    state = await service.reading.state_for_audit(gid)
    while state.phase is not Phase.MOVEMENT:  # both sides pick, for the set-up and for turn 1
        p = sorted(deciders(state))[0]
        await service.commands.submit(actors[p], gid, Captain(p, 1).act(state))
        state = await service.reading.state_for_audit(gid)
    late = next(iter(deciders(state)))
    await service.clock.settings(GM, gid, on_deadline="pass")
    done = await service.clock.on_deadline(gid, late)
    assert done is not None and len(done.outcomes) >= 2
    moved = [e for _, _, e in await service.store.repo.events(gid) if isinstance(e, ev.ShipMoved)]
    assert len(moved) == 1 and moved[0].ship in {s.id for s in state.ships_of(late)}  # straight on, or held


async def test_a_vacation_is_logged_in_each_game(service: GameService) -> None:
    gid = await new_game(service)
    back = datetime.now(UTC) + timedelta(days=2)
    games = await service.clock.set_away(BOB, back, "stop")
    assert games == [gid]
    deadlines = [j for j in await pending(service, gid) if j[0] == "deadline" and j[2]["player"] == "B"]
    assert deadlines and deadlines[0][1] >= back + timedelta(hours=47)
    await service.clock.set_away(BOB, None)
    assert [c for c, _, _ in await clock_log(service, gid)] == ["away", "away"]
    assert "is away until" in (await clock_log(service, gid))[0][2]
    with pytest.raises(RulesError):
        await service.clock.set_away(BOB, back, "substitute")
    assert await service.clock.set_hours(BOB, "Europe/Paris", 22, 7) == "Europe/Paris, quiet 22:00–7:00"
    with pytest.raises(RulesError):
        await service.clock.set_hours(BOB, "Mars/Olympus")


async def test_a_job_from_before_jobs_named_their_decision_only_plans_the_clock_again(service: GameService) -> None:
    """A deadline planned before migration 0011 names no decision: when it falls due it plays nothing
    and the game's sides get jobs that name theirs."""
    from game.service.scheduler import schedule

    gid = await new_game(service)
    await service.clock.settings(GM, gid, on_deadline="captain")
    async with service.store.repo.session() as s, s.begin():
        await s.execute(delete(ScheduledJob).where(ScheduledJob.game_id == gid))  # type: ignore[arg-type]
    await schedule(service.store.repo, "deadline", datetime.now(UTC) - timedelta(minutes=1), gid,
                   {"player": "A", "action": "captain"})
    async with service.store.repo.session() as s:
        old = (await s.execute(select(ScheduledJob).where(ScheduledJob.game_id == gid))).scalars().one()
    assert await service.clock.due_deadline(old) is None
    assert await service.clock.due_reminder(old) is None
    async with service.store.repo.session() as s:
        rows = (await s.execute(select(ScheduledJob).where(ScheduledJob.game_id == gid,
                                                           ScheduledJob.status == "pending"))).scalars().all()
    assert not [e for _, _, e in await service.store.repo.events(gid) if isinstance(e, ev.CardPicked)]
    assert sorted((r.kind, r.player) for r in rows if r.kind == "deadline") == [("deadline", "A"), ("deadline", "B")]
    assert {(r.player, r.holder, r.since) for r in rows} == {("A", ANN.user_id, 0), ("B", BOB.user_id, 0)}
