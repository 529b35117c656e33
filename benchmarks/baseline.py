"""The code of the start of issue 15, run beside today's in the same benchmark run: the machine is
shared and its speed drifts, so only figures measured side by side compare.

`git archive` extracts the `game` package of START into a scratch directory; a benchmark function
of this checkout then runs in a child process that imports that `game` first. A benchmark that runs
old and new code in one process (two captains in one game, two renderers taking turns) imports a
module or package of START under another name (`old_module`, `old_package`). Nothing of START is
kept in the product tree: git gives it at run time. Without git (or that commit) the old figures
are simply not printed."""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

START = "14da252"  # main when issue 15 (a quicker captain, engine geometry) was taken up
ROOT = Path(__file__).resolve().parent.parent


@cache
def old_tree(path: str = "game", commit: str = START) -> Path | None:
    """A directory holding `path` (a package by default `game`) as it was at `commit` (START unless a
    benchmark names its own), or None when git cannot give it."""
    where = Path(tempfile.mkdtemp(prefix="qd-baseline-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, path], capture_output=True,
                                 check=True, timeout=60).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return where


@cache
def old_module(path: str, name: str, commit: str = START) -> ModuleType | None:
    """START's (or `commit`'s) module at `path` (e.g. game/ai/captain.py) imported as `name`, beside
    today's; its own imports are today's modules. None without git."""
    tree = old_tree(path, commit)
    if tree is None:
        return None
    spec = importlib.util.spec_from_file_location(name, tree / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@cache
def old_package(package: str, name: str) -> ModuleType | None:
    """START's top-level `package` (e.g. render) imported as `name`, beside today's: its imports of
    itself are rewritten to `name`, every other import is today's. None without git."""
    tree = old_tree(package)
    if tree is None:
        return None
    (tree / package).rename(tree / name)
    for source in (tree / name).rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        source.write_text(re.sub(rf"^(\s*)(from|import) {package}(?=[.\s])", rf"\1\2 {name}", text, flags=re.M),
                          encoding="utf-8")
    sys.path.insert(0, str(tree))
    return importlib.import_module(name)


def run(call: str, old: bool, commit: str = START) -> object:
    """`call` (a Python expression over this checkout's benchmarks, giving a JSON-able value)
    evaluated in a child process, with the game package of `commit` (old) or today's."""
    path = [str(ROOT)]
    if old:
        tree = old_tree("game", commit)
        if tree is None:
            return None
        path.insert(0, str(tree))
    code = (f"import sys, json; sys.path[:0] = {path!r}; import importlib; "
            f"print('@@' + json.dumps({call}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    line = [x for x in out.stdout.splitlines() if x.startswith("@@")][-1]
    return json.loads(line[2:])
