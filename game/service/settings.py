"""Service settings from the environment (and `.env`), each checked as it is read: a setting that
cannot work stops the start with its name and what it should be (`SettingsError`).

`.env` is read by python-dotenv, with the grammar people write it in (docs/hosting.md): `export KEY=…`,
single or double quotes, a `# comment` after a value, blank lines and comment lines. A variable
already set in the environment wins over the file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from game.service.workers import default_size

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///quarterdeck.db"


def load_dotenv(path: Path = Path(".env")) -> None:
    """The file's settings into os.environ (values already set win)."""
    if not path.exists():
        return
    for key, value in dotenv_values(path, encoding="utf-8").items():
        if value is not None:  # a bare `KEY` line sets nothing
            os.environ.setdefault(key, value)


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    discord_token: str = ""
    dev_guild_id: str = ""
    log_level: str = "INFO"
    snapshot_every: int = 50
    # several processes share the bot's shards: each gets SHARD_COUNT and its own SHARD_IDS
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # worker processes for decisions, computer captains and renders (0: all inline, on the loop)
    workers: int = 0
    cached_games: int = 1000  # games kept loaded in memory (least recently used leave first)
    # where /healthz and /metrics are served (bot/health.py): None is off, the default, so that an
    # upgrade opens no port nobody asked for
    health: tuple[str, int] | None = None
    log_format: str = "text"  # or "json": one object per line, for a log collector
    owner_webhook_url: str = ""  # a Discord webhook: errors and guild joins and leaves are reported there
    # days a server's data is kept after the bot leaves it, then purged (docs/privacy.md)
    guild_retention_days: int = 30
    docs_url: str = ""  # where the guide is published, linked from /help (empty: no link)
    # the games' read-only web pages (docs/web.md): the address readers reach them at (posted in a game's
    # first message and /game status; empty: no link), where the bot serves them itself (None: it does
    # not; `quarterdeck web` may), and whether X-Forwarded-For names the client (behind a proxy only)
    web_base_url: str = ""
    web: tuple[str, int] | None = None
    web_trust_proxy: bool = False

    @classmethod
    def from_env(cls) -> Settings:
        load_dotenv()
        database_url = _database(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
        return cls(
            database_url=database_url,
            discord_token=_token(os.environ.get("DISCORD_TOKEN", "")),
            dev_guild_id=_guild(os.environ.get("DEV_GUILD_ID", "")),
            log_level=_level(os.environ.get("LOG_LEVEL") or "INFO"),
            shard_count=_count(os.environ.get("SHARD_COUNT", "")),
            shard_ids=_ids(os.environ.get("SHARD_IDS", "")),
            # by default one per core the database leaves (a PostgreSQL server here takes one)
            workers=_whole("WORKERS", os.environ.get("WORKERS", ""), default_size(database_url), 0),
            cached_games=_whole("CACHED_GAMES", os.environ.get("CACHED_GAMES", ""), 1000, 1),
            health=_health(os.environ.get("HEALTH_PORT", "")),
            log_format=_log_format(os.environ.get("LOG_FORMAT", "")),
            owner_webhook_url=_webhook(os.environ.get("OWNER_WEBHOOK_URL", "")),
            guild_retention_days=_retention(os.environ.get("GUILD_RETENTION_DAYS", "")),
            docs_url=_docs_url(os.environ.get("DOCS_URL", "")),
            web_base_url=_web_base_url(os.environ.get("WEB_BASE_URL", "")),
            web=_address("WEB_PORT", os.environ.get("WEB_PORT", ""), "web pages"),
            web_trust_proxy=_yes("WEB_TRUST_PROXY", os.environ.get("WEB_TRUST_PROXY", "")),
        )

    def described(self) -> str:
        """The effective settings for the start-up log, secrets masked: the token shows only whether it
        is set and its last four characters, the database URL its password as ***."""
        from sqlalchemy.engine import make_url

        token = f"set (…{self.discord_token[-4:]})" if self.discord_token else "not set"
        sync = f"to server {self.dev_guild_id} only" if self.dev_guild_id else "globally"
        shards = "all" if self.shard_ids is None else ",".join(map(str, self.shard_ids))
        count = "automatic" if self.shard_count is None else str(self.shard_count)
        health = "off" if self.health is None else f"{self.health[0]}:{self.health[1]}"
        webhook = "set" if self.owner_webhook_url else "not set"  # its token lets anyone post there
        return (f"DATABASE_URL={make_url(self.database_url).render_as_string(hide_password=True)}; "
                f"DISCORD_TOKEN {token}; DEV_GUILD_ID={self.dev_guild_id or '(none)'} (commands synced {sync}); "
                f"LOG_LEVEL={self.log_level}; WORKERS={self.workers}; CACHED_GAMES={self.cached_games}; "
                f"GUILD_RETENTION_DAYS={self.guild_retention_days}; "
                f"SHARD_COUNT={count}; SHARD_IDS={shards}; HEALTH_PORT={health}; LOG_FORMAT={self.log_format}; "
                f"OWNER_WEBHOOK_URL {webhook}; DOCS_URL={self.docs_url or '(none: /help links nothing)'}; "
                f"WEB_BASE_URL={self.web_base_url or '(none: no page links)'}; "
                f"WEB_PORT={'off' if self.web is None else f'{self.web[0]}:{self.web[1]}'}; "
                f"WEB_TRUST_PROXY={'yes' if self.web_trust_proxy else 'no'}")

    def shards(self) -> tuple[int | None, tuple[int, ...] | None]:
        """SHARD_COUNT and SHARD_IDS checked together: ids without a count, or an id outside it,
        would make Discord refuse the connection after start-up, so they are refused here."""
        if self.shard_ids is not None and self.shard_count is None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total number of shards across all processes).")
        if self.shard_count is not None and self.shard_ids is not None:
            outside = [i for i in self.shard_ids if i >= self.shard_count]
            if outside:
                raise SettingsError(f"SHARD_IDS {outside} are not below SHARD_COUNT {self.shard_count}.")
        return self.shard_count, self.shard_ids


