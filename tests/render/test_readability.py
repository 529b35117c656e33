"""Issue 12, items 2 and 3: the board says what the player to act may do, and reads at phone width.

Measured on what matplotlib lays out: the window extents of every text drawn (static layer and
scene) and the hulls as drawn, in pixels."""

from __future__ import annotations

import io
from itertools import combinations

import numpy as np
import pytest
from matplotlib.text import Text
from matplotlib.transforms import IdentityTransform
from PIL import Image
from shapely.geometry import Polygon, box

from game.scenario import quickstart
from game.views import view_of
from render import RenderOptions, render_board, style
from render.board import BoardTooLarge, layout, to_pixel
from render.layout import area_of_play
from tests.game.test_attack import to_attack
from tests.helpers import S, make_game
from tests.render import scenes

PHONE = 400  # px: how wide a phone shows the image
MIN_TEXT = 9  # px of text height at that width


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _grey(c: tuple[int, int, int]) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _texts(fig, renderer, sc) -> list[tuple[Text, object]]:  # type: ignore[no-untyped-def]
    """Every text of the board as a matplotlib artist with its window extent."""
    return [(t, t.get_window_extent(renderer)) for t in [*sc.static.text_artists(), *sc.text_artists()] if t.get_text()]


def _collection(sc, gid: str):  # type: ignore[no-untyped-def]
    return next(a for a in sc.data if a.get_gid() == gid)


def _hulls(sc) -> dict[str, Polygon]:  # type: ignore[no-untyped-def]
    """Each ship's base as drawn, in pixels."""
    hulls = _collection(sc, "hulls")
    to_px = hulls.get_transform()
    return {ship: Polygon(to_px.transform(path.vertices)) for ship, path in zip(sc.hull_ids, hulls.get_paths(),
                                                                               strict=True)}


def test_texts_are_blended_where_matplotlib_would_draw_them(crowded) -> None:  # type: ignore[no-untyped-def]
    view, options = crowded["engagement"]
    fig, renderer, sc = layout(view, options)
    for item, artist in zip([*sc.static.texts, *sc.texts], [*sc.static.text_artists(), *sc.text_artists()],
                            strict=True):
        bb = artist.get_window_extent(renderer)
        assert np.allclose(item.extent, bb.extents, atol=0.01), item.text


@pytest.fixture(scope="module")
def crowded() -> dict[str, scenes.Scene]:
    return scenes.crowded()


SCENES = ["boarding", "line_of_six", "engagement", "double_broadside", "quickstart_start", "quickstart_mid_movement",
          "quickstart_attack_targets", "quickstart_after_broadside", "quickstart_end"]


@pytest.mark.parametrize("name", SCENES)
def test_every_text_is_at_least_9_px_high_when_the_image_is_400_px_wide(crowded, name: str) -> None:  # type: ignore[no-untyped-def]
    view, options = crowded[name]
    fig, renderer, sc = layout(view, options)
    width = fig.get_size_inches()[0] * fig.dpi
    assert width == options.width_px
    seen = 0
    for t, _ in _texts(fig, renderer, sc):
        for line in t.get_text().split("\n"):  # each line of a block on its own
            probe = Text(0, 0, line, fontproperties=t.get_fontproperties(), transform=IdentityTransform())
            probe.set_figure(fig)
            height = probe.get_window_extent(renderer).height * PHONE / width
            assert height >= MIN_TEXT, (name, line, round(height, 2))
            seen += 1
    assert seen >= 10  # header, legend, edge coordinates and ship names at least


@pytest.mark.parametrize("name", SCENES)
def test_labels_overlap_no_other_label_and_no_ship_they_do_not_name(crowded, name: str) -> None:  # type: ignore[no-untyped-def]
    view, options = crowded[name]
    fig, renderer, sc = layout(view, options)
    assert sc.unplaced == []
    texts = _texts(fig, renderer, sc)
    for (a, ba), (b, bb) in combinations(texts, 2):
        w = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)
        h = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
        assert w <= 0 or h <= 0, (name, a.get_text(), b.get_text())
    hulls = _hulls(sc)
    assert len(hulls) == sum(1 for s in view.game.ships if s.on_table)
    for t, bb in texts:
        owner = (t.get_gid() or "").removeprefix("ship:")
        for ship, hull in hulls.items():
            if ship != owner:
                assert not hull.intersects(box(bb.x0, bb.y0, bb.x1, bb.y1)), (name, t.get_text(), ship)


