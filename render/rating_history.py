"""A captain's rating after each ranked game, as a PNG for /captain.

Drawn for Discord's 400-pixel-wide preview: a thick line with a dot per game, few ticks, large
type, and the latest value written out, so the shape and the number both read on a phone. The
plot shows only what the record already lets the viewer see (the record hides it when the member
hid their rating). Its alt text is render/alt_text.py `rating_alt`."""

from __future__ import annotations

import io
from collections.abc import Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

DPI = 100
WIDTH_IN, HEIGHT_IN = 8.0, 4.5
LINE = "#1f5f8b"
INK = "#1b2631"
NAME_CHARS = 26  # the title fits the width at 22 pt


def rating_figure(name: str, history: Sequence[float]) -> Figure:
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.13, 0.17, 0.82, 0.62))
    games = list(range(1, len(history) + 1))
    ax.plot(games, list(history), color=LINE, linewidth=4, marker="o", markersize=9 if len(history) <= 30 else 0)
    shown = name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"
    fig.text(0.02, 0.93, f"{shown}: rating", fontsize=22, fontweight="bold", color=INK, va="center")
    if history:  # on a line of its own: a long name never runs into it
        fig.text(0.02, 0.85, f"now {history[-1]:.1f} after {len(history)} ranked game{'s' * (len(history) != 1)}",
                 fontsize=17, color=LINE, va="center")
    ax.set_xlabel("ranked game", fontsize=16, color=INK)
    ax.tick_params(labelsize=15, colors=INK)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
    ax.grid(True, color="#d5dbdb", linewidth=1)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if len(history) == 1:  # one point: one tick, not fractions of a game
        ax.set_xlim(0.5, 1.5)
        ax.set_xticks([1])
    return fig


def rating_png(name: str, history: Sequence[float]) -> bytes:
    out = io.BytesIO()
    rating_figure(name, history).savefig(out, format="png", dpi=DPI)
    return out.getvalue()

