"""`python -m bot --check` (bot/check.py) against the fake Discord, run as the command runs it:
`run_check`, the function `main` calls, with discord.py's base URL pointed at the fake.

How Discord computes a member's permissions in a channel, which the fake does on its own
(tests/bot/fake_guilds.py) and the check does with discord.py's `permissions_for`:
- Discord's documentation, topics/permissions, "Permission Overwrites": @everyone's role, the member's
  roles OR'd, Administrator is all; then @everyone's overwrite, the roles' overwrites (denies, then
  allows), the member's own overwrite. discord.py: abc.GuildChannel.permissions_for.
- "Implicit Permissions": without Send Messages, no Attach Files (or Embed Links, Mention Everyone,
  TTS); without View Channel, nothing in the channel. discord.py: GuildChannel._apply_implicit_permissions.
- "Inherited Permissions (Threads)", and the page topics/threads, "Permissions": a thread has its
  parent's permissions, except that Send Messages has no effect there and Send Messages in Threads
  takes its place. discord.py: Thread.permissions_for (the implicit rule on Send Messages in Threads)."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot.__main__ import main
from bot.check import IN_CHANNEL, IN_THREAD, NAMES, TO_OPEN_THREADS, run_check
from bot.permissions import PERMISSIONS
from game.service.db import make_engine
from game.service.game_service import Actor, GameService
from game.service.settings import Settings
from tests.bot.fake_discord import BOT_ID, CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, TOKEN, FakeDiscord
from tests.bot.fake_guilds import EVERYONE
from tests.bot.routes import assert_covers
from tests.databases import sqlite_at_head
from tests.seeds import counting_seeds

ROOT = Path(__file__).resolve().parents[2]
ANN, BOB = Actor("111", str(GUILD_ID)), Actor("222", str(GUILD_ID))
P = discord.Permissions


@dataclass
class World:
    fake: FakeDiscord
    service: GameService
    settings: Settings

    async def check(self, token: str = TOKEN) -> tuple[int, list[str]]:
        out = io.StringIO()
        settings = Settings(database_url=self.settings.database_url, discord_token=token)
        code = await run_check(settings, out)
        return code, out.getvalue().splitlines()

    async def game(self, channel: int | str, thread: int | str | None = None, over: bool = False) -> int:
        info = await self.service.lobby.create_game(ANN, str(channel), thread_id=None if thread is None else str(thread))
        if over:
            await self.service.lobby.join(ANN, info.id, "A", "Ann")
            await self.service.lobby.join(BOB, info.id, "B", "Bob")
            await self.service.commands.concede(BOB, info.id)
        return info.id


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    fake = FakeDiscord()
    old_base = discord.http.Route.BASE
    discord.http.Route.BASE = await fake.start()
    url = sqlite_at_head(tmp_path / "bot.db")
    engine = make_engine(url)
    fake.channels[str(CHANNEL_ID)]["name"] = "oak-and-iron"
    fake.channels[str(OTHER_CHANNEL_ID)]["name"] = "harbour"
    try:
        yield World(fake, GameService(engine, seeds=counting_seeds()), Settings(database_url=url, discord_token=TOKEN))
    finally:
        await engine.dispose()
        discord.http.Route.BASE = old_base
        await fake.stop()
    assert not fake.unexpected_violations(), fake.unexpected_violations()
    assert_covers(fake.operations)


def deny(fake: FakeDiscord, channel: int | str, **flags: bool) -> None:
    """A channel's settings take these permissions from @everyone and from the bot's role."""
    bits = P(**flags).value
    fake.servers.overwrite(channel, GUILD_ID, deny=bits)
    fake.servers.overwrite(channel, fake.servers.bot_role(GUILD_ID), deny=bits)


async def test_a_token_that_works_and_every_permission(world: World) -> None:
    first = await world.game(CHANNEL_ID, over=True)
    second = await world.game(CHANNEL_ID)
    thread = world.fake.servers.add_thread(OTHER_CHANNEL_ID, "Oak & Iron: Quickstart")
    threaded = await world.game(OTHER_CHANNEL_ID, thread)
    referee = await world.service.referee.create_game(ANN, str(OTHER_CHANNEL_ID), "wsim")

    code, lines = await world.check()

    assert code == 0, lines
    assert lines == [
        f"✅ token works: logged in as Quarterdeck (id {BOT_ID})",
        f"guilds: 1 — Sail Club (id {GUILD_ID})",
        f"Sail Club (id {GUILD_ID}): 2 game channels",
        f"  ✅ #oak-and-iron (games #{first}, #{second}): every permission the games need",
        f"  ✅ #harbour (games #{threaded} in a thread, #{referee.id}): every permission the games need",
        "✅ the bot may do all it needs in every game channel (2).",
    ]


async def test_no_game_yet_lists_the_servers_only(world: World) -> None:
    other = world.fake.servers.add_guild(800000000000000005, "Harbour Watch")
    code, lines = await world.check()
    assert code == 0
    assert lines[1:] == [
        f"guilds: 2 — Sail Club (id {GUILD_ID}), Harbour Watch (id {other.id})",
        f"Sail Club (id {GUILD_ID}): no games yet",
        f"Harbour Watch (id {other.id}): no games yet",
        "✅ no channel has a game yet: nothing more to check.",
    ]


async def test_a_channel_whose_settings_deny_attach_files(world: World) -> None:
    game = await world.game(CHANNEL_ID)
    # the bot's role loses Attach Files in this channel only: a role overwrite's deny (step 5)
    world.fake.servers.overwrite(CHANNEL_ID, world.fake.servers.bot_role(GUILD_ID), deny=P(attach_files=True).value)
    code, lines = await world.check()
    assert code == 1
    assert f"  ❌ #oak-and-iron (game #{game}): missing Attach Files (the channel's permission settings deny it)" in lines
    assert lines[-1] == ("❌ 1 problem in 1 game channel: docs/hosting.md, \"Checking the bot's permissions\" "
                         "says what to do.")


async def test_no_role_grants_it_and_send_messages_takes_attach_files_with_it(world: World) -> None:
    game = await world.game(CHANNEL_ID)
    servers = world.fake.servers
    # neither @everyone nor the bot's role may send: Attach Files goes with Send Messages (implicit)
    servers.set_permissions(GUILD_ID, str(GUILD_ID), EVERYONE & ~P(send_messages=True).value)
    servers.set_permissions(GUILD_ID, servers.bot_role(GUILD_ID), PERMISSIONS.value & ~P(send_messages=True).value)
    code, lines = await world.check()
    assert code == 1
    assert f"  ❌ #oak-and-iron (game #{game}): missing Send Messages, Attach Files" in lines


async def test_a_role_overwrite_allow_beats_the_everyone_deny_and_a_member_deny_beats_both(world: World) -> None:
    game = await world.game(CHANNEL_ID)
    servers = world.fake.servers
    history = P(read_message_history=True).value
    servers.overwrite(CHANNEL_ID, GUILD_ID, deny=history)  # step 3: @everyone's deny
    servers.overwrite(CHANNEL_ID, servers.bot_role(GUILD_ID), allow=history)  # step 6: the role's allow wins
    assert (await world.check())[0] == 0
    servers.overwrite(CHANNEL_ID, BOT_ID, deny=history, member=True)  # step 7: the member's own deny wins
    code, lines = await world.check()
    assert code == 1
    assert f"  ❌ #oak-and-iron (game #{game}): missing Read Message History (the channel's permission settings deny it)" in lines


async def test_administrator_is_every_permission_whatever_the_channel_says(world: World) -> None:
    await world.game(CHANNEL_ID)
    servers = world.fake.servers
    servers.set_permissions(GUILD_ID, servers.bot_role(GUILD_ID), P(administrator=True).value)
    deny(world.fake, CHANNEL_ID, view_channel=True, send_messages=True, attach_files=True)
    code, lines = await world.check()
    assert code == 0, lines


async def test_a_thread_game_whose_parent_lacks_send_messages_in_threads(world: World) -> None:
    thread = world.fake.servers.add_thread(OTHER_CHANNEL_ID, "Oak & Iron: Quickstart")
    game = await world.game(OTHER_CHANNEL_ID, thread)
    deny(world.fake, OTHER_CHANNEL_ID, send_messages_in_threads=True)
    code, lines = await world.check()
    assert code == 1
    # in a thread Attach Files goes with Send Messages in Threads, as it goes with Send Messages elsewhere
    assert (f"  ❌ #harbour (game #{game} in a thread): missing Send Messages in Threads, Attach Files "
            "(the channel's permission settings deny them)") in lines


async def test_send_messages_is_not_needed_where_the_games_are_in_threads(world: World) -> None:
    thread = world.fake.servers.add_thread(OTHER_CHANNEL_ID, "Oak & Iron: Quickstart")
    await world.game(OTHER_CHANNEL_ID, thread)
    deny(world.fake, OTHER_CHANNEL_ID, send_messages=True)  # "SEND_MESSAGES has no effect in threads"
    code, lines = await world.check()
    assert code == 0, lines


async def test_a_channel_of_channel_games_says_what_a_thread_game_would_need(world: World) -> None:
    game = await world.game(CHANNEL_ID)
    deny(world.fake, CHANNEL_ID, create_public_threads=True)
    code, lines = await world.check()
    assert code == 0  # the games there do not need it; the bot says so plainly if `thread: True` is tried
    assert (f"  ✅ #oak-and-iron (game #{game}): every permission the games need (a game started with "
            "`thread: True` would need Create Public Threads too)") in lines


async def test_a_deleted_channel_and_a_hidden_one(world: World) -> None:
    gone = await world.game(CHANNEL_ID)
    hidden = await world.game(OTHER_CHANNEL_ID)
    world.fake.delete_channel(CHANNEL_ID)
    deny(world.fake, OTHER_CHANNEL_ID, view_channel=True)
    code, lines = await world.check()
    assert code == 1
    assert lines[2:] == [
        f"Sail Club (id {GUILD_ID}): 2 game channels",
        f"  ❌ channel {CHANNEL_ID} (game #{gone}): deleted (Discord answers 404 Unknown Channel)",
        f"  ❌ channel {OTHER_CHANNEL_ID} (game #{hidden}): the bot cannot see it (Discord answers 403 Missing "
        "Access): give it View Channel there",
        "❌ 2 problems in 2 game channels: docs/hosting.md, \"Checking the bot's permissions\" says what to do.",
    ]


async def test_a_deleted_thread_whose_game_is_over_needs_nothing(world: World) -> None:
    thread = world.fake.servers.add_thread(OTHER_CHANNEL_ID, "Oak & Iron: Quickstart")
    over = await world.game(OTHER_CHANNEL_ID, thread, over=True)
    world.fake.delete_channel(thread)
    code, lines = await world.check()
    assert code == 0
    assert (f"  ℹ️ thread {thread} (game #{over}): deleted (Discord answers 404 Unknown Channel); its games are "
            "over, so nothing needs doing") in lines


async def test_a_locked_thread_stops_its_game(world: World) -> None:
    thread = world.fake.servers.add_thread(OTHER_CHANNEL_ID, "Oak & Iron: Quickstart", archived=True, locked=True)
    game = await world.game(OTHER_CHANNEL_ID, thread)
    code, lines = await world.check()
    assert code == 1
    assert lines[3:] == [
        f"  ✅ #harbour (game #{game} in a thread): every permission the games need",
        f"  ❌ #harbour › Oak & Iron: Quickstart (game #{game}): archived and locked by a moderator: the bot "
        "cannot post there until a moderator unlocks it",
        "❌ 1 problem in 1 game channel: docs/hosting.md, \"Checking the bot's permissions\" says what to do.",
    ]


async def test_a_server_the_bot_was_removed_from(world: World) -> None:
    game = await world.game(CHANNEL_ID)
    world.fake.servers.leave(GUILD_ID)
    code, lines = await world.check()
    assert code == 1
    assert lines[1:] == [
        "guilds: 0 — the bot is in no server yet: invite it with the link in docs/hosting.md",
        f"server {GUILD_ID}: the bot is not in it",
        f"  ❌ game #{game}: invite it again with the link in docs/hosting.md, or the games there cannot go on",
        "❌ 1 problem in 1 game channel: docs/hosting.md, \"Checking the bot's permissions\" says what to do.",
    ]


async def test_a_bad_token_is_said_plainly(world: World) -> None:
    await world.game(CHANNEL_ID)
    code, lines = await world.check(token="a-token-that-was-reset")
    assert code == 2
    assert lines == ["❌ token does not work: Discord answered 401 Unauthorized. Copy the token again from the "
                     "Developer Portal (Bot → Reset Token) into DISCORD_TOKEN."]


async def test_discord_failing_is_one_error_line(world: World) -> None:
    world.fake.fail("/users/@me/guilds", status=503, method="GET")
    code, lines = await world.check()
    assert code == 2
    assert lines[-1].startswith("error: DiscordServerError: 503 Service Unavailable") and len(lines) == 2


async def test_a_database_that_cannot_be_read_is_one_error_line(world: World, tmp_path: Path) -> None:
    broken = tmp_path / "not-a-database.db"
    broken.write_bytes(b"this is not SQLite" * 100)
    world.settings = Settings(database_url=f"sqlite+aiosqlite:///{broken}", discord_token=TOKEN)
    code, lines = await world.check()
    assert code == 2
    assert lines[-1].startswith("error: cannot read the games from DATABASE_URL (DatabaseError: ")


async def test_no_database_yet_means_no_games(world: World, tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here.db"
    world.settings = Settings(database_url=f"sqlite+aiosqlite:///{missing}", discord_token=TOKEN)
    code, lines = await world.check()
    assert code == 0
    assert f"no database at {missing} yet (DATABASE_URL): the bot has not run here, so no channel has a game" in lines
    assert not missing.exists()  # a check changes nothing, and makes no empty database


def test_no_token_is_one_line_and_no_offline_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["--check"]) == 2
    said = capsys.readouterr()
    assert said.out == ""  # the offline table was not opened
    assert said.err.strip().splitlines() == [
        "Quarterdeck cannot check: no DISCORD_TOKEN is set (see .env.example); the check needs the bot's token."]
    assert not (tmp_path / "quarterdeck.db").exists()


def test_each_permission_of_the_invite_is_checked_where_it_is_needed() -> None:
    checked = P(**dict.fromkeys((*IN_CHANNEL, *IN_THREAD, *TO_OPEN_THREADS), True))
    assert checked == PERMISSIONS == P(**dict.fromkeys(NAMES, True))


@pytest.mark.parametrize("overwrites", [
    [],
    [("everyone", 0, P(attach_files=True).value)],
    [("everyone", 0, P(view_channel=True).value), ("role", P(view_channel=True).value, 0)],
    [("role", P(send_messages=True).value, 0), ("member", 0, P(send_messages=True).value)],
    [("everyone", P(embed_links=True).value, P(read_message_history=True).value)],
])
async def test_the_fake_computes_what_discord_py_computes(world: World, overwrites: list[tuple[str, int, int]]) -> None:
    """The fake's own reading of Discord's documentation and discord.py's agree, before implicit rules."""
    servers = world.fake.servers
    targets: dict[str, tuple[int | str, bool]] = {
        "everyone": (GUILD_ID, False), "role": (servers.bot_role(GUILD_ID), False), "member": (BOT_ID, True)}
    for who, allow, denied in overwrites:
        target, member = targets[who]
        servers.overwrite(CHANNEL_ID, target, allow=allow, deny=denied, member=member)
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        await client.login(TOKEN)
        guild = await client.fetch_guild(GUILD_ID)
        me = await guild.fetch_member(BOT_ID)
        channel = discord.TextChannel(state=client._connection, guild=guild, data=world.fake.channels[str(CHANNEL_ID)])  # type: ignore[arg-type]
        computed = discord.abc.GuildChannel.permissions_for(channel, me)
    finally:
        await client.close()
    assert computed.value == servers.permissions(CHANNEL_ID)


