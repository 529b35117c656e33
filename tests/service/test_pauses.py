"""A pause by consent through the service (game/service/pauses.py): asked by a player, agreed by every
other human player, or made by a GM alone; the time left on each wait kept and given back on resume;
the pause's end as a job that a new service over the same store runs; refusals for everyone else."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from game import events as ev
from game.service.decision import decode_waits, encode_waits
from game.service.errors import AlreadyDecided, NotPermitted, NotSeated, ServiceRefusal
from game.service.game_service import Actor, GameService
from game.service.models import GameRecord, ScheduledJob
from game.service.scheduler import Job
from tests.service.conftest import counting_seeds
from tests.service.test_clock import ANN, BOB, GM, new_game, pending

EVE = Actor("555", "g1")


async def changes(service: GameService, gid: int) -> list[str]:
    return [e.change for _, _, e in await service.store.repo.events(gid) if isinstance(e, ev.ClockChanged)]


async def age_waits(service: GameService, gid: int, hours: float) -> None:
    """Every wait of the game began `hours` ago (as if nobody had played for that long)."""
    async with service.store.repo.session() as s, s.begin():
        row = (await s.execute(select(GameRecord).where(GameRecord.id == gid))).scalars().one()  # type: ignore[arg-type]
        waits = {p: w.__class__(w.since, w.holder, w.started - timedelta(hours=hours), w.extended, w.used)
                 for p, w in decode_waits(row.waits).items()}
        await s.execute(update(GameRecord).where(GameRecord.id == gid)  # type: ignore[arg-type]
                        .values(waits=encode_waits(waits), version=row.version + 1))
    service.store.forget(gid)
    await service.clock.plan_afresh(gid)


def deadline_of(jobs: list[tuple[str, datetime, dict[str, object]]], side: str) -> datetime:
    (due,) = [d for k, d, p in jobs if k == "deadline" and p["player"] == side]
    return due


async def test_both_players_consent_and_the_time_left_comes_back(service: GameService) -> None:
    gid = await new_game(service)
    await service.clock.settings(GM, gid, deadline_hours=24)
    await age_waits(service, gid, 10)  # 14 hours left to both
    asked = await service.pauses.ask(ANN, gid, None, "  a family   wedding ")
    assert not asked.paused and asked.asked == (BOB.user_id,) and asked.proposal is not None
    assert [k for k, _, _ in await pending(service, gid)].count("deadline") == 2  # nothing stops until Bob agrees
    with pytest.raises(NotPermitted, match="You asked for this pause"):
        await service.pauses.answer(ANN, gid, asked.proposal, True)
    with pytest.raises(NotPermitted, match="Only the game's other players"):
        await service.pauses.answer(EVE, gid, asked.proposal, True)
    with pytest.raises(AlreadyDecided):
        await service.pauses.answer(BOB, gid, asked.proposal - 1, True)  # an older request's button
    done = await service.pauses.answer(BOB, gid, asked.proposal, True)
    assert done.paused and await pending(service, gid) == []
    clock = await service.clock.paused(gid)
    assert clock.paused and clock.pause_kind == "consent" and clock.pause_reason == "a family wedding"
    with pytest.raises(AlreadyDecided):  # the same button again: the request is settled
        await service.pauses.answer(BOB, gid, asked.proposal, True)
    # a pause of days: the clock kept what it had spent, whatever the wall clock did meanwhile
    async with service.store.repo.session() as s, s.begin():
        from game.service.models import GameClock
        await s.execute(update(GameClock).where(GameClock.game_id == gid)  # type: ignore[arg-type]
                        .values(paused_at=datetime.now(UTC) - timedelta(days=3)))
    await age_waits(service, gid, 24 * 3)  # the waits began 10 hours before the pause
    await service.pauses.resume(BOB, gid)
    now = datetime.now(UTC)
    for side in ("A", "B"):
        left = deadline_of(await pending(service, gid), side) - now
        assert timedelta(hours=14) - timedelta(minutes=1) < left <= timedelta(hours=14), left
    assert await changes(service, gid) == ["settings", "pause asked", "paused", "resumed"]
    with pytest.raises(ServiceRefusal, match="not paused"):
        await service.pauses.resume(ANN, gid)


async def test_a_decline_ends_the_request_and_the_clock_runs_on(service: GameService) -> None:
    gid = await new_game(service)
    asked = await service.pauses.ask(BOB, gid, 12)
    with pytest.raises(ServiceRefusal, match="already asked"):
        await service.pauses.ask(BOB, gid)
    with pytest.raises(ServiceRefusal, match="already asked"):
        await service.pauses.ask(ANN, gid)
    assert asked.proposal is not None
    declined = await service.pauses.answer(ANN, gid, asked.proposal, False)
    assert not declined.paused and not declined.asked
    assert not (await service.clock.paused(gid)).paused and len(await pending(service, gid)) > 0
    with pytest.raises(AlreadyDecided):
        await service.pauses.answer(ANN, gid, asked.proposal, True)
    assert await changes(service, gid) == ["pause asked", "pause declined"]


async def test_a_gm_pauses_alone_and_only_a_gm_resumes_it(service: GameService) -> None:
    gid = await new_game(service)
    with pytest.raises(NotSeated):
        await service.pauses.ask(EVE, gid)
    done = await service.pauses.ask(GM, gid, 2, "server move")
    assert done.paused and [k for k, _, _ in await pending(service, gid)] == ["pause_end"]
    for player in (ANN, BOB):
        with pytest.raises(NotPermitted, match="A GM paused this game"):
            await service.pauses.resume(player, gid)
    with pytest.raises(NotSeated):
        await service.pauses.resume(EVE, gid)
    await service.pauses.resume(GM, gid)
    assert [k for k, _, _ in await pending(service, gid)].count("deadline") == 2


async def test_the_pauses_end_is_a_job_a_new_service_runs(service: GameService, db_url: str) -> None:
    from tests.service.conftest import make_engine

    gid = await new_game(service)
    asked = await service.pauses.ask(ANN, gid, 6)
    assert asked.proposal is not None
    engine = make_engine(db_url)
    try:
        restarted = GameService(engine, seeds=counting_seeds(500))
        await restarted.pauses.answer(BOB, gid, asked.proposal, True)  # the request was stored, not kept in memory
        async with restarted.store.repo.session() as s:
            row = (await s.execute(select(ScheduledJob).where(ScheduledJob.game_id == gid,  # type: ignore[arg-type]
                                                              ScheduledJob.kind == "pause_end"))).scalars().one()
        due = row.due_at.replace(tzinfo=UTC) if row.due_at.tzinfo is None else row.due_at
        assert abs(due - (datetime.now(UTC) + timedelta(hours=6))) < timedelta(minutes=1)
        job = Job.of(row)
        assert await restarted.pauses.ended(job) is not None
        assert not (await restarted.clock.paused(gid)).paused
        assert [k for k, _, _ in await pending(restarted, gid)].count("deadline") == 2
        assert await restarted.pauses.ended(job) is None  # its pause is over: a second run does nothing
        # nor does the end of an older pause end a newer one
        await restarted.pauses.ask(GM, gid)
        assert await restarted.pauses.ended(job) is None and (await restarted.clock.paused(gid)).paused
        assert json.loads(row.payload)["paused_at"]
    finally:
        await engine.dispose()


async def test_moves_go_on_while_the_clock_is_paused(service: GameService) -> None:
    gid = await new_game(service)
    await service.pauses.ask(GM, gid)
    await service.commands.pick(ANN, gid, "Effective Fire")  # a pause stops the clock, not play
    assert await pending(service, gid) == []  # and plans no deadline for whoever the game waits for now
    await service.pauses.resume(GM, gid)
    assert [p["player"] for k, _, p in await pending(service, gid) if k == "deadline"] == ["B"]


async def test_against_the_computer_captain_a_pause_is_made_at_once(service: GameService) -> None:
    info = await service.lobby.create_game(ANN, "chan-9")
    await service.lobby.join(ANN, info.id, "A", "Ann")
    await service.lobby.join(GM, info.id, "B", "Captain", ai=True)
    done = await service.pauses.ask(ANN, info.id, None, "")
    assert done.paused and done.proposal is None and "computer captain agrees" in done.text
    await service.pauses.resume(ANN, info.id)  # a pause the players made: a player resumes it


async def test_new_clock_settings_give_a_resumed_wait_its_whole_time_again(service: GameService) -> None:
    gid = await new_game(service)
    await service.clock.settings(GM, gid, deadline_hours=24)
    await age_waits(service, gid, 20)
    await service.pauses.ask(GM, gid)
    await service.pauses.resume(GM, gid)
    now = datetime.now(UTC)
    assert deadline_of(await pending(service, gid), "A") - now < timedelta(hours=4, minutes=1)
    await service.clock.settings(GM, gid, deadline_hours=24)  # "the clock starts afresh", as it always did
    assert deadline_of(await pending(service, gid), "A") - now > timedelta(hours=23, minutes=59)


async def test_the_end_of_a_pause_in_a_game_that_ended_meanwhile_does_nothing(service: GameService) -> None:
    gid = await new_game(service)
    await service.pauses.ask(GM, gid, 1)
    async with service.store.repo.session() as s:
        row = (await s.execute(select(ScheduledJob).where(ScheduledJob.game_id == gid,  # type: ignore[arg-type]
                                                          ScheduledJob.kind == "pause_end"))).scalars().one()
    await service.commands.concede(BOB, gid)  # moves (a concession too) go on while paused
    logged = len(await service.store.repo.events(gid))
    assert await service.pauses.ended(Job.of(row)) is None
    assert len(await service.store.repo.events(gid)) == logged
