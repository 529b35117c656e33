"""Issue 29, item 3: a start reads no game, and still catches up on everything the old start did by
reading every unfinished game. Each test stores games that need one duty, restarts the bot on the same
database (a new process: a new service and a new bot, `login` running `setup_hook`) and checks that
the duty is done, and done from its table: what was owed Discord (the outbox), a computer captain's
move (the seats), a deadline (the scheduled jobs), a league result a crash kept from being written
(the pairings), a game whose log cannot be read (reported, and the others go on)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, update

from bot.app import QuarterdeckBot
from game.model import Phase
from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.leagues import Leagues
from game.service.models import EventRecord, Snapshot, utcnow
from game.service.repository import Repository
from game.service.scheduler import run_due
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, TOKEN
from tests.bot.test_bot import ANN, BOB, setup_game
from tests.bot.test_outbox_bot import posts_to
from tests.seeds import counting_seeds

GUILD = str(GUILD_ID)
GM = Actor("999", GUILD, gm=True)


@asynccontextmanager
async def restarted(tmp_path: Path, reads: list[int] | None = None) -> AsyncIterator[QuarterdeckBot]:
    """The bot started again on the database the harness's bot wrote (as after a crash); `reads` is
    filled with the id of every game the new process reads from the database."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    service = GameService(engine, seeds=counting_seeds(500))
    if reads is not None:
        load = service.store.repo.load

        async def counted(game_id: int) -> Any:
            reads.append(game_id)
            return await load(game_id)

        service.store.repo.load = counted  # type: ignore[method-assign]
    bot = QuarterdeckBot(service, sync_commands=False, run_scheduler=False)
    try:
        await bot.login(TOKEN)  # setup_hook: the cogs, the buttons… and, before, every game read
        yield bot
    finally:
        await bot.close()
        await engine.dispose()


async def finished_game(bot: QuarterdeckBot) -> int:
    ann, bob = Actor(str(ANN[0]), GUILD), Actor(str(BOB[0]), GUILD)
    info = await bot.service.lobby.create_game(ann, str(OTHER_CHANNEL_ID))
    await bot.service.lobby.join(ann, info.id, "A")
    await bot.service.lobby.join(bob, info.id, "B")
    await bot.service.commands.concede(ann, info.id)
    assert (await bot.service.reading.state_for_audit(info.id)).phase is Phase.OVER
    return info.id


async def test_a_start_reads_no_game_and_its_catch_up_never_a_finished_one(harness: Any, tmp_path: Path) -> None:
    bot, fake = harness
    await setup_game(bot, fake)  # game 1: waits on both players' picks
    over = await finished_game(bot)
    await bot.courier.drain_all()  # its end was posted: nothing is owed for it
    reads: list[int] = []
    async with restarted(tmp_path, reads) as again:
        assert reads == [] and len(again.service.store.cached) == 0  # the bot answers with nothing read
        await again.catch_up()
        assert over not in reads  # a finished game is never read at a start
        assert reads == [1]  # the unfinished one, checked for a move that plays by itself
        assert 1 not in again.service.store.cached  # and not kept: nobody asked for it
        # a command reads its game when it is first needed
        await again.service.commands.pick(Actor(str(ANN[0]), GUILD), 1, "Effective Fire")
        assert reads == [1, 1] and (await again.service.reading.state_for_audit(1)).squadron("A").picked


async def test_posts_a_crash_left_owed_go_out_after_the_start(harness: Any, tmp_path: Path) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    boards = len([r for r in posts_to(fake, CHANNEL_ID) if r.files])
    # committed, and the process dies before posting: only the outbox remembers the board
    outcome = await bot.service.commands.pick(Actor(str(ANN[0]), GUILD), 1, "Effective Fire")
    assert outcome.posts
    async with restarted(tmp_path) as again:
        await again.catch_up()
    assert len([r for r in posts_to(fake, CHANNEL_ID) if r.files]) == boards + 1


