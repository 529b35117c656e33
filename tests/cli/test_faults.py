"""Issue 23, item 6: at the command line a fault of the game service (here a stored game whose log
cannot be read) is one `error:` line with exit status 2, worded as the service's problem, not as a
refused command, and never a traceback; a refusal stays a `refused:` line at the table."""

from __future__ import annotations

import io
import sqlite3
import sys
from pathlib import Path

import pytest

from cli.main import main
from cli.table import run_table


def damaged_table(tmp_path: Path) -> str:
    """An offline game with two picks made, then its newest event row spoiled and its snapshots gone."""
    path = tmp_path / "table.db"
    db = f"sqlite+aiosqlite:///{path}"
    assert run_table(None, None, iter(["pick A Down!", "pick B Take Courage", "quit"]), io.StringIO(), False, db=db) == 0
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM snapshots WHERE game_id = 1")
        conn.execute("UPDATE events SET payload = '{\"type\": \"NoSuchEvent\"}' WHERE game_id = 1 "
                     "AND seq = (SELECT max(seq) FROM events WHERE game_id = 1)")
    return db


def one_fault_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.startswith("error: ") and "Traceback" not in err and "refused" not in line, line
    assert "not in your command" in line and "If it keeps happening, report it." in line, line
    return line


@pytest.mark.parametrize("command", [["table", "--game", "1"], ["audit"]])
def test_a_damaged_game_is_one_error_line_and_exit_2(tmp_path: Path, command: list[str],
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = damaged_table(tmp_path)
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO("state\nquit\n"))
    assert main([*command, "--db", db]) == 2
    line = one_fault_line(capsys.readouterr().err)
    assert "Game #1's event" in line and "cannot be read (" in line and "Its log is damaged" in line


def test_a_refusal_at_the_table_is_still_a_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    monkeypatch.setattr(sys, "stdin", io.StringIO("move Kestrel\nquit\n"))
    assert main(["table", "--db", db]) == 0
    captured = capsys.readouterr()
    assert "refused: That can only be done in the Movement Phase" in captured.out and captured.err == ""
