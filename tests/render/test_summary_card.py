"""The summary card (issue 27, item 2): a PNG that reads at 400 px, and alt text that says all of it."""

from __future__ import annotations

import io

from PIL import Image

from game.chronicle import CardText, SideSummary, Summary
from render.summary_card import summary_card

SUMMARY = Summary("The Texel", 7, "A", "player B withdraws", (
    SideSummary("A", 1, 4, 0, 23, 19.5, 60), SideSummary("B", 9, 4, 3, 14, 18.25, 55)))


def test_the_card_is_a_png_and_its_alt_text_says_every_figure() -> None:
    png, alt = summary_card(SUMMARY, CardText("The Texel", "2 d 3 h", {"A": ("Ann",), "B": ("Bob",)}, True, 42))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (800, 500)
    assert alt.startswith("Summary card of The Texel: Player A wins (player B withdraws) after 7 turns, 2 d 3 h.")
    assert "Side A (Ann): 1 Strike Points, 0 of 4 ships lost, dice luck +3.5 (luckier than average)." in alt
    assert "Side B (Bob): 9 Strike Points, 3 of 4 ships lost, dice luck -4.2 (unluckier than average)." in alt
    assert alt.endswith("The dice verified from the revealed seed.") and len(alt) <= 1024


def test_dice_that_do_not_verify_are_said_and_a_side_without_dice_too() -> None:
    quiet = Summary("x", 1, None, "", (SideSummary("A", 0, 1, 0, 0, 0.0, 0), SideSummary("B", 0, 1, 0, 0, 0.0, 0)))
    _, alt = summary_card(quiet, CardText("x" * 300, "1 min", {}, False, 1))
    assert "A draw after 1 turn," in alt and "no dice rolled" in alt and alt.endswith("The dice did not verify.")
    assert len(alt) <= 1024
