"""Issue 23, item 5: the referee systems served by the one game service. Their games live in the
game store (its cache, its locks, its writer, its snapshots), show in /mygames, change hands, and
have the clock's reminders (members' vacations kept), with no deadline that acts: nobody may play
for an absent seat in these games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from game.service.authority import Actor
from game.service.errors import NotSeated, SeatTaken
from game.service.game_service import GameService
from game.service.models import ScheduledJob, Snapshot
from tests.service.test_referee_service import BRIT, FRENCH, STRANGER, UMPIRE, G, to_plots, wsim_game

NEWCOMER = Actor("7", G)


async def jobs(service: GameService, gid: int) -> list[ScheduledJob]:
    async with service.store.repo.session() as s:
        return list((await s.execute(select(ScheduledJob).where(
            ScheduledJob.game_id == gid, ScheduledJob.status == "pending"))).scalars())


async def test_a_referee_game_lives_in_the_one_store(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    for _ in range(12):
        await ref.submit(UMPIRE, gid, "roll 2d6")
    assert gid in service.store.cached  # one cache for every system
    assert (await service.store.load_any(gid)).record.system == "wsim"
    async with service.store.repo.session() as s:  # the store's snapshots, every 10 events here
        marks = list((await s.execute(select(Snapshot.seq).where(Snapshot.game_id == gid))).scalars())
    assert marks == [10]
    fresh = await GameService(service.store.repo.engine).referee._load(gid)  # from the snapshot and after
    assert fresh.state == (await ref._load(gid)).state


async def test_my_games_lists_referee_games_by_their_seats_names(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    await to_plots(ref, gid)
    [mine] = await service.lobby.my_games(FRENCH.user_id)
    assert (mine.id, mine.phase, mine.waiting_on_me) == (gid, "D", ("French",))
    await ref.submit(FRENCH, gid, "plot Redoutable L1R1")
    [mine] = await service.lobby.my_games(FRENCH.user_id)
    assert mine.waiting_on_me == ()
    assert [g.waiting_on_me for g in await service.lobby.my_games(BRIT.user_id)] == [("British",)]


async def test_a_seat_changes_hands_and_its_reminder_follows(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    await to_plots(ref, gid)
    french = {j.player: j.holder for j in await jobs(service, gid)}
    assert french == {"p1": BRIT.user_id, "p2": FRENCH.user_id}
    with pytest.raises(NotSeated):  # another player's seat is not theirs to give
        await ref.hand_over(BRIT, gid, "French", NEWCOMER.user_id, "newcomer")
    with pytest.raises(NotSeated):  # nor a stranger's
        await ref.hand_over(STRANGER, gid, "French", STRANGER.user_id, "stranger")
    with pytest.raises(SeatTaken, match="already holds a seat"):  # one seat per person
        await ref.hand_over(FRENCH, gid, None, BRIT.user_id, "brit")
    out = await ref.hand_over(FRENCH, gid, None, NEWCOMER.user_id, "newcomer")
    assert out.public == ("The seat of French is handed to newcomer.",)
    assert ("French", NEWCOMER.user_id) in [(n, u) for n, u, _ in out.info.seats]
    assert {j.player: j.holder for j in await jobs(service, gid)}["p2"] == NEWCOMER.user_id
    with pytest.raises(NotSeated):
        await ref.submit(FRENCH, gid, "plot Redoutable L1R1")  # the old holder no longer plays it
    await ref.submit(NEWCOMER, gid, "plot Redoutable L1R1")
    # the referee may give any seat, and a GM of the server too
    await ref.hand_over(UMPIRE, gid, "british", FRENCH.user_id, "back again")
    await ref.hand_over(Actor(STRANGER.user_id, G, gm=True), gid, "French", STRANGER.user_id, "gm's pick")
    with pytest.raises(NotSeated):
        await ref.submit(NEWCOMER, gid, "roll 2d6")  # holds no seat now: refused before any dice
    info = await ref.info(gid)
    assert [(n, u) for n, u, _ in info.seats] == [("British", FRENCH.user_id), ("French", STRANGER.user_id),
                                                 ("Umpire", UMPIRE.user_id)]


async def test_reminders_keep_members_hours_and_no_deadline_acts(service: GameService) -> None:
    ref, gid = await wsim_game(service)
    await to_plots(ref, gid)
    planned = await jobs(service, gid)
    assert {j.kind for j in planned} == {"reminder"} and len(planned) == 2  # one reminder a seat, no deadline
    reminder = next(j for j in planned if j.player == "p2")
    due = await service.clock.due_reminder(reminder)
    assert due is not None and (due.user, due.stand_in) == (FRENCH.user_id, False)
    back = datetime.now(UTC) + timedelta(days=3)
    assert gid in await service.clock.set_away(FRENCH, back, "captain")  # no captain plays a referee seat
    moved = next(j for j in await jobs(service, gid) if j.player == "p2")
    assert moved.kind == "reminder" and moved.due_at.replace(tzinfo=UTC) > back  # the clock stops meanwhile
    await ref.submit(FRENCH, gid, "plot Redoutable L1R1")
    assert {j.player for j in await jobs(service, gid)} == {"p1"}


async def test_a_damaged_referee_game_is_reported_at_start_and_never_crashes(service: GameService) -> None:
    from sqlalchemy import delete, update

    from game.service.errors import GameDamaged
    from game.service.models import EventRecord

    ref, gid = await wsim_game(service)
    await to_plots(ref, gid)
    oak = await service.lobby.create_game(BRIT, "oak-channel")
    async with service.store.repo.session() as s, s.begin():  # no snapshot to load past the damage
        await s.execute(delete(Snapshot).where(Snapshot.game_id == gid))  # type: ignore[arg-type]
        await s.execute(update(EventRecord).where(EventRecord.game_id == gid, EventRecord.seq == 2)  # type: ignore[arg-type]
                        .values(payload='{"type": "NoSuchEvent"}'))
    report = await service.audit.rebuild_all()
    assert [g for g, _ in report.damaged] == [gid] and report.loaded == 1  # the Oak & Iron game loads
    with pytest.raises(GameDamaged, match="cannot be read"):
        await ref.info(gid)
    assert (await service.lobby.info(oak.id)).id == oak.id