@pytest.mark.parametrize("name", ["boarding", "engagement", "quickstart_end"])
def test_statuses_stay_with_their_ship(crowded, name: str) -> None:  # type: ignore[no-untyped-def]
    """A ship's statuses are lines of its own label block, which touches the ship or is tied to it
    by a leader line."""
    view, options = crowded[name]
    fig, renderer, sc = layout(view, options)
    hulls = _hulls(sc)
    leaders = {a.get_gid() for a in sc.pixels}
    checked = 0
    for s in view.game.ships:
        words = [w.upper() for w in s.status_names() if w not in ("anchored",)]
        if not words or not s.on_table:
            continue
        block = [t for t in sc.text_artists() if t.get_gid() == f"ship:{s.id}"]
        assert block and s.id in block[0].get_text()
        text = " ".join(t.get_text() for t in block)
        for w in words:
            assert w.replace("_", " ") in text, (s.id, w)
        near = min(hulls[s.id].distance(box(*t.get_window_extent(renderer).extents)) for t in block)
        assert near < 40 or f"leader:ship:{s.id}" in leaders, (s.id, near)
        checked += 1
    assert checked


def test_the_default_image_shows_the_area_of_play() -> None:
    game = make_game([S("Kestrel", "Sloop", 10, 10, 0, "A"), S("Otter", "Corvette", 16, 12, 0, "B")],
                     terrain=[("island", [(19, 9), (21, 9), (21, 11), (19, 11)]),  # 3" from Otter: in
                              ("rock", [(33, 33), (34, 33), (34, 34)])], width=36, height=36)  # far: out
    crop = area_of_play(game, RenderOptions())
    x0, y0, x1, y1 = crop
    assert x0 <= 10 - 0.6 - 2 and x1 >= 21 + 2 and y0 <= 10 - 1.2 - 2 and y1 >= 12 + 1.2 + 2  # ships, island, margin
    assert x1 < 33 and y1 < 33  # the far rock is left out
    assert (x1 - x0) * (y1 - y0) < 36 * 36 / 3
    assert area_of_play(game, RenderOptions(whole_table=True)) == (0, 0, 36, 36)
    png = render_board(view_of(game, "A"))
    w, h = Image.open(io.BytesIO(png)).size
    assert w == 1080 and h < 1080


def test_edge_coordinates_are_inches_where_they_are_drawn() -> None:
    view = view_of(quickstart(), "A")
    options = RenderOptions()
    fig, renderer, sc = layout(view, options)
    height = fig.get_size_inches()[1] * fig.dpi
    xs = [t for t in sc.static.text_artists() if t.get_gid() == "edge:x"]
    ys = [t for t in sc.static.text_artists() if t.get_gid() == "edge:y"]
    assert len(xs) >= 3 and len(ys) >= 3
    for t in xs:
        bb = t.get_window_extent(renderer)
        col, _ = to_pixel(view, options, float(t.get_text()), 30)
        assert abs((bb.x0 + bb.x1) / 2 - col) <= 1
    for t in ys:
        bb = t.get_window_extent(renderer)
        _, row = to_pixel(view, options, 20, float(t.get_text()))
        assert abs(height - (bb.y0 + bb.y1) / 2 - row) <= 1


# ---------------------------------------------------------------- what the player to act may do


def _pixel(png: bytes, view, options, x: float, y: float) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    col, row = to_pixel(view, options, x, y)
    r, g, b = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))[row, col]
    return int(r), int(g), int(b)


def _near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 14) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_an_enemy_in_a_broadside_path_is_marked_with_the_side_and_band() -> None:
    # Galleon (A, large base: beam 1.6) heading north; Frigate 6" off its starboard side, Brig dead ahead
    t = to_attack([S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B"),
                   S("Brig", "Corvette", 10, 28, 0, "B")])
    view, options = view_of(t.state, "A"), RenderOptions()
    fig, renderer, sc = layout(view, options)
    blocks = {t.get_gid(): [] for t in sc.texts}
    for text in sc.texts:
        blocks[text.get_gid()].append(text.get_text())
    assert "Galleon stbd · Musket" in blocks["ship:Frigate"]
    assert not any("Galleon" in line for line in blocks["ship:Brig"])
    png = render_board(view, options)
    marked = _rgb(style.TARGET)
    assert _near(_pixel(png, view, options, 17.5 - 0.7 - 0.06, 18.3), marked)  # the ring beside the Frigate
    assert not _near(_pixel(png, view, options, 10 - 0.6 - 0.06, 28.3), marked)  # none around the Brig
    sea = _pixel(png, view, options, 13.5, 24.5)
    in_path = _pixel(png, view, options, 13.5, 18.4)  # between them: the Galleon's starboard path
    assert _grey(in_path) < _grey(sea) - 20


