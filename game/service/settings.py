"""Service settings from the environment (and `.env`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///quarterdeck.db"


def load_dotenv(path: Path = Path(".env")) -> None:
    """KEY=VALUE lines into os.environ (values already set win)."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        os.environ.setdefault(key.strip(), value.strip().strip('"').strip("'"))


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    discord_token: str = ""
    dev_guild_id: str = ""
    log_level: str = "INFO"
    snapshot_every: int = 50

    @classmethod
    def from_env(cls) -> Settings:
        load_dotenv()
        return cls(
            database_url=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
            discord_token=os.environ.get("DISCORD_TOKEN", ""),
            dev_guild_id=os.environ.get("DEV_GUILD_ID", ""),
            log_level=os.environ.get("LOG_LEVEL", "INFO"),
        )
