"""One ship's sheet (game/systems/sheet.py) as a PNG in the spirit of its log pad: the name and
owner on top, then each section's rows, a track of boxes where the pad has squares (crossed-off
boxes filled dark), a labelled track with its marker, a hatched grey box where the viewer may not
look, and a vermillion bar by a state a player must not miss.

It draws the rows and nothing else: they were built from the viewer's view, so the picture can
show no more than the text answer. 800 px wide, every text at least 16 pt (about 11 px high when a
phone shows the image 400 px wide); boxes come in fives so they can be counted at that size."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from game.systems.sheet import Row, Sheet, Track
from render.png import encode

DPI = 100
WIDTH = 800  # px
MARGIN = 20
VALUE_X = 250  # where values and tracks start
LINE = 30  # px per text line of a row
BOX, GAP, GROUP_GAP, PER_GROUP = 24, 4, 12, 5
STEP_H = 36
VALUE_CHARS = 38  # what fits from VALUE_X at the row size
LABEL_CHARS = 17
INK, MUTED, BAND, LOST, LEFT = "#1b2631", "#4d5656", "#e8eef4", "#3b3b3b", "#ffffff"
ALERT = "#D55E00"  # Okabe-Ito vermillion
MARKER = "#0072B2"  # Okabe-Ito blue
HIDDEN_FILL, HATCH = "#e5e7e9", "#b3b9bf"
TITLE_PT, SUB_PT, HEAD_PT, ROW_PT, STEP_PT = 28, 17, 19, 18, 16


@dataclass(frozen=True)
class Drawn:
    """What one row takes: its value's lines and the track below them."""

    lines: tuple[str, ...]
    track_h: int

    @property
    def height(self) -> int:
        return LINE * len(self.lines) + self.track_h + 10


def _per_line() -> int:
    room = WIDTH - MARGIN - VALUE_X
    group = PER_GROUP * (BOX + GAP) + GROUP_GAP
    return PER_GROUP * max(1, room // group)


def _track_height(track: Track | None) -> int:
    if track is None:
        return 0
    if track.steps:
        return STEP_H + 6
    lines = -(-track.total // _per_line()) if track.total else 0
    return lines * (BOX + GAP) + 4


def _measure(row: Row) -> Drawn:
    lines = tuple(textwrap.wrap(row.value, VALUE_CHARS) or [""])
    return Drawn(lines, _track_height(row.track))


def _boxes(ax: Axes, track: Track, top: float) -> None:
    per = _per_line()
    for i in range(track.total):
        line, col = divmod(i, per)
        group, within = divmod(col, PER_GROUP)
        x = VALUE_X + group * (PER_GROUP * (BOX + GAP) + GROUP_GAP) + within * (BOX + GAP)
        y = top + line * (BOX + GAP)
        lost = i < track.lost  # crossed off from the first box, as on the pad
        ax.add_patch(Rectangle((x, y), BOX, BOX, facecolor=LOST if lost else LEFT,
                               edgecolor=INK, linewidth=1.2))
        if lost:
            ax.plot([x + 4, x + BOX - 4], [y + 4, y + BOX - 4], color=LEFT, linewidth=1.5)
            ax.plot([x + 4, x + BOX - 4], [y + BOX - 4, y + 4], color=LEFT, linewidth=1.5)


def _steps(ax: Axes, track: Track, top: float) -> None:
    room = WIDTH - MARGIN - VALUE_X
    w = room / max(1, len(track.steps))
    for i, step in enumerate(track.steps):
        here = i == track.at
        ax.add_patch(Rectangle((VALUE_X + i * w, top), w - 4, STEP_H,
                               facecolor=MARKER if here else LEFT, edgecolor=INK, linewidth=1.2))
        ax.text(VALUE_X + i * w + (w - 4) / 2, top + STEP_H / 2, step[:10], fontsize=STEP_PT,
                ha="center", va="center", color=LEFT if here else INK, fontweight="bold" if here else "normal")


def sheet_figure(sheet: Sheet) -> Figure:
    """The figure of a sheet; its texts are exactly what the sheet's rows say (tests read them)."""
    summary = textwrap.wrap(sheet.summary, 60) or [""]
    head_h = 110 + LINE * len(summary)
    body = [(s, [(r, _measure(r)) for r in s.rows]) for s in sheet.sections]
    height = head_h + sum(48 + sum(d.height for _, d in rows) for _, rows in body) + MARGIN
    fig = Figure(figsize=(WIDTH / DPI, height / DPI), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(height, 0)  # pixels from the top: the sheet reads down the page
    ax.text(MARGIN, 42, textwrap.shorten(sheet.ship, 36, placeholder="…"), fontsize=TITLE_PT, fontweight="bold",
            color=INK, va="center")
    ax.text(MARGIN, 86, textwrap.shorten(f"{sheet.owner} · {sheet.system}", 64, placeholder="…"), fontsize=SUB_PT,
            color=MUTED, va="center")
    for i, line in enumerate(summary):
        ax.text(MARGIN, 118 + i * LINE, line, fontsize=SUB_PT, color=INK, va="center")
    y = float(head_h)
    for section, rows in body:
        ax.add_patch(Rectangle((0, y + 4), WIDTH, 38, facecolor=BAND, edgecolor="none"))
        ax.text(MARGIN, y + 23, section.title, fontsize=HEAD_PT, fontweight="bold", color=INK, va="center")
        y += 48
        for row, drawn in rows:
            _row(ax, row, drawn, y)
            y += drawn.height
    return fig


def _row(ax: Axes, row: Row, drawn: Drawn, y: float) -> None:
    text_h = LINE * len(drawn.lines)
    if row.alert:
        ax.add_patch(Rectangle((4, y), 8, text_h, facecolor=ALERT, edgecolor="none"))
    if row.hidden:
        # hatched like a blanked-out column; the hatch is pale so the "?" over it stays legible
        ax.add_patch(Rectangle((VALUE_X - 6, y), WIDTH - MARGIN - VALUE_X + 6, text_h,
                               facecolor=HIDDEN_FILL, edgecolor=HATCH, hatch="//", linewidth=0))
        ax.add_patch(Rectangle((VALUE_X - 6, y), WIDTH - MARGIN - VALUE_X + 6, text_h,
                               facecolor="none", edgecolor=MUTED, linewidth=1.0))
    ax.text(MARGIN + 4, y + LINE / 2, textwrap.shorten(row.label, LABEL_CHARS, placeholder="…"),
            fontsize=ROW_PT, color=MUTED, va="center")
    for i, line in enumerate(drawn.lines):
        ax.text(VALUE_X, y + LINE / 2 + i * LINE, line, fontsize=ROW_PT, va="center",
                color=ALERT if row.alert else INK, fontweight="bold")
    if row.track is not None:
        (_steps if row.track.steps else _boxes)(ax, row.track, y + text_h + 2)


def texts(fig: Figure) -> list[str]:
    """Every text drawn on a sheet's figure: what a viewer of the image can read."""
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def render_sheet(sheet: Sheet) -> tuple[bytes, str]:
    """The sheet as PNG bytes and its alt text (the same facts in words)."""
    canvas = FigureCanvasAgg(sheet_figure(sheet))
    canvas.draw()  # type: ignore[no-untyped-call]
    # a few flat colours: the palette PNG of the board (render/png.py) keeps it small
    return encode(np.asarray(canvas.buffer_rgba())), sheet.alt()  # type: ignore[no-untyped-call]
