"""A campaign's squadrons as they stand between battles, as a PNG with its alt text: a band per
member (name, squadron, campaign points), each ship with its Damage track as seven boxes, ships lost
greyed and struck through with how and when they were lost, prizes marked.

It draws only the campaign's own record (game/campaign.py `Picture`), never a game under way. It is
meant to read at 400 pixels wide: two ships a row, names and marks large, the track as filled boxes
rather than numbers."""

from __future__ import annotations

import io
import math

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from game.campaign import CampaignShip, Picture, PictureMember, ship_state
from game.model import MAX_TRACK

DPI = 100
WIDTH_IN = 8.0
HEAD_IN = 1.2  # the title and the subtitle
BAND_IN = 0.55  # a member's band
ROW_IN = 0.78  # a row of two ships
FOOT_IN = 0.45
MAX_MEMBERS = 8  # more would not read at 400 px: the rest are named in the alt text and the ledger
INK, GREY, LOST = "#1b2631", "#4d5656", "#a6acaf"
BANDS = ("#1f4e79", "#922b21", "#1e8449", "#7d3c98", "#b9770e", "#117a65", "#5d6d7e", "#6e2c00")
DAMAGE, EMPTY, CRIPPLED = "#c0392b", "#fdfefe", "#641e16"
NAME_CHARS = 18


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _height(members: tuple[PictureMember, ...]) -> float:
    rows = sum(max(1, math.ceil(len(m.squadron.ships) / 2)) for m in members)
    return HEAD_IN + len(members) * BAND_IN + rows * ROW_IN + FOOT_IN


def campaign_figure(picture: Picture) -> Figure:
    shown = picture.members[:MAX_MEMBERS]
    height = _height(shown)
    fig = Figure(figsize=(WIDTH_IN, height), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(0, WIDTH_IN)
    ax.set_ylim(height, 0)  # inches from the top
    ax.text(0.25, 0.45, _cut(picture.title, 34), fontsize=24, fontweight="bold", color=INK, va="center")
    ax.text(0.25, 0.92, _cut(picture.subtitle, 60), fontsize=15, color=GREY, va="center")
    y = HEAD_IN
    for i, member in enumerate(shown):
        y = _member(ax, member, y, BANDS[i % len(BANDS)])
    more = len(picture.members) - len(shown)
    foot = f"+{more} more members in /campaign ledger · " if more else ""
    ax.text(0.25, height - FOOT_IN / 2, foot + "boxes: damage carried into the next battle (7 = crippled)", fontsize=12, color=GREY,
            va="center")
    return fig


def _member(ax: object, member: PictureMember, y: float, colour: str) -> float:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    band = LOST if member.left else colour
    ax.add_patch(Rectangle((0.15, y + 0.05), WIDTH_IN - 0.3, BAND_IN - 0.1, color=band, linewidth=0))
    who = _cut(member.name, 20) + (" (left)" if member.left else "")
    ax.text(0.3, y + BAND_IN / 2, f"{who} · {_cut(member.squadron.name, 22)}", fontsize=16, fontweight="bold",
            color="white", va="center")
    ax.text(WIDTH_IN - 0.3, y + BAND_IN / 2, f"{member.points} pts", fontsize=16, fontweight="bold", color="white",
            va="center", ha="right")
    y += BAND_IN
    ships = member.squadron.ships
    for k, ship in enumerate(ships):
        col, row = k % 2, k // 2
        _ship(ax, ship, 0.3 + col * (WIDTH_IN / 2), y + row * ROW_IN)
    return y + max(1, math.ceil(len(ships) / 2)) * ROW_IN


def _ship(ax: object, ship: CampaignShip, x: float, y: float) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    lost = not ship.afloat
    ink = LOST if lost else INK
    name = ("★ " if ship.prize_of else "") + _cut(ship.name, NAME_CHARS)
    ax.text(x, y + 0.22, name, fontsize=16, fontweight="bold", color=ink, va="center")
    if lost:
        # struck through: a line across the name, as wide as the name is drawn
        width = 0.13 * len(name)
        ax.plot([x - 0.03, x + width], [y + 0.24, y + 0.24], color=GREY, linewidth=2.5)
        ax.text(x, y + 0.56, f"{_cut(ship.entry.cls, 14)} · {ship_state(ship)}", fontsize=13, color=GREY, va="center",
                style="italic")
        return
    ax.text(x, y + 0.56, _cut(ship.entry.cls, 14), fontsize=13, color=GREY, va="center")
    if ship.damage >= MAX_TRACK:
        ax.text(x + 3.3, y + 0.22, "crippled", fontsize=13, fontweight="bold", color=CRIPPLED, va="center", ha="right")
    box = 0.2
    left = x + 1.55
    for b in range(MAX_TRACK):
        filled = b < ship.damage
        face = (CRIPPLED if ship.damage >= MAX_TRACK else DAMAGE) if filled else EMPTY
        ax.add_patch(Rectangle((left + b * (box + 0.04), y + 0.46), box, box, facecolor=face, edgecolor=INK,
                               linewidth=1.2))


def campaign_alt(picture: Picture) -> str:
    """The picture in words (a discord.File description, at most 1,024 characters)."""
    parts = [f"{picture.title}: {picture.subtitle}."]
    for m in picture.members:
        ships = "; ".join(f"{s.name} ({s.entry.cls}) {ship_state(s)}" for s in m.squadron.ships)
        parts.append(f"{m.name}{' (left)' if m.left else ''}, {m.squadron.name}, {m.points} points: {ships}.")
    said = " ".join(parts)
    return said if len(said) <= 1024 else said[:1023] + "…"


def campaign_png(picture: Picture) -> tuple[bytes, str]:
    """The PNG and its alt text."""
    out = io.BytesIO()
    campaign_figure(picture).savefig(out, format="png", dpi=DPI)
    return out.getvalue(), campaign_alt(picture)
