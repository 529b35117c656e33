"""Issue 23, item 4: the bot reaches the storage only through the service (GameService and its front
end, game/service/frontend.py): no bot module imports the database libraries, the SQL models, the
engine or the repository, or opens a session or reaches for the service's repository."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("sqlalchemy", "sqlmodel", "game.service.models", "game.service.db", "game.service.repository")
FORBIDDEN_ATTRIBUTES = ("repo",)  # the service's Repository: the storage itself
FORBIDDEN_CALLS = ("session",)


def _forbidden(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN)


def offences(source: str) -> list[str]:
    """What in this module's source crosses the wall, one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if _forbidden(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from game.service import models` names the module in the imported name
            modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            if any(map(_forbidden, modules)):
                found.append(f"{node.lineno}: from {node.module} import {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FORBIDDEN_CALLS:
            found.append(f"{node.lineno}: .{node.func.attr}(…)")
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def test_no_bot_module_reaches_the_storage() -> None:
    modules = sorted((ROOT / "bot").rglob("*.py"))
    assert len(modules) > 20  # the walk found the bot
    crossed = {str(p.relative_to(ROOT)): found for p in modules if (found := offences(p.read_text(encoding="utf-8")))}
    assert crossed == {}


def test_the_walk_sees_every_way_across() -> None:
    for source in ("import sqlalchemy", "import sqlalchemy.exc as e", "from sqlalchemy.exc import SQLAlchemyError",
                   "from sqlmodel import col", "from game.service.models import utcnow",
                   "from game.service import models", "from game.service import db, frontend",
                   "import game.service.repository", "from game.service.db import make_engine",
                   "async def f(s):\n    async with s.service.repo.session() as x: pass",
                   "def f(service):\n    return service.store.repo", "def f(r):\n    return r.session()"):
        assert offences(source), source
    for source in ("from game.service.frontend import Job", "from game.service.game_service import GameService",
                   "import game.service.posts", "from game.service import posts",
                   "def f(service):\n    return service.front.claim(1, 2)", "x = 'service.store.repo.session()'"):
        assert offences(source) == [], source
