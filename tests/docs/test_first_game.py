"""docs/first-game.md against the game it shows: its script plays the quick start again into a
temporary folder, and every message the guide quotes must be one the bot posts in that game."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
GUIDE = (ROOT / "docs" / "first-game.md").read_text(encoding="utf-8")
MAX_BYTES = 150_000  # a page of the guide loads four of them


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_first_game", IMAGES / "make_first_game.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def plain(text: str) -> str:
    return text.replace("**", "")  # the guide quotes Discord's bold as plain text


def test_the_guide_quotes_what_the_bot_posts_and_shows_the_boards_it_draws(tmp_path: Path) -> None:
    posts = script().play(tmp_path)
    drawn = [p for p in posts if p.image]
    assert [p.image for p in drawn] == re.findall(r"\(images/(first-game-[\w-]+\.png)\)", GUIDE)
    blocks = [b.strip("\n") for b in re.findall(r"```text\n(.*?)```", GUIDE, re.S)]
    for post in drawn:
        assert plain(post.text) in blocks, f"the guide quotes the post of {post.image} as the bot writes it"
    said = {plain(line) for p in posts for line in p.text.splitlines()}
    for block in blocks:
        if block.startswith("https://"):
            continue
        unknown = [line for line in block.splitlines() if line not in said]
        assert unknown == [], "every line the guide quotes is one the bot posted in this game"
    roll = next(p for p in posts if "decide on Kestrel's roll" in p.text)
    assert plain(roll.text) in blocks
    for post in drawn:
        made, kept = Image.open(tmp_path / post.image), Image.open(IMAGES / post.image)
        assert made.format == kept.format == "PNG" and made.size == kept.size
        assert (IMAGES / post.image).stat().st_size < MAX_BYTES
