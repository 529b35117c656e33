"""A finished game's summary card as a PNG, with its alt text: the result, turns and duration, one
column per side (who played it, Strike Points, ships lost, dice luck) and whether the dice verified.

Everything on it is public once the game is over (game/chronicle.py): no hand, no order, no face a
player alone saw. It stays readable when Discord shows it 400 pixels wide: a few large lines, each
side a column in its own colour, luck as a signed number with a word rather than a fine chart.
"""

from __future__ import annotations

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from game.chronicle import CardText, SideSummary, Summary, luck_text, turns_text

DPI = 100
WIDTH_IN = 8.0
HEIGHT_IN = 5.0
RESULT_CHARS = 58  # what fits one line of the subtitle at its size
INK = "#1b2631"
GREY = "#4d5656"
SIDE_COLOURS = ("#1f4e79", "#922b21", "#1e8449", "#7d3c98")
WON = "#d4a017"
MAX_SIDES = 4  # a fleet battle has two sides; four columns is the most that reads at 400 px
NAME_CHARS = 22


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _who(card: CardText, side: str) -> str:
    names = card.members.get(side, ())
    return _cut(" & ".join(names) if names else f"Player {side}", NAME_CHARS)


def _result(summary: Summary) -> str:
    if summary.winner:
        return f"Player {summary.winner} wins" + (f" ({summary.result})" if summary.result else "")
    return f"A draw ({summary.result})" if summary.result else "A draw"


def _verify(card: CardText) -> str:
    return "✔ dice verified from the revealed seed" if card.verified else "✘ the dice did not verify: /game verify"


def summary_figure(summary: Summary, card: CardText) -> Figure:
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(0, 1)
    ax.set_ylim(HEIGHT_IN, 0)  # inches from the top
    ax.text(0.03, 0.42, _cut(card.title, 36), fontsize=24, fontweight="bold", color=INK, va="center")
    # the result may be long (a withdrawal says why): a line of its own, the turns and time below it
    ax.text(0.03, 0.92, _cut(_result(summary), RESULT_CHARS), fontsize=16, color=GREY, va="center")
    ax.text(0.03, 1.28, f"{turns_text(summary.turns)} · {card.duration}", fontsize=16, color=GREY, va="center")
    sides = summary.sides[:MAX_SIDES]
    width = 0.94 / max(1, len(sides))
    for i, side in enumerate(sides):
        _column(ax, side, 0.03 + i * width, width, SIDE_COLOURS[i % len(SIDE_COLOURS)],
                side.side == summary.winner, card)
    ax.text(0.03, HEIGHT_IN - 0.62, _verify(card), fontsize=15, va="center",
            color="#1e8449" if card.verified else "#922b21", fontweight="bold")
    ax.text(0.03, HEIGHT_IN - 0.25, f"Game #{card.game_id} · /game replay shows it again · luck = hits − expected",
            fontsize=12, color=GREY, va="center")
    return fig


def _column(ax: object, side: SideSummary, x: float, width: float, colour: str, won: bool, card: CardText) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    top = 1.7
    ax.fill_between([x, x + width - 0.02], top, top + 0.45, color=colour, linewidth=0)
    label = f"{'★ ' if won else ''}{side.side}: {_who(card, side.side)}"
    ax.text(x + 0.015, top + 0.225, _cut(label, 30), fontsize=15, fontweight="bold", color="white", va="center")
    rows = (("Strike Points", str(side.strike_points)),
            ("Ships lost", f"{side.lost} of {side.ships}"),
            ("Dice luck", f"{side.luck:+.1f}" if side.dice else "no dice"))
    for j, (what, value) in enumerate(rows):
        y = top + 0.75 + j * 0.5
        ax.text(x + 0.015, y, what, fontsize=15, color=GREY, va="center")
        ax.text(x + width - 0.04, y, value, fontsize=18, fontweight="bold", color=INK, va="center", ha="right")


def summary_alt(summary: Summary, card: CardText) -> str:
    """The card in words (discord.File description, at most 1024 characters)."""
    parts = [f"Summary card of {card.title}: {_result(summary)} after {turns_text(summary.turns)}, {card.duration}."]
    for side in summary.sides:
        luck = luck_text(side.luck) if side.dice else "no dice rolled"
        who = " & ".join(card.members.get(side.side, ())) or f"Player {side.side}"  # whole: words have room
        parts.append(f"Side {side.side} ({who[:80]}): {side.strike_points} Strike Points, "
                     f"{side.lost} of {side.ships} ships lost, dice luck {luck}.")
    parts.append("The dice verified from the revealed seed." if card.verified else "The dice did not verify.")
    return " ".join(parts)[:1024]


def summary_card(summary: Summary, card: CardText) -> tuple[bytes, str]:
    """The PNG and its alt text."""
    out = io.BytesIO()
    summary_figure(summary, card).savefig(out, format="png", dpi=DPI)
    return out.getvalue(), summary_alt(summary, card)
