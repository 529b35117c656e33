"""The standings image: every entrant's line in order, readable at a phone's 400 pixels, nothing
overlapping, and a long league cut with a line that says so."""

from __future__ import annotations

import io
from itertools import combinations

from matplotlib.text import Text
from PIL import Image

from render.standings import MAX_ROWS, Row, standings_figure, standings_png

PHONE = 400
MIN_TEXT = 9  # px of text height at that width (as the board is held to)


def rows(n: int, name: str = "Captain") -> list[Row]:
    return [Row(i + 1, str(i), f"{name} {i + 1}", 3, 3 - i / 2, i, 0, 5 - i, 4.5, 10.0 - i) for i in range(n)]


def texts(fig) -> list[tuple[str, object]]:  # type: ignore[no-untyped-def]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    ax = fig.axes[0]
    return [(t.get_text(), t.get_window_extent(renderer)) for t in ax.findobj(Text) if t.get_text()]


def test_every_line_is_readable_at_phone_width_and_nothing_overlaps() -> None:
    fig = standings_figure("Autumn Cup", "Final standings after round 3 of 3",
                           rows(8, "Anne Bonny, Scourge of the Caribbean and Beyond"))
    width = fig.get_figwidth() * fig.dpi
    drawn = texts(fig)
    for text, box in drawn:
        assert box.height * PHONE / width >= MIN_TEXT, text  # type: ignore[attr-defined]
        assert box.x0 >= 0 and box.x1 <= width, text  # type: ignore[attr-defined]
    for (a, ba), (b, bb) in combinations(drawn, 2):
        overlap_x = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)  # type: ignore[attr-defined]
        overlap_y = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)  # type: ignore[attr-defined]
        assert overlap_x <= 0 or overlap_y <= 0, (a, b)
    names = [t for t, _ in drawn if t.startswith("Anne")]
    assert len(names) == 8 and all(n.endswith("…") for n in names)  # cut to their column


def test_the_lines_follow_the_standings_and_a_long_league_is_cut() -> None:
    fig = standings_figure("Big", "Round 2 of 7", rows(MAX_ROWS + 5))
    drawn = texts(fig)
    # the rank column is the leftmost; read from the top down
    column = sorted(((box.y0, t) for t, box in drawn if t.isdigit() and box.x0 < 30), reverse=True)  # type: ignore[attr-defined]
    assert [int(t) for _, t in column] == list(range(1, MAX_ROWS + 1))
    assert any(t.startswith("… and 5 more") for t, _ in drawn)


def test_the_png_is_800_pixels_wide() -> None:
    image = Image.open(io.BytesIO(standings_png("Cup", "Round 1 of 3", rows(4))))
    assert image.format == "PNG" and image.size[0] == 800


def test_a_top_cut_is_drawn_under_the_table_readable_and_apart() -> None:
    """Eight seeds' quarter-finals, semi-finals and final with long names: every line at least the
    phone's smallest text, inside the image, and no two overlapping; who went on and the champion said."""
    long = "Anne Bonny, Scourge of the Caribbean and Beyond"
    seeds = [f"({i}) {long} {i}" for i in range(1, 9)]
    bracket = [("Quarter-finals", [(seeds[0], seeds[7], long), (seeds[3], seeds[4], "Mary"),
                                   (seeds[1], seeds[6], "Grace"), (seeds[2], seeds[5], "Ching")]),
               ("Semi-finals", [(seeds[0], seeds[4], long), (seeds[2], seeds[6], None)])]
    fig = standings_figure("Autumn Cup", "Standings after round 5 of 6 (Swiss)", rows(8, long), bracket, None)
    width = fig.get_figwidth() * fig.dpi
    drawn = texts(fig)
    for text, box in drawn:
        assert box.height * PHONE / width >= MIN_TEXT, text  # type: ignore[attr-defined]
        assert box.x0 >= 0 and box.x1 <= width, text  # type: ignore[attr-defined]
    for (a, ba), (b, bb) in combinations(drawn, 2):
        overlap_x = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)  # type: ignore[attr-defined]
        overlap_y = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)  # type: ignore[attr-defined]
        assert overlap_x <= 0 or overlap_y <= 0, (a, b)
    said = [t for t, _ in drawn]
    assert said.count("Top cut: Quarter-finals") == 1 and said.count("Top cut: Semi-finals") == 1
    assert {"→ Mary", "→ Grace", "→ Ching", "to play"} <= set(said)
    final = standings_figure("Cup", "Final standings", rows(4), [("Final", [("(1) Ann", "(2) Bob", "Ann")])], "Ann")
    assert "Champion: Ann" in [t for t, _ in texts(final)]
