"""Colours, hatches and sizes of the board. Sides use the Okabe-Ito colour-blind-safe palette and
a second cue (solid or dashed outline, light or dark fill), so they differ in greyscale too."""

from __future__ import annotations

from dataclasses import dataclass

SEA = "#dbe9f4"
GRID = "#b8cfe0"
TABLE_EDGE = "#1b2a38"
WEATHER_EDGE = "#0b4f8a"
TEXT = "#111111"
HALO = "white"


@dataclass(frozen=True)
class SideStyle:
    fill: str
    edge: str
    linestyle: str
    label: str


SIDES = (
    SideStyle(fill="#0072B2", edge="#002b45", linestyle="solid", label="blue, solid"),
    SideStyle(fill="#E69F00", edge="#5c3d00", linestyle="dashed", label="orange, dashed"),
    SideStyle(fill="#009E73", edge="#003d2c", linestyle="dotted", label="green, dotted"),
    SideStyle(fill="#CC79A7", edge="#4d2a3e", linestyle="dashdot", label="pink, dash-dot"),
)

TERRAIN = {
    "island": {"facecolor": "#c8b27a", "edgecolor": "#5b4a1e", "hatch": "", "alpha": 1.0},
    "landmass": {"facecolor": "#a38a55", "edgecolor": "#4a3a14", "hatch": "--", "alpha": 1.0},
    "rock": {"facecolor": "#7d7d7d", "edgecolor": "#2e2e2e", "hatch": "xx", "alpha": 1.0},
    "shoal": {"facecolor": "#f2efd7", "edgecolor": "#9c9470", "hatch": "..", "alpha": 1.0},
    "fog_bank": {"facecolor": "#ffffff", "edgecolor": "#8a8a8a", "hatch": "//", "alpha": 0.55},
}

OFF_TABLE = "#eeeeee"
WAKE = "#6f8fa8"
MOVE_TRAIL = "#333333"
# Okabe-Ito as well: attack arrows vermillion, reload markers black, enemies in a path marked
# yellow (a highlighter behind the hull and behind the label line that names the path)
ATTACK_LINE = "#D55E00"
RELOAD = "#000000"
TARGET = "#F0E442"
ARC = "#2c3e50"  # broadside paths and range rings
BAND_ALPHA = 0.08  # each range band of a broadside path adds a layer: Yard Arm shows four, Cannon Shot one
PREVIEW = "#8e44ad"
LEADER = "#444444"
DONE_TINT = 0.55  # a ship that has had its activation this phase: its colour mixed this much with white

# Text sizes in points at the default width (1080 px, 100 dpi); they scale with the width, so the
# board reads the same on a phone whatever width it is drawn at. 18 pt is a line 25 px high: shown
# 400 px wide, 9.3 px.
WIDTH = 1080
FONT = 18.0
FONT_TITLE = 22.0


def tint(colour: str, amount: float) -> str:
    """The colour mixed with white (amount 0: unchanged, 1: white)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)