async def test_the_output_in_the_hosting_guide_is_what_the_check_says(world: World) -> None:
    """docs/hosting.md shows the check's output on this arrangement, captured against this fake."""
    servers = world.fake.servers
    servers.add_guild(800000000000000005, "Harbour Watch")
    signals = servers.add_channel(GUILD_ID, "signals", 700000000000000011)
    await world.game(CHANNEL_ID, over=True)  # 1
    await world.game(CHANNEL_ID)  # 2
    first = servers.add_thread(OTHER_CHANNEL_ID, "Oak & Iron: Quickstart", 1100000000000000001)
    await world.game(OTHER_CHANNEL_ID, first)  # 3
    await world.service.referee.create_game(ANN, str(signals), "wsim")  # 4
    gone = servers.add_thread(OTHER_CHANNEL_ID, "Oak & Iron: Skirmish", 1100000000000000002)
    await world.game(OTHER_CHANNEL_ID, gone, over=True)  # 5
    world.fake.delete_channel(gone)
    servers.overwrite(signals, servers.bot_role(GUILD_ID), deny=P(attach_files=True).value)
    deny(world.fake, OTHER_CHANNEL_ID, send_messages_in_threads=True)

    code, lines = await world.check()

    guide = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    shown = re.search(r"```text\n\$ \.venv/bin/python -m bot --check\n(.*?)\n\$ echo \$\?\n(\d+)\n```", guide, re.S)
    assert shown is not None, "the guide shows the command, its output and its exit status"
    assert lines == shown.group(1).splitlines()
    assert code == int(shown.group(2)) == 1
