"""LOG_FORMAT=json: every record is one JSON object on one line, with its level, logger and message,
a traceback and a message of several lines included (a collector reads a line as a record)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.logs import configure


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_logs_are_one_object_per_line(restore_logging: None) -> None:
    out = io.StringIO()
    configure("INFO", "json", out)
    log = logging.getLogger("bot.test")
    log.info("hello %s", "ünïcode")
    log.debug("below the level")
    log.warning("two\nlines")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("it failed")
    lines = out.getvalue().splitlines()
    records = [json.loads(line) for line in lines]
    assert [(r["level"], r["logger"], r["message"]) for r in records] == [
        ("INFO", "bot.test", "hello ünïcode"), ("WARNING", "bot.test", "two\nlines"), ("ERROR", "bot.test", "it failed")]
    assert "ValueError: boom" in records[2]["exception"] and "Traceback" in records[2]["exception"]
    assert all(r["time"].endswith("+00:00") for r in records)


def test_text_logs_stay_as_they_were(restore_logging: None) -> None:
    out = io.StringIO()
    configure("warning", "text", out)
    logging.getLogger("bot.test").warning("plain")
    logging.getLogger("alembic.runtime").warning("quiet")  # alembic's level is its own: warnings still show
    logging.getLogger("alembic.runtime").info("progress")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].endswith(" WARNING bot.test: plain")
