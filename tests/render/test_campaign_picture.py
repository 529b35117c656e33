"""Issue 27, item 5: the campaign's picture of its squadrons: each ship with its damage, lost ships
greyed and struck through, prizes marked, and alt text saying the same; it reads at 400 px wide."""

from __future__ import annotations

import io
from dataclasses import replace
from importlib import resources
from pathlib import Path

from PIL import Image

from game.campaign import Picture, PictureMember, from_list
from game.squadron import parse_squadron
from render.campaign import campaign_alt, campaign_png

LIST = parse_squadron(resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text())


def picture() -> Picture:
    ann = from_list("1", LIST)
    ships = list(ann.ships)
    ships[0] = replace(ships[0], damage=3)
    ships[1] = replace(ships[1], damage=7)
    ships[3] = replace(ships[3], fate="sunk", lost_in=1)
    ann = replace(ann, ships=(*ships, replace(ships[2], entry=replace(ships[2].entry, name="Prins Willem"),
                                              prize_of="2", damage=2)))
    bob = from_list("2", replace(LIST, name="Maas Admiralty"))
    bob = replace(bob, ships=tuple(replace(s, fate="captured", lost_in=1) if s.name == "Vlissingen" else s
                                   for s in bob.ships))
    return Picture("Channel War", "after battle 1 of 1", (PictureMember("Ann", 3, False, ann),
                                                           PictureMember("Bob", 1, True, bob)))


def test_the_picture_is_a_png_800_wide_with_alt_text(tmp_path: Path) -> None:
    png, alt = campaign_png(picture())
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == 800
    image.resize((400, image.size[1] * 400 // 800)).save(tmp_path / "campaign-400.png")
    assert alt == campaign_alt(picture()) and len(alt) <= 1024
    assert "Hazewind (Sloop) sunk in battle 1" in alt and "Vlissingen (Sixth Rate) 7 damage, crippled" in alt
    assert "Prins Willem (Fluyt) 2 damage (a prize)" in alt and "Bob (left), Maas Admiralty, 1 points" in alt
    assert "Vlissingen (Sixth Rate) captured in battle 1" in alt


def test_lost_ships_are_grey_and_damage_boxes_are_filled() -> None:
    from render.campaign import DAMAGE, campaign_figure

    fig = campaign_figure(picture())
    texts = {}
    for t in fig.axes[0].texts:  # Ann's ships first: Bob's list has the same names
        texts.setdefault(t.get_text(), t)
    assert texts["Hazewind"].get_color() != texts["Zeelandia"].get_color()  # greyed
    assert "★ Prins Willem" in texts
    filled = [p for p in fig.axes[0].patches if p.get_facecolor()[:3] == tuple(int(DAMAGE[i:i + 2], 16) / 255
                                                                                for i in (1, 3, 5))]
    assert len(filled) == 3 + 2  # Zeelandia's three, the prize's two (Vlissingen's seven are crippled red)
    assert len(fig.axes[0].lines) == 2  # two struck-through names: Hazewind and Bob's Vlissingen
