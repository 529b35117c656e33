"""Issue 26, item 10: the renderer keeps Pillow's freed blocks through Pillow's documented setting
(the PILLOW_BLOCKS_MAX environment variable, read as Pillow loads), not a private function."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _blocks_kept(env: dict[str, str]) -> int:
    code = "import render.png; from PIL import Image; print(Image.core.get_blocks_max())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_a_board_process_keeps_four_blocks_unless_the_environment_says_otherwise() -> None:
    base = {k: v for k, v in os.environ.items() if k != "PILLOW_BLOCKS_MAX"}
    assert _blocks_kept(base) == 4
    assert _blocks_kept({**base, "PILLOW_BLOCKS_MAX": "9"}) == 9


def test_no_product_code_calls_into_pillows_private_modules() -> None:
    offenders = [str(p.relative_to(ROOT)) for folder in ("game", "render", "bot", "cli", "web")
                 for p in (ROOT / folder).rglob("*.py") if "_imaging" in p.read_text(encoding="utf-8")]
    assert offenders == []
