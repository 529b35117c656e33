"""The standings as a CSV file, for a spreadsheet.

A spreadsheet runs a cell that begins with = + - @ (or a tab or carriage return, which some treat the
same way) as a formula, so a member called `=HYPERLINK(…)` could make an organiser's spreadsheet
fetch or run what they chose (CSV or formula injection). Every text cell that begins with one of
those is written with a leading apostrophe, which spreadsheets show as text and do not run (the
OWASP advice). Numbers are written as numbers.

A team league's file names both members of each team after the team's name (`member_1`, `member_2`);
a league with a top cut adds each entrant's `seed` and how far they went in it (`top_cut`: "champion",
"final", "semi-finals" …), so that one sheet holds the whole league (docs/leagues.md)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from game.league.standings import StandingRow

HEADER = ("rank", "name", "wins", "draws", "losses", "forfeits", "sp_margin", "opponents_wins", "rating", "dropped")
TEAM_COLUMNS = ("member_1", "member_2")
CUT_COLUMNS = ("seed", "top_cut")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutral(text: str) -> str:
    """A text cell a spreadsheet shows as text and never runs."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def header(teams: bool = False, cut: bool = False) -> tuple[str, ...]:
    return (*HEADER[:2], *(TEAM_COLUMNS if teams else ()), *HEADER[2:], *(CUT_COLUMNS if cut else ()))


def standings_csv(rows: Sequence[StandingRow], members: Mapping[str, Sequence[str]] | None = None,
                  cut: Mapping[str, tuple[int, str]] | None = None) -> str:
    """The standings, one line per entrant, best first (wins counts a draw as half and a bye as a win,
    as the standings do). `members`: a team league's members' names by entrant; `cut`: each entrant's
    seed (0: not in the cut) and how far they went in the top cut."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header(members is not None, cut is not None))
    for r in rows:
        team = [neutral(m) for m in [*members.get(r.member, ()), "", ""][:2]] if members is not None else []
        seed, went = cut.get(r.member, (0, "")) if cut is not None else (0, "")
        writer.writerow((r.rank, neutral(r.name), *team, f"{r.wins:g}", r.draws, r.losses, r.forfeits, r.margin,
                         f"{r.opponents_wins:g}", f"{r.rating:.2f}", "yes" if r.dropped else "no",
                         *((seed or "", went) if cut is not None else ())))
    return out.getvalue()
