"""The bot's logging: LOG_LEVEL, and LOG_FORMAT text (for a person reading journalctl or `docker logs`)
or json (for a log collector: one object per line, a traceback inside its record's object, never on
lines of its own that the collector would take for records)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import IO

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        # non-ASCII stays readable; json.dumps escapes the newlines, so a record is one line
        return json.dumps(out, ensure_ascii=False, default=str)


def configure(level: str, fmt: str = "text", stream: IO[str] | None = None) -> None:
    """The root logger's one handler, replacing any a previous call set."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT))
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
    logging.getLogger("alembic").setLevel(logging.WARNING)  # migrations report problems, not progress
