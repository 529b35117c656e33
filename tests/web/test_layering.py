"""The web front end stands where the bot does, and lower on what it may touch: the service's calls
(`service.web`) and the renderer's pooled entry point, never the bot, the command line, the SQL layer
or matplotlib in its own process (renders go to a worker, as the bot's do)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("bot", "cli", "sqlalchemy", "sqlmodel", "game.service.models", "game.service.repository",
             "game.service.db", "matplotlib", "discord")


def test_web_imports_nothing_it_must_not() -> None:
    found = []
    for path in sorted((ROOT / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [(path.name, n) for n in names if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]
    assert not found, found


def test_serving_pages_loads_no_matplotlib() -> None:
    code = "import sys, web.serve, web.app; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
