"""docs/architecture.md is the reader's map of the code: it names every module of game/, render/, bot/,
cli/ and web/ (a package whose __init__ holds anything, by its folder), and it names none that does not
exist. A module added, moved or removed without the map following fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("game", "render", "bot", "cli", "web")
# a module or a package as the doc names them, in code spans: `game/service/store.py`, `game/phases/`
NAMED = re.compile(r"`((?:game|render|bot|cli|web)/(?:[\w.-]+/)*(?:[\w-]+\.py)?)`")


def modules() -> set[str]:
    """What the doc must name: every module, and every package whose __init__ is not empty (by its
    folder, `game/systems/wsim/`); an empty __init__ only marks a folder as a package."""
    found: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if path.name != "__init__.py":
                found.add(rel)
            elif path.read_text(encoding="utf-8").strip():
                found.add(rel.removesuffix("__init__.py"))
    return found


def named(text: str) -> set[str]:
    return {m.removesuffix("__init__.py") for m in NAMED.findall(text)}


def test_the_map_names_every_module() -> None:
    missing = sorted(modules() - named(DOC.read_text(encoding="utf-8")))
    assert not missing, "modules docs/architecture.md does not name (add a line on what each holds):\n" + "\n".join(
        missing)


def test_the_map_names_no_module_that_does_not_exist() -> None:
    gone = sorted(n for n in named(DOC.read_text(encoding="utf-8")) if not (ROOT / n).exists())
    assert not gone, "docs/architecture.md names what is not in the code:\n" + "\n".join(gone)


def test_the_reader_finds_what_the_doc_names() -> None:
    text = "`game/service/store.py` and `game/phases/`, `render/__init__.py`; not `game/data/<system>/` or game/x.py"
    assert named(text) == {"game/service/store.py", "game/phases/", "render/"}
    # a package is named by its folder when its __init__ holds something, and an empty one need not be
    assert "game/systems/" in modules() and "game/phases/" not in modules()
    assert "game/service/store.py" in modules() and all(not m.endswith("__init__.py") for m in modules())
