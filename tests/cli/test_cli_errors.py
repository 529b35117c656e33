"""Issue 25, items 4 and 5: every error path of the command line is one `error:` line and exit 2, in
words that exist outside Discord; a backup given to `audit` or `verify` is read, never written."""

from __future__ import annotations

import hashlib
import io
import sqlite3
from pathlib import Path

import pytest

from cli.main import main
from cli.table import run_table


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def stored(tmp_path: Path) -> Path:
    """A database with one game in progress, made by the offline table."""
    import gc

    db = tmp_path / "games.db"
    run_table(None, None, iter(["pick A Down!", "pick B Take Courage", "quit"]), io.StringIO(), False,
              db=f"sqlite+aiosqlite:///{db}")
    # the table's last connections may close (and checkpoint the write-ahead log into the file) when
    # they are collected: settle the file before any test measures it
    gc.collect()
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def test_a_mistyped_backup_path_is_refused_and_nothing_is_created(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["audit"], ["verify", "1"]):
        for db in (str(tmp_path / "typo.db"), f"sqlite+aiosqlite:///{tmp_path / 'nope' / 'x.db'}"):
            assert main([*command, "--db", db]) == 2
            assert "There is no database at" in _one_error(capsys)
    assert list(tmp_path.iterdir()) == []


def test_audit_and_verify_read_a_backup_without_changing_it(stored: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _digest(stored)
    assert main(["audit", "--db", str(stored)]) == 0  # a file's path is enough
    out = capsys.readouterr().out
    assert "game #1:" in out and "1 game(s) checked, 0 with a mismatch." in out
    assert main(["verify", "1", "--db", str(stored)]) == 2  # the seed is secret until the end
    assert "secret until the game ends" in _one_error(capsys)
    assert _digest(stored) == before


def test_an_older_backup_is_refused_rather_than_migrated(stored: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(stored) as con:
        con.execute("UPDATE alembic_version SET version_num = '0011_decisions'")
    before = _digest(stored)
    assert main(["audit", "--db", str(stored)]) == 2
    line = _one_error(capsys)
    assert "is at migration 0011_decisions" in line and "never migrated" in line
    assert _digest(stored) == before
    not_ours = stored.parent / "other.db"
    with sqlite3.connect(not_ours) as con:
        con.execute("CREATE TABLE t (x)")
    assert main(["audit", "--db", str(not_ours)]) == 2
    assert "has no Quarterdeck tables" in _one_error(capsys)


def test_a_game_that_is_not_there_is_named_in_the_command_lines_words(stored: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["audit", "99"], ["verify", "99"]):
        assert main([*command, "--db", str(stored)]) == 2
        line = _one_error(capsys)
        assert "no game #99" in line and "quarterdeck audit" in line and "/game" not in line


def test_an_unknown_scenario_lists_the_built_in_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.txt"
    script.write_text("pick A Down!\n", encoding="utf-8")
    assert main(["script", str(script), "--scenario", "nosuch"]) == 2
    line = _one_error(capsys)
    assert "no built-in scenario or scenario file 'nosuch'" in line and "quickstart" in line


def test_table_help_gives_every_option_its_default_and_the_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["table", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--scenario", "--seed", "--vs-ai", "--new", "--game", "--db", "--out"):
        assert option in text
    assert "default: quickstart" in text and "default: out/" in text and "Built-in scenarios: " in text
    assert "quickstart" in text.split("Built-in scenarios: ")[1]


def test_a_binary_script_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "noise.bin"
    script.write_bytes(bytes(range(256)) * 4)
    assert main(["script", str(script)]) == 2
    assert "not UTF-8 text" in _one_error(capsys)


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """`quarterdeck demo --json | head -c 100`: the pipe breaks under the command; it stops without a
    traceback."""
    import subprocess
    import sys

    run = subprocess.Popen([sys.executable, "-m", "cli.main", "demo", "--json", "--games", "3", "--images", "none"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert run.stdout is not None and run.stderr is not None
    assert run.stdout.read(100)
    run.stdout.close()
    err = run.stderr.read().decode()
    assert run.wait(timeout=300) == 1 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_one_ctrl_c_at_the_table_leaves_it_cleanly(tmp_path: Path) -> None:
    """Issue 25, item 4: the first Ctrl-C at the table's prompt was ignored and the second printed
    some 80 lines of traceback. One now leaves, saying the game is saved."""
    import os
    import pty
    import signal
    import subprocess
    import sys
    import threading
    import time

    typed, terminal = pty.openpty()
    run = subprocess.Popen([sys.executable, "-m", "cli.main", "table", "--new", "--db", str(tmp_path / "t.db"),
                            "--out", str(tmp_path / "out")],
                           stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, text=True)
    seen: list[str] = []
    assert run.stdout is not None and run.stderr is not None
    stdout = run.stdout
    reader = threading.Thread(target=lambda: seen.extend(iter(lambda: stdout.read(1), "")), daemon=True)
    reader.start()

    def wait_for_prompt(count: int) -> None:  # the table is waiting at its prompt for the count-th time
        deadline = time.monotonic() + 120
        while "".join(seen).count("> ") < count:
            assert time.monotonic() < deadline and run.poll() is None, "".join(seen)
            time.sleep(0.05)

    try:
        wait_for_prompt(1)
        os.write(typed, b"pick A Down!\n")
        wait_for_prompt(2)
        run.send_signal(signal.SIGINT)
        assert run.wait(timeout=120) == 0, run.stderr.read()
        reader.join(timeout=10)
        err = run.stderr.read()
    finally:
        os.close(typed)
        os.close(terminal)
    out = "".join(seen)
    assert "Left the table" in out and "Traceback" not in err and "Traceback" not in out
