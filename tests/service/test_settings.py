"""Issue 26, item 1: `.env` read with the grammar people write it in, case by case, and every
setting checked with a message naming it. Each case here was read wrongly by the hand-written
reader: `export` made a variable literally named "export DISCORD_TOKEN", an inline comment stopped the
start or became part of the value, and a quoted DEV_GUILD_ID with a comment synced the commands to
every server without a word."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.service.settings import Settings, SettingsError

KEYS = ("DATABASE_URL", "DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS", "WORKERS",
        "CACHED_GAMES", "HEALTH_PORT", "LOG_FORMAT", "OWNER_WEBHOOK_URL", "GUILD_RETENTION_DAYS", "DOCS_URL",
        "WEB_BASE_URL", "WEB_PORT", "WEB_TRUST_PROXY")
SERVER = "123456789012345678"
WEBHOOK = "https://discord.com/api/webhooks/123456789012345678/" + "abc-DEF_ghi." * 6


@pytest.fixture
def env_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty directory with its own .env; what the file puts into the environment goes after the
    test (the loader writes os.environ itself, which monkeypatch does not see)."""
    monkeypatch.chdir(tmp_path)
    before = {key: os.environ.get(key) for key in KEYS}
    for key in KEYS:
        os.environ.pop(key, None)
    yield tmp_path / ".env"
    for key, value in before.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.mark.parametrize(("line", "field", "value"), [
    ("export DISCORD_TOKEN=abc.def", "discord_token", "abc.def"),
    ("LOG_LEVEL=INFO # chatty", "log_level", "INFO"),
    ('DEV_GUILD_ID="123456789012345678" # test server', "dev_guild_id", SERVER),
    ("DEV_GUILD_ID='123456789012345678'", "dev_guild_id", SERVER),
    ("  DISCORD_TOKEN = spaced.around  ", "discord_token", "spaced.around"),
    ('DATABASE_URL="postgresql+asyncpg://q:p#w@db:5432/q"', "database_url", "postgresql+asyncpg://q:p#w@db:5432/q"),
    ("WORKERS=3   # two cores and a spare", "workers", 3),
    ("# a comment line\n\nCACHED_GAMES=50", "cached_games", 50),
    ("HEALTH_PORT=", "health", None),  # off unless asked for
    ("HEALTH_PORT=8080", "health", ("127.0.0.1", 8080)),  # only this machine, unless an address is given
    ("HEALTH_PORT=0.0.0.0:9100", "health", ("0.0.0.0", 9100)),
    ("HEALTH_PORT=[::1]:8080", "health", ("::1", 8080)),
    ("LOG_FORMAT=JSON", "log_format", "json"),
    ("LOG_FORMAT=", "log_format", "text"),
    (f"OWNER_WEBHOOK_URL={WEBHOOK}", "owner_webhook_url", WEBHOOK),
    ("DOCS_URL=https://example.org/quarterdeck/ # the guide", "docs_url", "https://example.org/quarterdeck/"),
    ("DOCS_URL=", "docs_url", ""),
    ("WEB_BASE_URL=https://games.example.org", "web_base_url", "https://games.example.org/"),
    ("WEB_BASE_URL=https://example.org/qd/", "web_base_url", "https://example.org/qd/"),
    ("WEB_BASE_URL=", "web_base_url", ""),  # no page links unless asked for
    ("WEB_PORT=", "web", None),
    ("WEB_PORT=8081", "web", ("127.0.0.1", 8081)),
    ("WEB_TRUST_PROXY=yes", "web_trust_proxy", True),
    ("WEB_TRUST_PROXY=", "web_trust_proxy", False),
])
def test_the_dotenv_grammar(env_file: Path, line: str, field: str, value: object) -> None:
    env_file.write_text(line + "\n", encoding="utf-8")
    assert getattr(Settings.from_env(), field) == value


