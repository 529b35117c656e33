"""The rating-history plot of /captain: a real PNG of the promised size, and alt text with its figures."""

from __future__ import annotations

import io

from PIL import Image

from render.alt_text import rating_alt
from render.rating_history import rating_png


def test_the_plot_is_a_png_that_downscales_to_the_400_px_preview() -> None:
    image = Image.open(io.BytesIO(rating_png("Ann", [1.0, -0.5, 3.25])))
    assert image.format == "PNG" and image.size == (800, 450)
    # not blank: the line's colour is drawn
    assert (0x1F, 0x5F, 0x8B) in {c[:3] for _, c in image.convert("RGB").getcolors(1 << 20) or []}


def test_the_alt_text_says_the_plotted_figures() -> None:
    assert rating_alt("Ann", [1.0, -0.5, 3.25]) == ("Line chart of Ann's rating after each of 3 ranked games: from "
                                                     "1.0 to 3.2 now, lowest -0.5, highest 3.2.")
    assert "no ranked games" in rating_alt("Ann", [])
