"""The standings as a CSV file, for a spreadsheet.

A spreadsheet runs a cell that begins with = + - @ (or a tab or carriage return, which some treat the
same way) as a formula, so a member called `=HYPERLINK(…)` could make an organiser's spreadsheet
fetch or run what they chose (CSV or formula injection). Every text cell that begins with one of
those is written with a leading apostrophe, which spreadsheets show as text and do not run (the
OWASP advice). Numbers are written as numbers."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from game.league.standings import StandingRow

HEADER = ("rank", "name", "wins", "draws", "losses", "forfeits", "sp_margin", "opponents_wins", "rating", "dropped")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutral(text: str) -> str:
    """A text cell a spreadsheet shows as text and never runs."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def standings_csv(rows: Sequence[StandingRow]) -> str:
    """The standings, one line per entrant, best first (wins counts a draw as half and a bye as a win,
    as the standings do)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    for r in rows:
        writer.writerow((r.rank, neutral(r.name), f"{r.wins:g}", r.draws, r.losses, r.forfeits, r.margin,
                         f"{r.opponents_wins:g}", f"{r.rating:.2f}", "yes" if r.dropped else "no"))
    return out.getvalue()
