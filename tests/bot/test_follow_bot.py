"""Issue 27, item 3: a member follows a game, or a member's games, by DM (through the outbox), at each
board or in a daily digest, and unfollows from the DM; a follower gets only what a spectator sees."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from game.service.following import DIGEST_JOB
from game.service.models import utcnow
from game.service.scheduler import run_due
from tests.bot.fake_discord import OTHER_CHANNEL_ID, FakeDiscord, Sent, command, component, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, pick, setup_game
from tests.bot.test_outbox_bot import rows, thread_game


def dms_to(fake: FakeDiscord, user: tuple[int, str]) -> list[Sent]:
    channel = fake.dm_channels.get(str(user[0]))
    return [r for r in fake.requests if r.in_channel and channel is not None and r.path.split("/")[4] == channel
            and r.response_message_id]


def unfollow_id(sent: Sent) -> str:
    [button] = [c for row in sent.payload.get("components", []) for c in row["components"]]
    assert button["custom_id"].startswith("qd:unfollow:")
    return str(button["custom_id"])


async def test_a_follower_gets_the_spectators_board_by_dm_and_unfollows_with_its_button(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    answer = last_followup(await dispatch(bot, command(EVE, "game", "follow"), fake))
    assert answer.ephemeral and "Following game #1" in answer.content
    await pick(bot, fake, ANN, "Effective Fire")
    sealed = dms_to(fake, EVE)
    assert sealed and "Game #1" in sealed[-1].content and sealed[-1].files  # the board image
    # Ann's sealed pick is hers until both are revealed: the follower reads what a spectator reads
    assert all("Effective Fire" not in r.content for r in sealed)
    await pick(bot, fake, BOB, "Fire as She Bears")
    sent = dms_to(fake, EVE)
    assert len(sent) > len(sealed)
    button = unfollow_id(sent[-1])
    # someone else pressing it (forged) ends nothing
    other = await dispatch(bot, component(BOB, button, sent[-1].response_message_id or "1"), fake)
    assert "someone else's" in other[-1].payload["data"]["content"]
    assert await bot.service.following.mine(str(EVE[0]))
    done = last_followup(await dispatch(bot, component(EVE, button, sent[-1].response_message_id or "1"), fake))
    assert "Unfollowed" in done.content and not await bot.service.following.mine(str(EVE[0]))
    assert await bot.service.following.followers(1) == {}


async def test_asking_for_the_board_again_dms_no_follower(harness: Any) -> None:
    """/game status may be asked by anyone, again and again: only boards with new events are sent."""
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow"), fake)
    for _ in range(3):
        await dispatch(bot, command(BOB, "game", "status"), fake)
    assert not dms_to(fake, EVE)


async def test_a_members_follow_in_a_parent_channel_does_not_reach_a_game_in_its_thread(harness: Any) -> None:
    """A thread may be private: a follow made in its parent channel is not one made in the thread."""
    bot, fake = harness
    _, tid = await thread_game(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow", members={"member": ANN}), fake)
    assert await bot.service.following.followers(1) == {}
    await dispatch(bot, command(EVE, "game", "follow", channel_id=tid, members={"member": ANN}), fake)
    assert list(await bot.service.following.followers(1)) == [str(EVE[0])]


async def test_players_of_the_game_are_not_dmed_their_own_boards(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(BOB, "game", "follow"), fake)
    assert await bot.service.following.followers(1) == {}


async def test_following_needs_a_game_here_and_a_member_is_followed_only_where_followed(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    refused = last_followup(await dispatch(bot, command(EVE, "game", "follow", channel_id=OTHER_CHANNEL_ID), fake))
    assert refused.ephemeral and "no game" in refused.content.lower()
    # Ann's games, followed from the other channel: the game in this channel is not among them
    await dispatch(bot, command(EVE, "game", "follow", channel_id=OTHER_CHANNEL_ID, members={"member": ANN}), fake)
    assert await bot.service.following.followers(1) == {}
    await dispatch(bot, command(EVE, "game", "follow", members={"member": ANN}), fake)
    assert list(await bot.service.following.followers(1)) == [str(EVE[0])]
    gone = last_followup(await dispatch(bot, command(EVE, "game", "unfollow"), fake))
    assert "1 follow ended" in gone.content
    assert len(await bot.service.following.mine(str(EVE[0]))) == 1  # the other channel's stays


async def test_a_follower_with_closed_dms_is_unfollowed_quietly(harness: Any) -> None:
    bot, fake = harness
    fake.closed_dms.add(str(EVE[0]))
    await setup_game(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow"), fake)
    await pick(bot, fake, ANN, "Effective Fire")
    assert not await bot.service.following.mine(str(EVE[0]))
    follows = [r for r in await rows(bot) if r.kind == "follow"]
    assert follows and all(r.status == "done" for r in follows)  # not retried


async def test_a_digest_follower_gets_one_dm_at_their_hour(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow", digest_hour=7), fake)
    await pick(bot, fake, ANN, "Effective Fire")
    assert not dms_to(fake, EVE)  # no DM per board
    ran = await run_due(bot.service.store.repo, {DIGEST_JOB: bot._digest}, now=utcnow() + timedelta(days=1, hours=1))
    assert ran
    [digest] = dms_to(fake, EVE)
    assert "📰 Game #1" in digest.content and unfollow_id(digest)
