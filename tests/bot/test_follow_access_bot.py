"""A follower who loses sight of a game stops getting it (issue 27, item 3; docs/bot.md, "Following
games"): before each DM the bot asks Discord whether the follower is still a member of the server (Get
Guild Member, resources/guild#get-guild-member: 404 Unknown Member, code 10007, for one who is not) and
computes their permissions in the game's channel as topics/permissions documents them ("Permission
Overwrites"; a thread has its parent's, "Inherited Permissions (Threads)"; a private thread is seen by
its members and those who may manage threads, resources/channel#get-thread-member answering 404 for a
user who is not one). The fake's server answers with the members and overwrites a test arranges."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord

from game.service.following import DIGEST_JOB
from game.service.models import utcnow
from game.service.scheduler import run_due
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, command, dispatch
from tests.bot.fake_guilds import VIEW_CHANNEL
from tests.bot.test_bot import ANN, BOB, EVE, pick, setup_game
from tests.bot.test_follow_bot import dms_to
from tests.bot.test_outbox_bot import rows


def server_known(bot: Any, fake: FakeDiscord) -> None:
    """The server as the gateway gives it at start-up, with its roles and channels (the Guilds intent)."""
    bot._connection.parse_guild_create(fake.servers.gateway_guild(GUILD_ID))


async def followed_by_eve(bot: Any, fake: FakeDiscord) -> None:
    await setup_game(bot, fake)
    server_known(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow"), fake)
    assert list(await bot.service.following.followers(1)) == [str(EVE[0])]


async def test_a_follower_who_can_still_see_the_channel_gets_the_board(harness: Any) -> None:
    bot, fake = harness
    await followed_by_eve(bot, fake)
    await pick(bot, fake, ANN, "Effective Fire")
    assert dms_to(fake, EVE)
    assert any(r.path.endswith(f"/members/{EVE[0]}") for r in fake.requests)  # asked, not assumed


async def test_a_follower_who_left_the_server_gets_nothing_more_and_the_follow_ends(harness: Any) -> None:
    bot, fake = harness
    await followed_by_eve(bot, fake)
    fake.servers.remove_member(GUILD_ID, EVE[0])
    await pick(bot, fake, ANN, "Effective Fire")
    await pick(bot, fake, BOB, "Fire as She Bears")
    assert not dms_to(fake, EVE)
    assert not await bot.service.following.mine(str(EVE[0]))
    follows = [r for r in await rows(bot) if r.kind == "follow"]
    assert follows and all(r.status == "done" for r in follows)  # ended, not retried


async def test_a_follower_shut_out_of_the_channel_by_their_own_overwrite_gets_nothing(harness: Any) -> None:
    bot, fake = harness
    await followed_by_eve(bot, fake)
    fake.servers.overwrite(CHANNEL_ID, EVE[0], deny=VIEW_CHANNEL, member=True)
    server_known(bot, fake)  # CHANNEL_UPDATE would bring the new overwrite; a fresh GUILD_CREATE does too
    await pick(bot, fake, ANN, "Effective Fire")
    assert not dms_to(fake, EVE)
    assert not await bot.service.following.mine(str(EVE[0]))


async def test_a_role_taken_away_by_the_channel_shuts_its_members_out(harness: Any) -> None:
    """Eve's role is denied the channel: step 5 of Discord's computation (the member's roles' overwrites)."""
    bot, fake = harness
    watchers = fake.servers.add_role(GUILD_ID, "Watchers", 0, bot=False)
    await setup_game(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow"), fake)
    fake.servers.add_member(GUILD_ID, EVE[0], EVE[1], roles=(watchers,))
    fake.servers.overwrite(CHANNEL_ID, watchers, deny=VIEW_CHANNEL)
    server_known(bot, fake)
    await pick(bot, fake, ANN, "Effective Fire")
    assert not dms_to(fake, EVE)
    # the same role allowed back in, after @everyone's deny: a new follow is delivered
    fake.servers.overwrite(CHANNEL_ID, GUILD_ID, deny=VIEW_CHANNEL)
    fake.servers.overwrite(CHANNEL_ID, watchers, allow=VIEW_CHANNEL)
    server_known(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow", roles=(int(watchers),)), fake)
    await pick(bot, fake, BOB, "Fire as She Bears")
    assert dms_to(fake, EVE)


async def test_a_digest_follower_who_left_gets_no_digest(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    server_known(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow", digest_hour=7), fake)
    await pick(bot, fake, ANN, "Effective Fire")
    fake.servers.remove_member(GUILD_ID, EVE[0])
    await run_due(bot.service.store.repo, {DIGEST_JOB: bot._digest}, now=utcnow() + timedelta(days=1, hours=1))
    assert not dms_to(fake, EVE)
    assert not await bot.service.following.mine(str(EVE[0]))


async def test_a_private_threads_game_reaches_only_followers_in_the_thread(harness: Any) -> None:
    bot, fake = harness
    thread = fake.servers.add_thread(CHANNEL_ID, "Oak & Iron: a private match")
    fake.channels[thread]["type"] = discord.ChannelType.private_thread.value
    tid = int(thread)
    await dispatch(bot, command(ANN, "game", "create", channel_id=tid), fake)
    await dispatch(bot, command(ANN, "game", "join", side="A", channel_id=tid), fake)
    await dispatch(bot, command(BOB, "game", "join", side="B", channel_id=tid), fake)
    server_known(bot, fake)
    await dispatch(bot, command(EVE, "game", "follow", channel_id=tid), fake)
    assert list(await bot.service.following.followers(1)) == [str(EVE[0])]
    await pick(bot, fake, ANN, "Effective Fire")
    assert not dms_to(fake, EVE)  # removed from the thread (or never added): Get Thread Member says 404
    assert not await bot.service.following.mine(str(EVE[0]))
    fake.servers.join_thread(thread, EVE[0])
    await dispatch(bot, command(EVE, "game", "follow", channel_id=tid), fake)
    await pick(bot, fake, BOB, "Fire as She Bears")
    assert dms_to(fake, EVE)
