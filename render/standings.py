"""A league's standings as a PNG: a table with one line per entrant, in the order the tie-breaks give.

Standings are public (every result in them was posted in the open), so this draws from what anyone
may see. The image stays readable when Discord shows it 400 pixels wide: at most MAX_ROWS lines of a
large face, names cut to fit their column, the leaders picked out by colour rather than fine detail.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from game.league.standings import StandingRow

MAX_ROWS = 32  # more than this and the lines would be too small to read on a phone
NAME_CHARS = 22
DPI = 100
WIDTH_IN = 8.0
ROW_IN = 0.42
HEAD_IN = 1.25
MEDALS = ("#d4a017", "#a8a9ad", "#b0703a")  # gold, silver, bronze
STRIPE = "#eef2f7"
INK = "#1b2631"


Row = StandingRow  # what a line of the table shows (game/league/standings.py)
# a top cut's round as drawn: its name ("Semi-finals") and its matches, each (side A, side B, who went
# on or None), names as plain text with their seeds
BracketRound = tuple[str, Sequence[tuple[str, str, str | None]]]
CHAMPION = "#d4a017"


# column: (heading, left edge as a fraction of the width, alignment)
COLUMNS = (("#", 0.02, "left"), ("Captain", 0.08, "left"), ("P", 0.50, "right"), ("W", 0.57, "right"),
           ("D", 0.63, "right"), ("L", 0.69, "right"), ("SP±", 0.78, "right"), ("Opp", 0.87, "right"),
           ("Rating", 0.985, "right"))
KEY = "W wins (draw ½) · SP± Strike Point margin · Opp opponents' wins · Rating OpenSkill"


def _number(x: float) -> str:
    # wins and opponents' wins count a draw as half: one decimal says all there is, and fits the column
    return str(int(x)) if x == int(x) else f"{x:.1f}"


def _cells(row: Row) -> tuple[str, ...]:
    tag = " (dropped)" if row.dropped else ""  # kept whole: the name gives way
    room = NAME_CHARS - len(tag)
    name = (row.name if len(row.name) <= room else row.name[: room - 1] + "…") + tag
    return (str(row.rank), name, str(row.played), _number(row.wins), str(row.draws), str(row.losses),
            f"{row.margin:+d}" if row.margin else "0", _number(row.opponents_wins), f"{row.rating:.1f}")


def _fit(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _seeded(text: str) -> str:
    """A bracket name cut to fit, its seed ("(3) ") kept whole."""
    seed, _, name = text.partition(") ")
    if text.startswith("(") and seed[1:].isdigit() and name:
        return f"{seed}) {_fit(name, BRACKET_NAME)}"
    return _fit(text, BRACKET_NAME)


BRACKET_NAME = 18  # a match's two names and who went on share one line at 400 px


def _bracket_lines(bracket: Sequence[BracketRound], champion: str | None) -> list[tuple[str, str, str]]:
    """The top cut under the table: a line a stage (kind "head") and a match ("match": the pair, and on
    the right who went on), then the champion."""
    if not bracket:
        return []
    lines = []
    for stage, matches in bracket:
        lines.append(("head", f"Top cut: {stage}", ""))
        for a, b, won in matches:
            lines.append(("match", f"{_seeded(a)} v {_seeded(b)}",
                          f"→ {_fit(won, BRACKET_NAME)}" if won else "to play"))
    if champion:
        lines.append(("champion", f"Champion: {_fit(champion, 40)}", ""))
    return lines


def standings_figure(title: str, subtitle: str, rows: Sequence[Row], bracket: Sequence[BracketRound] = (),
                     champion: str | None = None) -> Figure:
    shown = list(rows[:MAX_ROWS])
    more = len(rows) - len(shown)
    cut = _bracket_lines(bracket, champion)
    lines = len(shown) + 2 + (1 if more else 0) + len(cut)
    height = HEAD_IN + ROW_IN * lines
    fig = Figure(figsize=(WIDTH_IN, height), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(height, 0)  # inches from the top: rows go down the page
    ax.text(0.02, 0.45, title[:48], fontsize=22, fontweight="bold", color=INK, va="center")
    ax.text(0.02, 0.95, subtitle[:70], fontsize=14, color="#4d5656", va="center")
    top = HEAD_IN
    for heading, x, align in COLUMNS:
        ax.text(x, top + ROW_IN / 2, heading, fontsize=14, fontweight="bold", color=INK, ha=align, va="center")
    ax.plot([0.01, 0.995], [top + ROW_IN, top + ROW_IN], color=INK, linewidth=1.5)
    for i, row in enumerate(shown):
        y = top + ROW_IN * (i + 1)
        if i % 2:
            ax.fill_between([0, 1], y, y + ROW_IN, color=STRIPE, linewidth=0)
        if row.rank <= len(MEDALS) and not champion:  # with a champion, the bracket gave the places
            ax.fill_between([0, 0.065], y + 0.05, y + ROW_IN - 0.05, color=MEDALS[row.rank - 1], linewidth=0)
        for (_, x, align), cell in zip(COLUMNS, _cells(row), strict=True):
            ax.text(x, y + ROW_IN / 2, cell, fontsize=16, color=INK, ha=align, va="center",
                    fontweight="bold" if row.rank == 1 else "normal")
    if more:
        ax.text(0.08, top + ROW_IN * (len(shown) + 1.5), f"… and {more} more (/league standings lists them all)",
                fontsize=14, color="#4d5656", va="center")
    y = top + ROW_IN * (len(shown) + 1 + (1 if more else 0))
    for kind, left, right in cut:
        if kind == "head":
            ax.plot([0.01, 0.995], [y + 0.06, y + 0.06], color=INK, linewidth=1.5)
        if kind == "champion":
            ax.fill_between([0.01, 0.995], y + 0.04, y + ROW_IN - 0.04, color=CHAMPION, linewidth=0)
        strong = kind in ("head", "champion")
        ax.text(0.02 if strong else 0.04, y + ROW_IN / 2, left, fontsize=16 if strong else 14, color=INK,
                va="center", fontweight="bold" if strong else "normal")
        if right:
            ax.text(0.985, y + ROW_IN / 2, right, fontsize=14, color=INK if right.startswith("→") else "#4d5656",
                    ha="right", va="center", fontweight="bold")
        y += ROW_IN
    ax.text(0.02, height - ROW_IN / 2, KEY, fontsize=13, color="#4d5656", va="center")
    return fig


def standings_png(title: str, subtitle: str, rows: Sequence[Row], bracket: Sequence[BracketRound] = (),
                  champion: str | None = None) -> bytes:
    fig = standings_figure(title, subtitle, rows, bracket, champion)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI)
    return out.getvalue()
