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
    SideStyle(fill="#0072B2", edge="#002b45", linestyle="solid", label="blue, solid outline"),
    SideStyle(fill="#E69F00", edge="#5c3d00", linestyle="dashed", label="orange, dashed outline"),
    SideStyle(fill="#009E73", edge="#003d2c", linestyle="dotted", label="green, dotted outline"),
    SideStyle(fill="#CC79A7", edge="#4d2a3e", linestyle="dashdot", label="pink, dash-dot outline"),
)

TERRAIN = {
    "island": {"facecolor": "#c8b27a", "edgecolor": "#5b4a1e", "hatch": "", "alpha": 1.0},
    "landmass": {"facecolor": "#a38a55", "edgecolor": "#4a3a14", "hatch": "--", "alpha": 1.0},
    "rock": {"facecolor": "#7d7d7d", "edgecolor": "#2e2e2e", "hatch": "xx", "alpha": 1.0},
    "shoal": {"facecolor": "#f2efd7", "edgecolor": "#9c9470", "hatch": "..", "alpha": 1.0},
    "fog_bank": {"facecolor": "#ffffff", "edgecolor": "#8a8a8a", "hatch": "//", "alpha": 0.55},
}

DAMAGE = "#8b0000"
FATIGUE = "#d4a017"
PIP_EMPTY = "#ffffff"
RELOAD = "#c0392b"
WAKE = "#6f8fa8"
MOVE_TRAIL = "#333333"
ATTACK_LINE = "#c0392b"
BANDS = {"pistol": "#c0392b", "musket": "#e67e22", "cannon": "#7f8c8d"}
ARC = "#2c3e50"
PREVIEW = "#8e44ad"

FONT_SMALL = 9
FONT = 11
FONT_HEADER = 15
