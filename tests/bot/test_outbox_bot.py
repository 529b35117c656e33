"""Issue 13, item 2: posting never loses a message. What the bot owes Discord for a game is written with
the game's events (the outbox) and delivered by the courier, through a partial messageable, in order,
retried after server errors and rate limits, after a crash too; the game goes on whatever the posts do."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import QuarterdeckBot
from game.ai.captain import Captain
from game.phases.flow import deciders
from game.service import outbox
from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.models import OutboxRow, ScheduledJob, utcnow
from game.service.scheduler import run_due
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, TOKEN, FakeDiscord, Sent, command, dispatch
from tests.bot.test_bot import ANN, BOB, USERS, act_as, pick, setup_game
from tests.seeds import counting_seeds

CAT = (333333333333333333, "Cat")
LATER = timedelta(minutes=15)  # past every backoff a single failure earns


async def rows(bot: QuarterdeckBot, game_id: int = 1) -> list[OutboxRow]:
    async with bot.service.store.repo.session() as s:
        return await outbox.rows_of(s, game_id)


def posts_to(fake: FakeDiscord, channel: int | str) -> list[Sent]:
    """The posts Discord accepted in this channel (a refused one made no message)."""
    return [r for r in fake.requests if r.in_channel and r.path.split("/")[4] == str(channel)
            and r.response_message_id]


def dms(fake: FakeDiscord) -> list[Sent]:
    return [r for r in fake.requests if r.in_channel and r.path.split("/")[4] in fake.dm_channels.values()]


async def thread_game(bot: Any, fake: Any) -> tuple[dict[str, Any], int]:
    """A game in its own thread, both sides taken: the thread and its id."""
    await dispatch(bot, command(ANN, "game", "create", thread=True), fake)
    [thread] = fake.threads()
    tid = int(thread["id"])
    await dispatch(bot, command(ANN, "game", "join", side="A", channel_id=tid), fake)
    await dispatch(bot, command(BOB, "game", "join", side="B", channel_id=tid), fake)
    return thread, tid


async def test_an_archived_thread_game_gets_its_reminder_and_deadline(harness: Any) -> None:
    bot, fake = harness
    thread, tid = await thread_game(bot, fake)
    fake.archive(tid)
    assert bot.get_channel(tid) is None  # what `_ping` used to look for: not cached, so the notice was lost
    ran = await run_due(bot.service.store.repo, {"reminder": bot._remind, "deadline": bot._deadline},
                        now=utcnow() + timedelta(days=3))
    # for each player who owes a pick: three reminders closing in on the deadline (docs/playing-by-chat.md)
    # and the deadline itself
    assert ran == 8
    texts = [r.content for r in posts_to(fake, tid)]
    for user in (ANN, BOB):
        mine = [t for t in texts if f"<@{user[0]}>" in t]
        assert sum("reminder" in t.lower() for t in mine) == 3 and sum(t.startswith("⌛") for t in mine) == 1, texts
    assert not thread["thread_metadata"]["archived"]  # posting reopened it
    pings = [r for r in await rows(bot) if r.kind == "notice"]
    assert len(pings) == 8 and all(r.status == "done" and r.attempts == 1 for r in pings)


async def test_a_ping_to_a_locked_thread_is_recorded_not_retried_forever(harness: Any) -> None:
    bot, fake = harness
    _, tid = await thread_game(bot, fake)
    fake.archive(tid, locked=True)
    await run_due(bot.service.store.repo, {"reminder": bot._remind}, now=utcnow() + timedelta(hours=13))
    [*_, ping] = [r for r in await rows(bot) if r.kind == "notice"]
    assert ping.status == "failed" and "50083" in ping.last_error and ping.attempts == 1
    async with bot.service.store.repo.session() as s:
        jobs = (await s.execute(select(ScheduledJob).where(ScheduledJob.kind == "reminder"))).scalars().all()
    # the first reminders ran and handed their pings to the outbox, which keeps the failure; the later
    # reminders are not due yet
    assert sorted(j.status for j in jobs) == ["done", "done", "pending", "pending", "pending", "pending"]
    before = len(fake.requests)
    assert await bot.courier.drain(1, now=utcnow() + timedelta(days=1)) == 0
    assert not [r for r in fake.requests[before:] if "Reminder" in r.content]


async def test_a_503_on_the_board_post_is_retried_and_delivered_once_in_order(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await pick(bot, fake, ANN, "Effective Fire")
    failure = fake.fail(f"/channels/{CHANNEL_ID}/messages", 503)
    await pick(bot, fake, BOB, "Take Courage")  # the reveal's board: refused once
    assert failure.failed == 1
    assert not [r for r in posts_to(fake, CHANNEL_ID) if "Revealed" in r.content]
    state = await bot.service.reading.state_for_audit(1)
    player = sorted(deciders(state))[0]
    await act_as(bot, fake, USERS[player], Captain(player, 4).act(state), state)  # its board waits behind
    reveal, nxt = [r for r in await rows(bot) if r.kind == "board"][-2:]
    assert reveal.status == "pending" and reveal.attempts == 1 and "503" in reveal.last_error
    assert nxt.status == "pending" and nxt.attempts == 0
    mark = len(fake.requests)
    assert await bot.courier.drain(1, now=utcnow() + LATER) >= 1
    late = [r for r in fake.requests[mark:] if r in posts_to(fake, CHANNEL_ID)]
    # one post tells both, in the order of play, under the newest board
    assert len(late) == 1 and late[0].files, late[0].content
    assert "Revealed" in late[0].content
    assert [r.status for r in await rows(bot) if r.id == nxt.id] == ["superseded"]
    assert sum("Revealed" in r.content for r in posts_to(fake, CHANNEL_ID)) == 1
    assert all(r.status in ("done", "superseded") for r in await rows(bot))
    assert await bot.courier.drain(1, now=utcnow() + 2 * LATER) == 0


async def test_a_long_429_is_honoured_then_the_board_goes_out(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "game", "create"), fake)
    await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    fake.fail(f"/channels/{CHANNEL_ID}/messages", 429, retry_after=120.0)  # longer than the bot sleeps in place
    start = utcnow()
    await dispatch(bot, command(BOB, "game", "join", side="B"), fake)
    [board] = [r for r in await rows(bot) if r.kind == "board"]
    assert board.status == "pending" and "RateLimited" in board.last_error
    wait = outbox._aware(board.next_try_at) - start  # type: ignore[operator]
    assert timedelta(seconds=115) < wait < timedelta(seconds=140)
    assert await bot.courier.drain(1, now=start + timedelta(seconds=60)) == 0  # not before Discord said
    assert not [r for r in posts_to(fake, CHANNEL_ID) if r.files]
    assert await bot.courier.drain(1, now=start + timedelta(seconds=150)) == 1
    assert len([r for r in posts_to(fake, CHANNEL_ID) if r.files]) == 1


async def test_a_crash_between_the_commit_and_the_post_still_delivers(harness: Any, tmp_path: Path) -> None:
    bot, fake = harness
    await setup_game(bot, fake)

    def boards() -> int:
        return len([r for r in posts_to(fake, CHANNEL_ID) if r.files])

    before = boards()
    # a command commits, and the process dies before posting anything: only the database remembers
    outcome = await bot.service.commands.pick(Actor(str(ANN[0]), str(GUILD_ID)), 1, "Effective Fire")
    assert outcome.posts and boards() == before
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    restarted = QuarterdeckBot(GameService(engine, seeds=counting_seeds()), sync_commands=False, run_scheduler=False)
    await restarted.login(TOKEN)
    try:
        await restarted.courier.drain_all()
        assert boards() == before + 1
        # the next one is claimed for posting, and that process dies: its lease has to run out first
        await restarted.service.commands.pick(Actor(str(BOB[0]), str(GUILD_ID)), 1, "Take Courage")
        async with restarted.service.store.repo.session() as s, s.begin():
            claimed = await outbox.claim(s, 1, utcnow())
        assert claimed is not None and claimed.kind == "board"
        await restarted.courier.drain_all()
        assert boards() == before + 1
        await restarted.courier.drain_all(now=utcnow() + outbox.LEASE + timedelta(seconds=5))
        assert boards() == before + 2
        assert sum("Revealed" in r.content for r in posts_to(fake, CHANNEL_ID)) == 1
    finally:
        await restarted.close()
        await engine.dispose()
    assert all(r.status in ("done", "superseded") for r in await rows(bot))


async def test_an_ai_game_goes_on_when_every_post_fails(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "game", "create"), fake)
    await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    fake.forbid(CHANNEL_ID)
    await dispatch(bot, command(ANN, "game", "join", side="B", ai=True), fake)
    state = await bot.service.reading.state_for_audit(1)
    assert state.squadron("B").picked  # the captain picked although the board post failed
    await pick(bot, fake, ANN, "Effective Fire")
    state = await bot.service.reading.state_for_audit(1)
    assert any(e.actor.startswith("ai:") for e in await _events(bot)), "the captain played on"
    assert len(dms(fake)) >= 1  # Ann's nudge went out: a failed status edit never skips it
    tried = [r for r in await rows(bot) if r.kind in ("board", "status") and r.attempts]
    assert tried and all("50013" in r.last_error for r in tried)
    fake.forbidden.clear()  # the permission is given back: what was owed goes out, in order
    await bot.courier.drain(1, now=utcnow() + timedelta(hours=2))
    assert all(r.status in ("done", "superseded") for r in await rows(bot) if r.kind == "board")
    # the boards held back tell their part (text only); the newest shows the game as it is now
    [board] = [r for r in posts_to(fake, CHANNEL_ID) if r.files]
    assert any("Revealed" in r.content for r in posts_to(fake, CHANNEL_ID))


async def _events(bot: QuarterdeckBot) -> list[Any]:
    from game.service.models import EventRecord

    async with bot.service.store.repo.session() as s:
        return list((await s.execute(select(EventRecord).order_by(EventRecord.seq))).scalars())


async def test_status_edits_coalesce_and_the_last_state_wins(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    now = utcnow() + LATER  # well after the game's first status edit
    for _ in range(5):
        await bot.service.front.enqueue(1, "status", {})
    before = len(fake.requests)
    assert await bot.courier.drain(1, now=now) == 1
    edits = [r for r in fake.requests[before:] if "📋" in r.content]
    assert len(edits) == 1 and edits[0].method == "PATCH"
    await bot.service.front.enqueue(1, "status", {})
    assert await bot.courier.drain(1, now=now + timedelta(seconds=1)) == 0  # too soon after the last edit
    await pick(bot, fake, ANN, "Effective Fire")  # a newer state, also too soon
    assert await bot.courier.drain(1, now=now + timedelta(seconds=2)) == 0
    assert await bot.courier.drain(1, now=now + timedelta(seconds=4)) == 1
    statuses = [r for r in await rows(bot) if r.kind == "status"]
    assert statuses[-1].status == "done" and sum(r.status == "superseded" for r in statuses) >= 5


async def test_a_closed_dm_is_recorded_and_not_tried_again(harness: Any) -> None:
    bot, fake = harness
    fake.closed_dms.add(str(BOB[0]))
    await setup_game(bot, fake)
    nudges = {json.loads(r.payload)["user"]: r for r in await rows(bot) if r.kind == "nudge"}
    assert nudges[str(ANN[0])].status == "done"
    assert nudges[str(BOB[0])].status == "failed" and "50007" in nudges[str(BOB[0])].last_error
    tried = len(dms(fake))
    await bot.courier.drain(1, now=utcnow() + timedelta(days=1))
    assert len(dms(fake)) == tried


async def test_a_start_moves_on_the_captains_a_crash_left_waiting(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "game", "create"), fake)
    await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    # the last seat is taken and the process dies before the captain's first pick
    await bot.service.lobby.join(Actor("0", str(GUILD_ID)), 1, "B", ai=True)
    assert not (await bot.service.reading.state_for_audit(1)).squadron("B").picked
    assert await bot.driver.advance_all(bot.courier.drain) == 1  # what the bot does when it starts
    assert (await bot.service.reading.state_for_audit(1)).squadron("B").picked
    assert await bot.driver.advance_all(bot.courier.drain) == 0  # nothing more is the captain's


async def test_a_refused_status_post_never_skips_the_nudges(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "game", "create"), fake)
    await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    posts = 0

    def refuse_the_second(sent: Sent) -> None:
        nonlocal posts
        if sent.in_channel and sent.path.split("/")[4] == str(CHANNEL_ID):
            posts += 1
            if posts == 2:  # the status message, right after the board
                fake.forbid(CHANNEL_ID)

    fake.listeners.append(refuse_the_second)
    await dispatch(bot, command(BOB, "game", "join", side="B"), fake)
    fake.listeners.remove(refuse_the_second)
    assert len(dms(fake)) == 2  # before the outbox, the refused status edit skipped both
    [status] = [r for r in await rows(bot) if r.kind == "status"]
    assert status.status == "pending" and "50013" in status.last_error


async def test_a_notice_goes_through_the_outbox_and_pings_only_whom_it_names(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await bot.service.front.enqueue(1, "notice", {"text": f"📣 <@{BOB[0]}> forfeits side B @everyone", "users": [str(BOB[0])]})
    assert await bot.courier.drain(1) == 1
    [note] = [r for r in posts_to(fake, CHANNEL_ID) if "forfeits" in r.content]
    assert note.payload["allowed_mentions"]["users"] == [BOB[0]] and note.payload["allowed_mentions"]["parse"] == []


async def test_a_dm_waiting_out_its_rate_limit_keeps_no_channel_post_waiting(harness: Any) -> None:
    """A direct message keeps no place in the channel's order (its lane is the member's DMs): while
    Discord makes it wait (a member told of many games meets the DM channel's limit), the channel's
    posts written after it go out, and the DM follows once Discord lets it."""
    import asyncio

    bot, fake = harness
    await setup_game(bot, fake)  # both players nudged: Ann's DM channel is open
    dm = fake.dm_channels[str(ANN[0])]

    def made() -> list[str]:  # the DMs Discord accepted (a 429 made no message)
        return [r.content for r in dms(fake) if r.response_message_id]

    sent_before = len(made())
    # discord.py tries a refused request five times, sleeping `retry_after` between: 2 s windows keep
    # the DM waiting well past how long a loaded machine may take to post the notice
    budget = fake.rate_limit(f"/channels/{dm}/messages", 0, window=2.0, method="POST")
    await bot.service.front.enqueue(1, "note", {"user": str(ANN[0]), "player": "A", "text": "Your orders stood"})
    await bot.service.front.enqueue(1, "notice", {"text": "A line for the channel"})
    drain = asyncio.create_task(bot.courier.drain(1))
    for _ in range(500):
        if any(r.content == "A line for the channel" for r in posts_to(fake, CHANNEL_ID)):
            break
        await asyncio.sleep(0.01)
    assert any(r.content == "A line for the channel" for r in posts_to(fake, CHANNEL_ID))
    assert budget.refused >= 1 and len(made()) == sent_before  # the DM is still waiting
    fake.budgets.remove(budget)  # Discord lets it through
    assert await drain == 2
    assert made()[sent_before:] == ["🗒️ Game #1, side A: Your orders stood"]
    assert all(r.status in ("done", "superseded") for r in await rows(bot))


async def test_a_members_dm_channel_is_opened_once_and_their_user_never_fetched(harness: Any) -> None:
    """Discord keeps one DM channel between the bot and a user ("if one already exists, it will be
    returned instead", Create DM in Discord's docs): a process opens it once (bot/dms.py) and sends
    there after that, without fetching the user first."""
    bot, fake = harness
    await setup_game(bot, fake)  # both players nudged: each DM channel opened once
    for text in ("First note", "Second note"):
        await bot.service.front.enqueue(1, "note", {"user": str(ANN[0]), "player": "A", "text": text})
    assert await bot.courier.drain(1) == 2
    opened = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/users/@me/channels")]
    assert sorted(str(r.payload["recipient_id"]) for r in opened) == sorted(str(u[0]) for u in (ANN, BOB))
    assert not [r for r in fake.requests if r.method == "GET" and r.path.startswith("/api/v10/users/")
                and not r.path.endswith("/@me")]
    assert [r.content.split(": ")[-1] for r in dms(fake) if "note" in r.content] == ["First note", "Second note"]


async def test_a_restarted_bot_sends_its_dms_without_opening_their_channels_again(harness: Any, tmp_path: Path) -> None:
    """A process that starts after a crash owes DMs to many members at once: each channel was kept in
    the database when it was opened (bot/dms.py), so the new process opens none of them."""
    bot, fake = harness
    await setup_game(bot, fake)  # both players nudged: both channels opened, and kept
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    restarted = QuarterdeckBot(GameService(engine, seeds=counting_seeds()), sync_commands=False, run_scheduler=False)
    await restarted.login(TOKEN)
    try:
        opened_before = len([r for r in fake.requests if r.path.endswith("/users/@me/channels")])
        for user in (ANN, BOB):
            await restarted.service.front.enqueue(1, "note", {"user": str(user[0]), "player": "A", "text": "After the start"})
        assert await restarted.courier.drain(1) == 2
        assert len([r for r in fake.requests if r.path.endswith("/users/@me/channels")]) == opened_before
        got = {r.path.split("/")[4] for r in dms(fake) if "After the start" in r.content and r.response_message_id}
        assert got == {fake.dm_channels[str(ANN[0])], fake.dm_channels[str(BOB[0])]}
    finally:
        await restarted.close()
        await engine.dispose()


async def test_a_kept_dm_channel_discord_no_longer_knows_is_opened_again(harness: Any) -> None:
    """A channel id kept in the database that Discord answers as unknown (10003: a database moved
    between bots, a row written by hand) costs one refusal: it is forgotten, the channel opened
    again, the DM sent there and the new id kept."""
    bot, fake = harness
    await setup_game(bot, fake)
    assert str(CAT[0]) not in fake.dm_channels  # Cat was never DMed
    bot_id = str(bot.user.id)
    await bot.service.front.remember_dm_channel(bot_id, str(CAT[0]), "300000000000000999")
    await bot.service.front.enqueue(1, "note", {"user": str(CAT[0]), "player": "A", "text": "Hello Cat"})
    assert await bot.courier.drain(1) == 1
    real = fake.dm_channels[str(CAT[0])]
    tries = [r for r in fake.requests if r.in_channel and "Hello Cat" in r.content]
    assert [(r.path.split("/")[4], bool(r.response_message_id)) for r in tries] == [
        ("300000000000000999", False), (real, True)]
    assert await bot.service.front.dm_channel(bot_id, str(CAT[0])) == real


async def test_a_database_that_fails_to_keep_dm_channels_costs_no_dm(harness: Any) -> None:
    """The DM channels kept between starts are a saving, not a need: a database that fails to read or
    keep them (here, every call raises) leaves each DM going out through Create DM, as before."""
    from bot.dms import keep_in

    class Failing:
        async def dm_channel(self, bot_id: str, user_id: str) -> str | None:
            raise OSError("the database went away")

        async def remember_dm_channel(self, bot_id: str, user_id: str, channel_id: str) -> None:
            raise OSError("the database went away")

        async def forget_dm_channel(self, bot_id: str, user_id: str, channel_id: str) -> None:
            raise OSError("the database went away")

    bot, fake = harness
    await setup_game(bot, fake)
    keep_in(bot, Failing())
    await bot.service.front.enqueue(1, "note", {"user": str(CAT[0]), "player": "A", "text": "Hello Cat"})
    assert await bot.courier.drain(1) == 1
    [sent] = [r for r in dms(fake) if "Hello Cat" in r.content]
    assert sent.response_message_id and sent.path.split("/")[4] == fake.dm_channels[str(CAT[0])]
