"""One ship's sheet (game/systems/sheet.py) as a PNG in the spirit of its log pad: the name and
owner on top, then each section's rows, a track of boxes where the pad has squares (crossed-off
boxes filled dark), a labelled track with its marker, a hatched grey box where the viewer may not
look, and a vermillion bar by a state a player must not miss.

It draws the rows and nothing else: they were built from the viewer's view, so the picture can
show no more than the text answer. 800 px wide, every text at least 16 pt (about 11 px high when a
phone shows the image 400 px wide); boxes come in fives so they can be counted at that size."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
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
VALUE_W = WIDTH - MARGIN - VALUE_X  # px a value's lines may take
LABEL_W = VALUE_X - MARGIN - 16  # px a label's lines may take, clear of the value
TEXT_W = WIDTH - 2 * MARGIN
INK, MUTED, BAND, LOST, LEFT = "#1b2631", "#4d5656", "#e8eef4", "#3b3b3b", "#ffffff"
ALERT = "#D55E00"  # Okabe-Ito vermillion
MARKER = "#0072B2"  # Okabe-Ito blue
HIDDEN_FILL, HATCH = "#e5e7e9", "#b3b9bf"
TITLE_PT, SUB_PT, HEAD_PT, ROW_PT, STEP_PT = 28, 17, 19, 18, 16


@dataclass(frozen=True)
class Drawn:
    """What one row takes: its label's and value's lines and the track below them."""

    labels: tuple[str, ...]
    lines: tuple[str, ...]
    track_h: int

    @property
    def text_h(self) -> int:
        return LINE * max(len(self.labels), len(self.lines))

    @property
    def height(self) -> int:
        return self.text_h + self.track_h + 10


@lru_cache(maxsize=4096)
def _width(text: str, pt: float, bold: bool) -> float:
    """How wide matplotlib draws the text, in pixels at DPI: names are the players' own and of any
    length, so lines are measured rather than counted in characters."""
    font = FontProperties(size=pt, weight="bold" if bold else "normal")
    return float(_RULER.get_text_width_height_descent(text, font, ismath=False)[0])  # type: ignore[no-untyped-call]


_RULER = RendererAgg(8, 8, DPI)  # type: ignore[no-untyped-call]


def _cut(text: str, pt: float, bold: bool, room: float) -> str:
    """The text, shortened with an ellipsis until it fits."""
    if _width(text, pt, bold) <= room:
        return text
    while text and _width(text + "…", pt, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, pt: float, bold: bool, room: float, most: int = 0) -> tuple[str, ...]:
    """The text in lines that each fit `room` pixels (a word too long for a line is cut across
    lines); with `most`, at most that many, the last shortened with an ellipsis."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if _width(candidate, pt, bold) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        while _width(word, pt, bold) > room:  # a long name without spaces
            cut = len(word)
            while cut > 1 and _width(word[:cut], pt, bold) > room:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    lines.append(line)
    if most and len(lines) > most:
        lines = [*lines[: most - 1], _cut(" ".join(lines[most - 1:]), pt, bold, room)]
    return tuple(lines)


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
    return Drawn(wrap(row.label, ROW_PT, False, LABEL_W, most=2), wrap(row.value, ROW_PT, True, VALUE_W),
                 _track_height(row.track))


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
        ax.text(VALUE_X + i * w + (w - 4) / 2, top + STEP_H / 2, _cut(step, STEP_PT, here, w - 12), fontsize=STEP_PT,
                ha="center", va="center", color=LEFT if here else INK, fontweight="bold" if here else "normal")


def sheet_figure(sheet: Sheet) -> Figure:
    """The figure of a sheet; its texts are exactly what the sheet's rows say (tests read them)."""
    title = wrap(sheet.ship, TITLE_PT, True, TEXT_W, most=2)
    summary = wrap(sheet.summary, SUB_PT, False, TEXT_W)
    head_h = 40 + 42 * len(title) + 36 + LINE * len(summary)
    body = [(s, [(r, _measure(r)) for r in s.rows]) for s in sheet.sections]
    height = head_h + sum(48 + sum(d.height for _, d in rows) for _, rows in body) + MARGIN
    fig = Figure(figsize=(WIDTH / DPI, height / DPI), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(height, 0)  # pixels from the top: the sheet reads down the page
    for i, line in enumerate(title):
        ax.text(MARGIN, 42 + 42 * i, line, fontsize=TITLE_PT, fontweight="bold", color=INK, va="center")
    top = 42 + 42 * len(title) + 2
    ax.text(MARGIN, top, _cut(f"{sheet.owner} · {sheet.system}", SUB_PT, False, TEXT_W), fontsize=SUB_PT,
            color=MUTED, va="center")
    for i, line in enumerate(summary):
        ax.text(MARGIN, top + 32 + i * LINE, line, fontsize=SUB_PT, color=INK, va="center")
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
    text_h = drawn.text_h
    if row.alert:
        ax.add_patch(Rectangle((4, y), 8, text_h, facecolor=ALERT, edgecolor="none"))
    if row.hidden:
        # hatched like a blanked-out column; the hatch is pale so the "?" over it stays legible
        ax.add_patch(Rectangle((VALUE_X - 6, y), VALUE_W + 6, text_h,
                               facecolor=HIDDEN_FILL, edgecolor=HATCH, hatch="//", linewidth=0))
        ax.add_patch(Rectangle((VALUE_X - 6, y), VALUE_W + 6, text_h, facecolor="none", edgecolor=MUTED, linewidth=1.0))
    for i, line in enumerate(drawn.labels):
        ax.text(MARGIN + 4, y + LINE / 2 + i * LINE, line, fontsize=ROW_PT, color=MUTED, va="center")
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