def test_ships_that_have_activated_look_different_from_those_still_to_go() -> None:
    view, options = scenes.quickstart_moments()["mid_movement"]
    done = set(view.game.activated)
    assert done and set(s.id for s in view.game.ships) - done
    png = render_board(view, options)
    fig, renderer, sc = layout(view, options)
    names: dict[str, str] = {}
    for t in sc.texts:
        names.setdefault(t.get_gid(), t.get_text())  # a block's first line: the name
    for s in view.game.ships:
        side = style.SIDES[view.game.players.index(s.controller)].fill
        # the stern end of the base (the bow holds the white wedge)
        sx, sy = s.x - 0.7 * s.length / 2 * np.sin(np.radians(s.heading)), \
            s.y - 0.7 * s.length / 2 * np.cos(np.radians(s.heading))
        got = _pixel(png, view, options, sx, sy)
        if s.id in done:
            assert "✓" in names[f"ship:{s.id}"]
            assert _near(got, _rgb(style.tint(side, style.DONE_TINT)))
            assert abs(_grey(got) - _grey(_rgb(side))) > 40
        else:
            assert "✓" not in names[f"ship:{s.id}"]
            assert _near(got, _rgb(side))


def test_each_side_of_a_double_broadside_has_its_own_arrow() -> None:
    (view, options), events = scenes.double_broadside()
    assert [(a.side, a.target) for a in options.last_attacks] == [("starboard", "Frigate"), ("port", "Brig")]
    fig, renderer, sc = layout(view, options)
    arrows = {a.get_gid(): a for a in sc.data if (a.get_gid() or "").startswith("attack:")}
    assert set(arrows) == {"attack:Galleon:starboard:Frigate", "attack:Galleon:port:Brig"}
    galleon = view.game.ship("Galleon")
    starts = {}
    for gid, arrow in arrows.items():
        xy = np.asarray(arrow.get_xy())
        starts[gid] = xy[0]
        tip = xy[np.argmax(np.abs(xy[:, 0] - galleon.x))]
        target = view.game.ship(gid.rsplit(":", 1)[1])
        assert np.sign(tip[0] - galleon.x) == np.sign(target.x - galleon.x)  # each points at its own target
    port, stbd = starts["attack:Galleon:port:Brig"], starts["attack:Galleon:starboard:Frigate"]
    assert port[0] < galleon.x < stbd[0]  # from the port side (west) and the starboard side (east)
    labels = [t.get_text() for t in sc.texts if t.get_gid().startswith("attack:")]
    assert len(labels) == 2 and labels[0].split(":")[0] != labels[1].split(":")[0]


def test_reload_markers_never_take_the_colour_of_attack_arrows() -> None:
    reload, attack = _rgb(style.RELOAD), _rgb(style.ATTACK_LINE)
    assert sum(abs(a - b) for a, b in zip(reload, attack, strict=True)) > 150
    assert abs(_grey(reload) - _grey(attack)) > 60
    (view, options), _ = scenes.double_broadside()
    galleon = view.game.ship("Galleon")
    assert galleon.reload  # both sides fired
    png = render_board(view, options)
    fig, renderer, sc = layout(view, options)
    markers = _collection(sc, "reload").get_paths()
    assert sorted(sc.reload_ids) == ["Galleon:port", "Galleon:starboard"] and len(markers) == 2
    for path in markers:
        x, y = path.vertices.mean(axis=0)
        assert _near(_pixel(png, view, options, x, y), reload, 30)
    shaft = _pixel(png, view, options, (galleon.x + 0.8 + 17.5 - 0.7) / 2, 18)  # mid-way along the starboard arrow
    assert _near(shaft, attack, 30)


def test_the_paths_drawn_are_those_of_the_ships_still_to_act() -> None:
    from render.guide import guide, ships_to_act

    t = to_attack([S(f"A{i}", "Sixth Rate", 5 + i * 3.6, 14, 90, "A") for i in range(1, 4)]
                  + [S("B1", "Corvette", 8, 19.5, 90, "B")], weather="E")
    assert ships_to_act(t.state) == ("A1", "A2", "A3")
    t.submit_line("pass A1")
    t.submit_line("pass B1")
    g = guide(t.state, t.rules)
    assert g.ships == ("A2", "A3") and "A1" in g.done and not g.rings
    assert ships_to_act(t.state, "B1") == ("B1",)  # a ship asked for (/board SHIP) alone
    assert guide(t.state, t.rules, enabled=False).ships == ()


def test_a_zoom_off_the_table_is_refused_with_a_clear_error() -> None:
    view = view_of(quickstart(), "A")
    with pytest.raises(BoardTooLarge, match="off the table"):
        render_board(view, RenderOptions(zoom_box=(50, 50, 60, 60)))


def test_a_long_title_is_cut_to_the_width_of_the_image() -> None:
    view = view_of(quickstart(), "A")
    fig, renderer, sc = layout(view, RenderOptions(title="The Battle of " + "Very " * 200 + "Long Names"))
    title = next(t for t in sc.text_artists() if t.get_gid() == "header")
    assert title.get_text().endswith("…") and title.get_window_extent(renderer).x1 <= fig.bbox.x1