def test_the_environment_wins_over_the_file(env_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file.write_text("LOG_LEVEL=DEBUG\n", encoding="utf-8")
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    assert Settings.from_env().log_level == "WARNING"


@pytest.mark.parametrize(("line", "named"), [
    ("DEV_GUILD_ID=my test server", "DEV_GUILD_ID"),
    ("DEV_GUILD_ID=1234", "DEV_GUILD_ID"),  # too short for a server's id
    ("DATABASE_URL=quarterdeck.db", "DATABASE_URL"),
    ("DATABASE_URL=mysql://x@y/z", "DATABASE_URL"),
    ("DISCORD_TOKEN=two words", "DISCORD_TOKEN"),
    ("LOG_LEVEL=chatty", "LOG_LEVEL"),
    ("WORKERS=-1", "WORKERS"),
    ("CACHED_GAMES=0", "CACHED_GAMES"),
    ("SHARD_COUNT=zero", "SHARD_COUNT"),
    ("HEALTH_PORT=http", "HEALTH_PORT"),
    ("HEALTH_PORT=70000", "HEALTH_PORT"),
    ("HEALTH_PORT=localhost:", "HEALTH_PORT"),
    ("LOG_FORMAT=xml", "LOG_FORMAT"),
    ("OWNER_WEBHOOK_URL=http://discord.com/api/webhooks/1/x", "OWNER_WEBHOOK_URL"),  # not https
    ("OWNER_WEBHOOK_URL=https://example.com/api/webhooks/1/x", "OWNER_WEBHOOK_URL"),  # not Discord
    ("OWNER_WEBHOOK_URL=https://discord.com/channels/1/2", "OWNER_WEBHOOK_URL"),  # a channel's link
    ("OWNER_WEBHOOK_URL=https://discord.com/api/webhooks/123456789012345678/short", "OWNER_WEBHOOK_URL"),
    ("GUILD_RETENTION_DAYS=0", "GUILD_RETENTION_DAYS"),  # a kick by mistake must not wipe a server at once
    ("GUILD_RETENTION_DAYS=3650", "GUILD_RETENTION_DAYS"),  # data kept for no one
    ("GUILD_RETENTION_DAYS=a month", "GUILD_RETENTION_DAYS"),
    ("DOCS_URL=docs/notation.md", "DOCS_URL"),  # a repository path: no member can open it
    ("DOCS_URL=htps://example.org", "DOCS_URL"),
    ("DOCS_URL=https://", "DOCS_URL"),
    ("DOCS_URL=https://example.org/<b>", "DOCS_URL"),
    ("WEB_BASE_URL=games.example.org", "WEB_BASE_URL"),  # no scheme: Discord would not link it
    ("WEB_BASE_URL=https://example.org/?x=1", "WEB_BASE_URL"),
    ("WEB_PORT=http", "WEB_PORT"),
    ("WEB_TRUST_PROXY=maybe", "WEB_TRUST_PROXY"),
])
def test_a_setting_that_cannot_work_is_named(env_file: Path, line: str, named: str) -> None:
    env_file.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=named):
        Settings.from_env()


def test_the_workers_leave_a_core_to_a_database_on_this_machine(env_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: with PostgreSQL on the same two cores, one worker (the server and the bot take the rest)."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    for url, workers in (("sqlite+aiosqlite:///q.db", 2), ("postgresql+asyncpg://qd:pw@127.0.0.1:5432/qd", 1),
                         ("postgresql+asyncpg://qd:pw@localhost/qd", 1), ("postgresql+asyncpg://qd:pw@db.example.net/qd", 2)):
        env_file.write_text(f"DATABASE_URL={url}\n", encoding="utf-8")
        os.environ.pop("DATABASE_URL", None)  # what the file set last time would win over the file
        assert Settings.from_env().workers == workers, url
    env_file.write_text("DATABASE_URL=postgresql+asyncpg://qd:pw@127.0.0.1/qd\nWORKERS=2\n", encoding="utf-8")
    os.environ.pop("DATABASE_URL", None)
    assert Settings.from_env().workers == 2  # said outright, it wins
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    env_file.write_text("DATABASE_URL=postgresql+asyncpg://qd:pw@127.0.0.1/qd\n", encoding="utf-8")
    os.environ.pop("WORKERS", None)
    assert Settings.from_env().workers == 1  # never none by default


def test_a_servers_data_is_kept_thirty_days_unless_set(env_file: Path) -> None:
    env_file.write_text("", encoding="utf-8")
    assert Settings.from_env().guild_retention_days == 30
    env_file.write_text("GUILD_RETENTION_DAYS=7\n", encoding="utf-8")
    assert Settings.from_env().guild_retention_days == 7
    assert "GUILD_RETENTION_DAYS=7" in Settings.from_env().described()


def test_the_start_up_line_masks_the_secrets(env_file: Path) -> None:
    env_file.write_text(f"DISCORD_TOKEN=secret.token.WXYZ\nDEV_GUILD_ID={SERVER}\n"
                        "DATABASE_URL=postgresql+asyncpg://q:hunter2@db:5432/q\n"
                        f"OWNER_WEBHOOK_URL={WEBHOOK}\n", encoding="utf-8")
    said = Settings.from_env().described()
    assert "hunter2" not in said and "secret.token" not in said
    assert "abc-DEF" not in said and "OWNER_WEBHOOK_URL set" in said
    assert "DISCORD_TOKEN set (…WXYZ)" in said and f"synced to server {SERVER} only" in said and "***" in said


async def test_a_bad_dev_guild_id_never_syncs_globally() -> None:
    """By construction: the bot refuses an id that is not one rather than sync to every server."""
    from bot.app import QuarterdeckBot

    bot = QuarterdeckBot.__new__(QuarterdeckBot)
    bot.dev_guild_id = "1234\" # test server"
    with pytest.raises(ValueError, match="not a server's id"):
        await bot.sync_if_changed()
