"""Two processes' worth of service (separate caches, locks and connection pools) on one database:
each reads what the other wrote, and two members racing for one side cannot both sit in it."""

from __future__ import annotations

import asyncio

import pytest

from game.errors import RulesError
from game.service.game_service import Actor, GameService, SeatTaken, ServiceError

ANN, BOB, CY = Actor("111", "g1"), Actor("222", "g1"), Actor("444", "g1")


async def test_each_process_reads_what_the_other_wrote(two: list[GameService]) -> None:
    first, second = two
    info = await first.lobby.create_game(ANN, "chan-1")
    await second.reading.view(BOB, info.id)  # the second process now holds the game in its cache
    await first.lobby.join(ANN, info.id, "A", "Ann")
    await first.lobby.join(BOB, info.id, "B", "Bob")
    seats = {s.player: s.user_id for s in (await second.lobby.info(info.id)).seats}
    assert seats == {"A": "111", "B": "222"}
    await second.commands.submit(BOB, info.id, "pick B Take Courage")
    before = await first.reading.view(ANN, info.id)
    assert before.game.squadron("B").picked and before.game.squadron("B").face_up is None  # picked, face down
    await first.commands.submit(ANN, info.id, "pick A Effective Fire")  # decided on the state with B's pick in it
    after = await second.reading.view(BOB, info.id)
    assert after.game.squadron("A").face_up == "Effective Fire" and after.game.squadron("B").face_up == "Take Courage"


async def test_two_members_racing_for_one_side_are_not_both_seated(two: list[GameService]) -> None:
    first, second = two
    info = await first.lobby.create_game(ANN, "chan-1")
    await second.reading.view(CY, info.id)

    async def take(service: GameService, actor: Actor, name: str) -> str:
        try:
            await service.lobby.join(actor, info.id, "A", name)
        except (SeatTaken, ServiceError, RulesError) as exc:
            return f"refused: {exc}"
        return "seated"

    results = await asyncio.gather(take(first, BOB, "Bob"), take(second, CY, "Cy"))
    assert sorted(r.split(":")[0] for r in results) == ["refused", "seated"], results
    winner = "222" if results[0] == "seated" else "444"
    for service in two:
        seats = {s.player: s.user_id for s in (await service.lobby.info(info.id)).seats}
        assert seats["A"] == winner


async def test_a_game_made_by_the_other_process_is_found_and_keeps_the_channel_busy(two: list[GameService]) -> None:
    first, second = two
    assert await second.lobby.game_in_channel("g1", "chan-9") is None  # looked up before there was a game
    made = await first.lobby.create_game(ANN, "chan-9")
    found = await second.lobby.game_in_channel("g1", "chan-9")
    assert found is not None and found.id == made.id
    with pytest.raises(RulesError, match="already has a game"):
        await second.lobby.create_game(BOB, "chan-9")


async def test_two_processes_driving_one_computer_captain_play_each_move_once(two: list[GameService]) -> None:
    first, second = two
    info = await first.lobby.create_game(ANN, "chan-3")
    await first.lobby.join(ANN, info.id, "A", ai=True)
    await first.lobby.join(BOB, info.id, "B", ai=True)
    await asyncio.gather(first.commands.play_ai(info.id, limit=30), second.commands.play_ai(info.id, limit=30))
    report = await second.audit.check(info.id)
    assert report.ok, report.mismatches
    # every command in the log was decided from the position just before it: none was played twice
    logged = await second.store.repo.events(info.id)
    commands = sorted({c for _, c, _ in logged})
    assert commands == list(range(1, len(commands) + 1))
    alone = await two[0].reading.state_for_audit(info.id)
    assert alone.log_position == logged[-1][0]


async def test_a_clock_set_in_one_process_plans_the_deadlines_the_other_writes(two: list[GameService]) -> None:
    from datetime import timedelta

    from game.service.models import utcnow

    first, second = two
    gm = Actor("999", "g1", gm=True)
    info = await first.lobby.create_game(ANN, "chan-1")
    await first.lobby.join(ANN, info.id, "A", "Ann")
    await first.lobby.join(BOB, info.id, "B", "Bob")
    for member in (ANN, BOB):  # the second process holds both members' hours, fresh
        await second.clock.set_hours(member, time_zone="UTC")
    await second.commands.submit(BOB, info.id, "pick B Take Courage")  # and the game and its clock
    await first.clock.settings(gm, info.id, deadline_hours=100)
    # the second decides on its stale copy, fails at the commit, reads the game (and its clock) again
    await second.commands.submit(ANN, info.id, "pick A Effective Fire")
    due = await second.store.repo.next_deadline(info.id)
    assert due is not None and due - utcnow() > timedelta(hours=99)
