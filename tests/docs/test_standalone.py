"""The project stands alone (issue 12, item 7): no tracked file sends a reader to something outside
the repository, such as the developers' rules notes or the documents the project was made from.
docs/rulings.md holds the rulings users need, and sources are named by what they are."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"RULES\.md|\.\./shared|\bshared/|\bseeds?[ _]?00\d", re.IGNORECASE)
ALLOWED_NAMES = re.compile(r"seed_00\d_[a-z]+\.txt")  # copies of source texts kept beside their tests


def tracked_texts() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / n for n in names.stdout.split("\0") if n and (ROOT / n) != Path(__file__).resolve()]


def test_no_tracked_text_points_outside_the_repository() -> None:
    found = []
    for path in tracked_texts():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue  # images, and files deleted but not yet committed
        for n, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(ALLOWED_NAMES.sub("", line)):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert found == [], "\n".join(found)


def test_the_check_sees_what_it_looks_for() -> None:
    for line in ("see RULES.md §4", "../shared/cards.md", "(seed 000, Fig. 5)", "Seed 004 is the PAC"):
        assert OUTSIDE.search(line), line
    assert not OUTSIDE.search(ALLOWED_NAMES.sub("", "copied into seed_004_tables.txt"))
    assert len(tracked_texts()) > 100