async def test_a_captain_a_crash_left_waiting_plays_after_the_start(harness: Any, tmp_path: Path) -> None:
    bot, fake = harness
    ann = Actor(str(ANN[0]), GUILD)
    info = await bot.service.lobby.create_game(ann, str(CHANNEL_ID))
    await bot.service.lobby.join(ann, info.id, "A")
    # the last seat goes to the captain, and the process dies before the captain's first pick
    await bot.service.lobby.join(Actor("0", GUILD), info.id, "B", ai=True)
    assert not (await bot.service.reading.state_for_audit(info.id)).squadron("B").picked
    reads: list[int] = []
    async with restarted(tmp_path, reads) as again:
        assert reads == []
        await again.catch_up()
        assert (await again.service.reading.state_for_audit(info.id)).squadron("B").picked
        assert not (await again.service.reading.state_for_audit(info.id)).squadron("A").picked  # Ann's own


async def test_deadlines_stored_before_the_crash_fall_due_after_the_start(harness: Any, tmp_path: Path) -> None:
    bot, fake = harness
    await setup_game(bot, fake)  # both picks owed: reminders and a deadline each, in scheduled_jobs
    reads: list[int] = []
    async with restarted(tmp_path, reads) as again:
        assert reads == []  # no game was read to plan them again: the scheduler reads its table
        ran = await run_due(again.service.store.repo, {"reminder": again._remind, "deadline": again._deadline},
                            now=utcnow() + timedelta(days=3))
        assert ran == 8  # three reminders and the deadline, for each player
    deadlines = [r.content for r in posts_to(fake, CHANNEL_ID) if r.content.startswith("⌛")]
    assert len(deadlines) == 2 and all(f"<@{u[0]}>" in " ".join(deadlines) for u in (ANN, BOB))


async def test_a_league_result_a_crash_missed_is_recorded_at_the_start(harness: Any, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    bot, fake = harness
    from tests.service.test_leagues import SHORT

    leagues = bot.service.leagues
    await leagues.create(GM, str(CHANNEL_ID), "Crash Cup", scenario="short", scenario_text=SHORT)
    for _ in range(2):
        await leagues.join(GM, "Crash Cup", ai=True)
    (pairing,) = (await leagues.start(GM, "Crash Cup")).started
    game_id = pairing.game_id or 0

    async def unreachable(self: Leagues, game_id: int, state: object) -> None:
        raise ConnectionError("the database went away")

    with monkeypatch.context() as patched:  # the game ends while its result cannot be written
        patched.setattr(Leagues, "_record", unreachable)
        await bot.service.commands.play_ai(game_id, limit=2000)
    assert (await bot.service.reading.state_for_audit(game_id)).phase is Phase.OVER
    assert [p.status for p in (await leagues.show(GUILD, "Crash Cup")).pairings] == ["playing"]
    async with restarted(tmp_path) as again:
        await again.catch_up()  # the round is still open: nobody closed it
        (done,) = (await again.service.leagues.show(GUILD, "Crash Cup")).pairings
        assert done.status == "done" and done.winner is not None or "draw" in done.reason
        assert await again.service.leagues.recover_results() == 0  # recorded once


async def test_a_damaged_game_is_reported_at_the_start_and_the_others_go_on(harness: Any, tmp_path: Path,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    bot, fake = harness
    ann = Actor(str(ANN[0]), GUILD)
    ids = []
    for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):
        info = await bot.service.lobby.create_game(ann, str(channel))
        await bot.service.lobby.join(ann, info.id, "A")
        await bot.service.lobby.join(Actor("0", GUILD), info.id, "B", ai=True)
        ids.append(info.id)
    broken, healthy = ids
    await bot.service.commands.pick(ann, broken, "Effective Fire")  # an event to damage
    repo: Repository = bot.service.store.repo
    last = (await repo.load(broken)).record.last_seq  # type: ignore[union-attr]
    async with repo.session() as s, s.begin():  # a bad restore: its newest event no longer decodes
        await s.execute(delete(Snapshot).where(Snapshot.game_id == broken))  # type: ignore[arg-type]
        await s.execute(update(EventRecord).where(EventRecord.game_id == broken, EventRecord.seq == last)  # type: ignore[arg-type]
                        .values(payload='{"type": "NoSuchEvent"}'))
    caplog.set_level(logging.ERROR)
    async with restarted(tmp_path) as again:  # the start itself reads neither game
        await again.catch_up()
        assert f"game {broken} cannot be rebuilt" in caplog.text and "cannot be read" in caplog.text
        assert (await again.service.reading.state_for_audit(healthy)).squadron("B").picked
