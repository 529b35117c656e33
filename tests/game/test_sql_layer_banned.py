"""ruff keeps the renderer, the rules core and the bot off the SQL layer (pyproject.toml, TID251): the
rule is checked here against the project's own settings, so a slip in them (a pattern that lets
render/ off, a ban that no longer matches a submodule) fails rather than passing silently."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUFF = Path(sys.executable).with_name("ruff")
SQL_IMPORTS = (
    "import sqlalchemy",
    "from sqlalchemy.ext.asyncio import AsyncEngine",
    "from sqlmodel import select",
    "from game.service.models import GameRow",
    "from game.service import repository",
    "from game.service.db import make_engine",
)


def _banned(path: str, source: str) -> bool:
    """Whether ruff, with the project's settings, refuses this source as the file at path."""
    done = subprocess.run(
        [str(RUFF), "check", "--no-cache", "--output-format", "concise",
         "--stdin-filename", path, "-"],
        input=source, capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert done.returncode in (0, 1), done.stderr
    return "TID251" in done.stdout


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is a dev dependency")
@pytest.mark.parametrize("line", SQL_IMPORTS)
@pytest.mark.parametrize("path", ["render/board.py", "render/new_module.py", "game/engine.py", "bot/views.py",
                                  "bot/cogs/game.py", "bot/__main__.py", "bot/app.py", "bot/check.py", "bot/outbox.py",
                                  "bot/cogs/clock.py"])
def test_the_renderer_the_core_and_the_bot_may_not_import_the_sql_layer(path: str, line: str) -> None:
    # inside a function too: a deferred import is still an import
    assert _banned(path, f"{line}\n")
    assert _banned(path, f"def f() -> None:\n    {line}\n")


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is a dev dependency")
@pytest.mark.parametrize("path", ["game/service/repository.py", "migrations/env.py", "tests/service/test_x.py"])
def test_the_service_may(path: str) -> None:
    assert not _banned(path, "".join(f"{line}\n" for line in SQL_IMPORTS))


def test_no_bot_file_is_let_off() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert not [line for line in text.splitlines() if line.startswith('"bot/') and "TID251" in line]
