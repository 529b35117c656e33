"""The ship sheet image (render/ship_sheet.py): a PNG 800 px wide that Pillow opens, whose drawn
texts are the sheet's rows and nothing more (another player's loads are not in the picture of their
ship), each text large enough to read at 400 px wide, inside the image and clear of the others,
with the alt text the sheet's own words."""

from __future__ import annotations

import io
import tomllib
from typing import Any

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from game.service.referee import builtin_setups
from game.systems import ship_sheet, system
from game.systems.sheet import SECRET, Sheet
from game.systems.wsim.model import Broadside, Party
from render.ship_sheet import ROW_PT, WIDTH, render_sheet, sheet_figure, texts
from tests.systems.helpers import Table
from tests.systems.wsim.conftest import at, keep_phases, setup

LOAD_WORDS = ("roundshot", "double", "half", "chain", "grape", "initial", "empty", "DS")


def builtin_sheets() -> list[tuple[str, str, Sheet]]:
    out = []
    for key in ("wsim", "iron_and_oak", "captains_sea"):
        [text] = builtin_setups(key).values()
        state = system(key).initial_state(tomllib.loads(text))
        for ship in state.ships:
            out.append((key, ship.id, ship_sheet(key, system(key).view(state, ship.player), ship.id)))
    return out


def loading_double_shot() -> Any:
    t = keep_phases(Table(system("wsim"), setup()))  # drawn in the Load Phase, which the load would end
    at(t, "J", Victory={"broadsides": (Broadside("left", initial_used=True), Broadside("right", "C", initial_used=True)),
                        "hull_lost": 4, "grappled": ("Redoutable",), "fire_turns": 1})
    t.play("British: load Victory left DS")
    return t.state


@pytest.mark.parametrize(("key", "ship", "sheet"), builtin_sheets(), ids=lambda x: x if isinstance(x, str) else "")
def test_the_png_is_800_px_wide_and_draws_every_row(key: str, ship: str, sheet: Sheet) -> None:
    png, alt = render_sheet(sheet)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == WIDTH and 300 < image.height < 2000
    assert alt == sheet.alt() and alt.startswith(f"Ship sheet of {ship} ")
    drawn = texts(sheet_figure(sheet))
    assert drawn[0] == ship
    for s in sheet.sections:
        assert s.title in drawn
        for row in s.rows:
            assert row.label in drawn
            assert row.value.split(" (")[0] in " ".join(drawn), row  # wrapped lines join back


def test_the_opponent_picture_of_a_ship_shows_no_load() -> None:
    state = loading_double_shot()
    own = ship_sheet("wsim", system("wsim").view(state, "British"), "Victory")
    assert any("double shot half loaded" in line for line in texts(sheet_figure(own)))  # the owner sees it drawn
    for viewer in ("French", None):
        sheet = ship_sheet("wsim", system("wsim").view(state, viewer), "Victory")
        drawn = texts(sheet_figure(sheet))
        _, alt = render_sheet(sheet)
        assert drawn.count(SECRET) == 2
        for word in LOAD_WORDS:
            assert not any(word in line for line in drawn), (viewer, word, drawn)
            assert word not in alt, (viewer, word)
        assert "26 of 30 left" in drawn and "with Redoutable" in drawn  # the rest of the log is there


LONG = "Santisima Trinidad y Nuestra Senora del Pilar de Zaragoza"


def crowded() -> Any:
    """A ship of long names with most of the log pad in use: lines must be measured, not counted."""
    doc = setup(players=["Royal Navy of Great Britain and Ireland", "French"])
    doc["ship"][0].update(id=LONG, player="Royal Navy of Great Britain and Ireland", hull=99, crew=[20, 20, 20])
    t = Table(system("wsim"), doc)
    at(t, "H", **{LONG: {"grappled": ("Redoutable", "Bucentaure de la Republique Francaise", "Neptune", "Pluton"),
                         "fouled": ("Redoutable",), "hull_lost": 45, "status": "struck", "doom": "may explode",
                         "fire_turns": 3, "captured": True, "leaders": ("Nelson", "Hardy", "Collingwood"),
                         "parties": (Party("OBP", (1, 2), "Bucentaure de la Republique Francaise"),)}})
    return t.state


@pytest.mark.parametrize(("state", "ship", "viewer"), [
    (loading_double_shot, "Victory", "British"), (loading_double_shot, "Victory", "French"),
    (crowded, LONG, "French"), (crowded, LONG, "Royal Navy of Great Britain and Ireland")])
def test_every_text_is_readable_at_400_px_inside_the_image_and_clear_of_the_others(
        state: Any, ship: str, viewer: str) -> None:
    fig = sheet_figure(ship_sheet("wsim", system("wsim").view(state(), viewer), ship))
    renderer = FigureCanvasAgg(fig).get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    assert width == WIDTH
    boxes = []
    for text in fig.axes[0].texts:
        assert text.get_fontsize() >= ROW_PT - 2  # 16 pt: about 11 px high at 400 px wide
        box = text.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= width and box.y0 >= 0 and box.y1 <= height, text.get_text()
        boxes.append((text.get_text(), box))
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            assert not box_a.overlaps(box_b), (a, b)
    said = " ".join(t for t, _ in boxes)
    assert all(word in said for word in ship.split())  # the long name wrapped, not cut