class SettingsError(ValueError):
    """A setting that cannot work, named with what it should be."""


def _database(text: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    text = text.strip()
    try:
        url = make_url(text)
    except ArgumentError:
        raise SettingsError(f"DATABASE_URL must be a database URL such as {DEFAULT_DATABASE_URL} or "
                            f"postgresql+asyncpg://user:password@host:5432/name, not {text[:60]!r}.") from None
    if url.drivername not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        raise SettingsError(f"DATABASE_URL must use sqlite+aiosqlite or postgresql+asyncpg, not {url.drivername!r}.")
    return text


def _token(text: str) -> str:
    text = text.strip()
    if any(c.isspace() for c in text):
        raise SettingsError("DISCORD_TOKEN holds a space: paste the token alone (the Bot page's Reset Token).")
    return text


def _guild(text: str) -> str:
    """A server's id, or nothing. A value that is not one would sync the commands to every server
    (global commands take up to an hour to appear) when one test server was meant: refused instead."""
    text = text.strip()
    if text and not (text.isdigit() and 15 <= len(text) <= 21):
        raise SettingsError(f"DEV_GUILD_ID must be a server's id (digits: right-click the server, Copy Server ID), "
                            f"not {text[:40]!r}; leave it empty to sync the commands to every server.")
    return text


def _docs_url(text: str) -> str:
    """A web address members can open, or nothing. /help links it in Discord: a repository path or a
    typo'd scheme would be a dead link for every member, so it is refused at the start instead."""
    from urllib.parse import urlsplit

    text = text.strip()
    if not text:
        return ""
    parts = urlsplit(text)
    # a space or an angle bracket would end the link early in Discord's markup (<address>)
    if parts.scheme not in ("https", "http") or not parts.netloc or any(c.isspace() or c in "<>" for c in text) \
            or len(text) > 300:
        raise SettingsError(f"DOCS_URL must be a web address (at most 300 characters) where the guide is published, such as "
                            f"https://example.org/quarterdeck/, not {text[:60]!r}; leave it empty for no link.")
    return text


def _whole(name: str, text: str, default: int, least: int) -> int:
    text = text.strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < least:
        raise SettingsError(f"{name} must be a whole number of at least {least}, not {text[:20]!r}.")
    return int(text)


MAX_RETENTION_DAYS = 365


def _retention(text: str) -> int:
    """Days a server's data outlives the bot's removal from it. At least 1: a kick by mistake, undone
    within the day, must not have wiped the server's games; at most a year: data kept for nobody is
    what Discord's developer policy asks bots not to keep."""
    days = _whole("GUILD_RETENTION_DAYS", text, 30, 1)
    if days > MAX_RETENTION_DAYS:
        raise SettingsError(f"GUILD_RETENTION_DAYS must be at most {MAX_RETENTION_DAYS} days, not {days}.")
    return days


def _level(text: str) -> str:
    level = text.strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {text[:20]!r}.")
    return level


def _count(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise SettingsError(f"SHARD_COUNT must be a whole number of at least 1, not {text[:20]!r}.")
    return int(text)


def _ids(text: str) -> tuple[int, ...] | None:
    """"0,1" or "0-3" (or both, comma separated)."""
    text = text.strip()
    if not text:
        return None
    ids: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise SettingsError(f"SHARD_IDS takes numbers like 0,1 or 0-3, not {text[:40]!r}.")
        low, high = int(first), int(last or first)
        if high - low > 4096:  # Discord's largest bots run a few thousand shards, never one process each
            raise SettingsError(f"SHARD_IDS range {part[:40]!r} is too wide for one process.")
        ids.extend(range(low, high + 1))
    return tuple(sorted(set(ids)))


def _web_base_url(text: str) -> str:
    """Where the web pages are reached (https://games.example.org/, or with a path): links are made by
    adding g/<token>/ to it, so it is kept with one closing slash."""
    from urllib.parse import urlsplit

    text = text.strip()
    if not text:
        return ""
    parts = urlsplit(text)
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment \
            or any(c.isspace() or c in "<>" for c in text) or len(text) > 200:
        raise SettingsError(f"WEB_BASE_URL must be the web address the game pages are served at (at most 200 "
                            f"characters), such as https://games.example.org/, not {text[:60]!r}; leave it empty "
                            f"for no page links.")
    return text.rstrip("/") + "/"


def _address(name: str, text: str, what: str) -> tuple[str, int] | None:
    """"8080" (on 127.0.0.1), "0.0.0.0:8080", or empty for none."""
    text = text.strip()
    if not text:
        return None
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 1 <= int(port) <= 65535 or any(c.isspace() for c in host):
        raise SettingsError(f"{name} must be a port (8080, served on 127.0.0.1) or an address and port "
                            f"(0.0.0.0:8080), not {text[:40]!r}; leave it empty for no {what}.")
    return host, int(port)


def _yes(name: str, text: str) -> bool:
    said = text.strip().lower()
    if said in ("", "0", "no", "false", "off"):
        return False
    if said in ("1", "yes", "true", "on"):
        return True
    raise SettingsError(f"{name} must be yes or no, not {text[:20]!r}.")


def _health(text: str) -> tuple[str, int] | None:
    """"8080" (on 127.0.0.1: only this machine may ask), "0.0.0.0:8080" (a scraper elsewhere, or a
    container's published port), or empty for no endpoint."""
    return _address("HEALTH_PORT", text, "health endpoint")


def _log_format(text: str) -> str:
    fmt = text.strip().lower() or "text"
    if fmt not in ("text", "json"):
        raise SettingsError(f"LOG_FORMAT must be text or json, not {text[:20]!r}.")
    return fmt


WEBHOOK_HOSTS = ("discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com")


def _webhook(text: str) -> str:
    """A Discord webhook's URL (a channel's Integrations, Webhooks, Copy Webhook URL), or nothing: as
    discord.py's Webhook.from_url reads it (an id of 17 to 20 digits, a token of 60 characters or more)."""
    import re
    from urllib.parse import urlsplit

    text = text.strip()
    if not text:
        return ""
    url = urlsplit(text)
    if (url.scheme != "https" or url.hostname not in WEBHOOK_HOSTS
            or not re.fullmatch(r"/api/webhooks/[0-9]{17,20}/[A-Za-z0-9._-]{60,}", url.path)):
        raise SettingsError("OWNER_WEBHOOK_URL must be a Discord webhook URL, "
                            "https://discord.com/api/webhooks/<id>/<token> (a channel's Integrations, Webhooks, "
                            "Copy Webhook URL); leave it empty to report nowhere.")
    return text
