"""The code of the start of issue 15, run beside today's in the same benchmark run: the machine is
shared and its speed drifts, so only figures measured side by side compare.

`git archive` extracts the `game` package of START into a scratch directory; a benchmark function
of this checkout then runs in a child process that imports that `game` first. Without git (or
that commit) the old figures are simply not printed."""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

START = "14da252"  # main when issue 15 (a quicker captain, engine geometry) was taken up
ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def old_tree() -> Path | None:
    """A directory holding START's `game` package, or None when git cannot give it."""
    where = Path(tempfile.mkdtemp(prefix="qd-baseline-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", START, "game"], capture_output=True,
                                 check=True, timeout=60).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return where


def run(call: str, old: bool) -> object:
    """`call` (a Python expression over this checkout's benchmarks, giving a JSON-able value)
    evaluated in a child process, with START's game package (old) or today's."""
    path = [str(ROOT)]
    if old:
        tree = old_tree()
        if tree is None:
            return None
        path.insert(0, str(tree))
    code = (f"import sys, json; sys.path[:0] = {path!r}; import importlib; "
            f"print('@@' + json.dumps({call}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    line = [x for x in out.stdout.splitlines() if x.startswith("@@")][-1]
    return json.loads(line[2:])
