"""Issue 13, item 5: a bot built for many servers. The bot is sharded, listens to guild events only,
syncs its slash commands only when they changed (and survives a failed sync), and refuses shard
settings that cannot work before it connects."""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest

from bot.__main__ import main
from bot.app import QuarterdeckBot
from game.service.settings import Settings, SettingsError
from tests.bot.fake_discord import FakeDiscord
from tests.bot.harness import running_bot


def syncs(fake: FakeDiscord) -> list[str]:
    return [r.path for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]


async def test_commands_are_synced_once_then_only_when_they_change(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as (bot, fake):
        assert await bot.sync_if_changed() is True
        assert len(syncs(fake)) == 1
        sent = fake.requests[-1].payload["items"]
        assert {c["name"] for c in sent} >= {"game", "move", "attack"}
        # a restart with the same commands: nothing is sent (the digest is kept in the database)
        assert await bot.sync_if_changed() is False
        assert len(syncs(fake)) == 1
        # a changed command tree is synced again
        @bot.tree.command(name="brandnew", description="a command added by an upgrade")
        async def brandnew(interaction: discord.Interaction) -> None:  # pragma: no cover - never invoked
            pass

        assert await bot.sync_if_changed() is True
        assert len(syncs(fake)) == 2
        bot.force_sync = True  # `python -m bot --sync`
        assert await bot.sync_if_changed() is True
        assert len(syncs(fake)) == 3


async def test_a_failed_sync_is_logged_and_the_bot_starts(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with running_bot(tmp_path) as (bot, fake):
        fake.sync_status = 503  # Discord is down (a 500 discord.py retries itself for 25 s first)
        with caplog.at_level(logging.ERROR, logger="bot.app"):
            assert await bot.sync_if_changed() is False
        assert "could not sync the slash commands" in caplog.text
        fake.sync_status = 200  # the next start tries again: a failed sync was not remembered
        assert await bot.sync_if_changed() is True


async def test_the_dev_guild_gets_its_own_sync(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as (bot, fake):
        bot.dev_guild_id = "800000000000000001"
        assert await bot.sync_if_changed() is True
        assert syncs(fake)[-1].endswith("/guilds/800000000000000001/commands")


async def test_sharded_with_guild_events_only(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as (bot, _):
        assert isinstance(bot, discord.AutoShardedClient)
        assert bot.intents.guilds and not bot.intents.messages and not bot.intents.members
        assert bot.intents.value == discord.Intents(guilds=True).value


def test_only_the_process_holding_shard_0_syncs() -> None:
    from types import SimpleNamespace

    def made(ids: tuple[int, ...] | None) -> QuarterdeckBot:
        service = SimpleNamespace(front=SimpleNamespace(outbox=False))  # the bot only turns its outbox on
        return QuarterdeckBot(service, shard_count=4 if ids is not None else None, shard_ids=ids)

    assert made(None).sync_commands and made((0, 1)).sync_commands
    assert not made((2, 3)).sync_commands
    two = made((2, 3))
    assert two.shard_count == 4 and two.shard_ids == [2, 3]


@pytest.mark.parametrize(("count", "ids", "expected"), [
    ("4", "0,1", (4, (0, 1))), ("4", "2-3", (4, (2, 3))), ("2", "", (2, None)), ("", "", (None, None)),
    ("8", "0-1, 6", (8, (0, 1, 6))),
])
def test_shard_settings(monkeypatch: pytest.MonkeyPatch, count: str, ids: str,
                        expected: tuple[int | None, tuple[int, ...] | None]) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    assert Settings.from_env().shards() == expected


@pytest.mark.parametrize(("count", "ids", "said"), [
    ("", "0,1", "SHARD_IDS needs SHARD_COUNT"), ("2", "2", "not below SHARD_COUNT"), ("zero", "", "whole number"),
    ("0", "", "at least 1"), ("4", "a,b", "numbers like 0,1"), ("99999999", "0-99999999", "too wide"),
])
def test_shard_settings_that_cannot_work_stop_the_start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str], count: str, ids: str,
                                                         said: str) -> None:
    monkeypatch.chdir(tmp_path)  # no .env from the checkout
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    with pytest.raises(SettingsError, match=said):
        Settings.from_env().shards()
    assert main([]) == 2
    assert said in capsys.readouterr().err
