"""Issue 25, items 1, 3 and 6: a first game that teaches. `make run` without a token opens a game
against the computer captain, draws its boards from the set-up on, tells its end (even when the
computer makes the last activation), shows the dice commitment and the seed, exports the log that
`quarterdeck verify --file` checks; `script --events` shows the worked example's dice."""

from __future__ import annotations

import io
import json
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from cli.main import main
from cli.table import run_table
from game.dice import seed_from_number
from game.fairness import commitment
from tests.cli.test_cli import _newcomer

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BOARD = re.compile(r"^\d{4}-turn\d\d-(movement|attack)-(Kestrel|Amazone|Otter|Hoorn)\.png$")


class _Terminal(io.StringIO):
    """Lines typed at a terminal: `make run` opens the table only at one."""

    def isatty(self) -> bool:
        return True


def _readme_first_game() -> tuple[list[str], int]:
    section = README.split("### Your first game at the terminal", 1)[1]
    seed = re.search(r"quarterdeck table --new --seed (\d+)", section)
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert seed and block, "the README's first game names its seed and lists its commands"
    return [line for line in block.group(1).splitlines() if line.strip()], int(seed.group(1))


def test_the_readmes_first_game_reaches_a_broadside_in_at_most_ten_commands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    commands, seed = _readme_first_game()
    assert len(commands) <= 10, commands
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join([*commands, "quit"]) + "\n"))
    boards = tmp_path / "boards"
    assert main(["table", "--new", "--seed", str(seed), "--db", str(tmp_path / "t.db"), "--out", str(boards)]) == 0
    text = capsys.readouterr().out
    assert "The computer captain commands player B." in text  # the default, as the README says
    assert f"Its SHA-256 is {commitment(seed_from_number(seed))}" in text
    assert "refused" not in text
    assert "Kestrel's port Broadside at Otter (Cannon Shot, aimed at the hull): 2 hits" in text
    assert "Amazone's port Broadside at Otter (Cannon Shot, aimed at the hull): 1 hit" in text
    folder = boards / "table-game1"
    assert f"Boards are written to {folder}/" in text
    written = sorted(p.name for p in folder.glob("*.png"))
    assert written == ["0000-turn01-setup.png", "0001-turn01-movement-Otter.png", "0002-turn01-movement-Amazone.png",
                       "0003-turn01-movement-Hoorn.png", "0004-turn01-movement-Kestrel.png",
                       "0005-turn01-attack-Hoorn.png", "0006-turn01-attack-Kestrel.png",
                       "0007-turn01-attack-Otter.png", "0008-turn01-attack-Amazone.png"]
    # the set-up is drawn before the first card is chosen, and every board's path is said
    assert text.index(f"board: {folder / written[0]}") < text.index("Player A has chosen an initiative card")
    assert all(f"board: {folder / name}" in text for name in written)


def test_make_run_without_a_token_opens_a_first_game_against_the_computer_and_resumes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # quarterdeck.db and out/ where `make run` is typed
    for name in ("DISCORD_TOKEN", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(signal, "signal", lambda *args: None)  # the table's Ctrl-C handler: not pytest's
    monkeypatch.setattr(sys, "stdin", _Terminal("export early.json\nquit\n"))
    assert bot_main([]) == 0
    text = capsys.readouterr().out
    assert "New game #1 (Quick start)." in text and "The computer captain commands player B." in text
    assert "Boards are written to out/table-game1/" in text
    assert "board: out/table-game1/0000-turn01-setup.png" in text
    assert (tmp_path / "out" / "table-game1" / "0000-turn01-setup.png").exists()
    assert "refused: A game's log is exported once it is over" in text and not (tmp_path / "early.json").exists()
    monkeypatch.setattr(sys, "stdin", _Terminal("quit\n"))
    assert bot_main([]) == 0
    again = capsys.readouterr().out
    assert "Resuming game #1 (Quick start)" in again and "`--new` starts one" in again
    assert "The computer captain commands player B." in again
    assert sorted(p.name for p in (tmp_path / "out" / "table-game1").glob("*.png")) == ["0000-turn01-setup.png"]


def test_vs_ai_on_a_resumed_game_without_the_computer_is_answered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["table", "--hot-seat", "--db", db, "--out", str(tmp_path / "out")]) == 0
    assert "computer captain" not in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["table", "--vs-ai", "B", "--db", db]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: game #1 (Quick start) has no computer captain")
    assert "`quarterdeck table --new --vs-ai B`" in lines[0]
    assert "Resuming" not in captured.out
    assert main(["table", "--new", "--hot-seat", "--vs-ai", "B", "--db", db]) == 2
    assert capsys.readouterr().err.startswith("error: --hot-seat is a game without the computer captain")


def test_a_game_the_computer_ends_is_told_drawn_exported_and_verified(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 1: the newcomer (tests/cli/test_cli.py) plays the quick start to the end of turn 10, and
    the computer's Otter makes the last activation."""
    db = tmp_path / "t.db"
    exported = tmp_path / "game.json"
    out = io.StringIO()

    def player() -> Iterator[str]:
        for line in _newcomer(out, []):
            if line == "quit":
                yield f"export {exported}"
            yield line

    assert run_table(None, 1, player(), out, False, vs_ai="B", db=f"sqlite+aiosqlite:///{db}", new=True,
                     out_dir=tmp_path / "out") == 0
    text = out.getvalue()
    end = text[text.index("=== Game over"):]
    assert end.startswith("=== Game over: player B wins (end of turn 10: Strike Points tied, the defender holds) ===")
    assert "  Last attack: Otter's Partial Fire at Amazone (Musket Shot, aimed at the hull): 1 hit — 1 damage" in end
    assert "  End Phase of turn 10: nothing to do." in end
    assert ("  Strike Points: player A 0 (2 ships fighting), player B 0 (2 ships fighting); a side whose points "
            "pass its ships fighting withdraws.") in end
    assert f"  Dice seed: {seed_from_number(1)}" in end
    assert f"shown when the game began: {commitment(seed_from_number(1))}" in end
    verify = re.search(r"Check every roll: (\S*quarterdeck) (verify 1 --db \S+)", end)
    assert verify and verify.group(2) == f"verify 1 --db {db}"
    assert end.count("=== Game over") == 1

    folder = tmp_path / "out" / "table-game1"
    names = sorted(p.name for p in folder.glob("*.png"))
    log = json.loads(exported.read_text(encoding="utf-8"))
    activations = sum(1 for _, e in log["events"] if e["type"] == "ActivationEnded")
    # the set-up first, a board per activation, the last activation drawn on the final board
    assert names[0] == "0000-turn01-setup.png"
    assert [int(n[:4]) for n in names] == list(range(len(names)))
    assert all(BOARD.match(n) for n in names[1:-1]), [n for n in names[1:-1] if not BOARD.match(n)]
    assert names[-1] == f"{activations:04d}-turn10-final-player-B-wins.png"
    assert f"  Final board: {folder / names[-1]}" in end

    assert f"The game's log is in {exported}" in end
    assert main(["verify", "--file", str(exported)]) == 0
    assert capsys.readouterr().out.startswith("✅ All ")
    assert main(verify.group(2).split()) == 0  # the line the table printed, as printed
    assert f"seed {seed_from_number(1)}" in capsys.readouterr().out
    assert main(["replay", str(exported), "--no-images"]) == 0
    assert "Game over: player B wins (end of turn 10: Strike Points tied, the defender holds)." in \
        capsys.readouterr().out


def test_script_events_shows_the_worked_broadsides_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["script", "--events", str(ROOT / "examples" / "rulebook_broadside.txt")]) == 0
    text = capsys.readouterr().out
    fire = text.index("> fire Galleon starboard Frigate")
    assert text.index("  Galleon Broadside at Frigate: [musket] [musket] [cannon] [skull] [sail] — 4 hits.") > fire
    assert "> keep\n" in text
    assert "  Galleon critical check on Frigate: [pistol] — no effect." in text
    assert "Galleon's starboard Broadside at Frigate (Musket Shot, aimed at the hull): 4 hits — 2 damage, 1 Fatigue." in text
    assert main(["script", "--events", "--json", str(ROOT / "examples" / "rulebook_broadside.txt")]) == 2
    assert capsys.readouterr().err.startswith("error: --events prints")


def test_a_game_the_player_ends_is_told_once_with_its_final_board(tmp_path: Path) -> None:
    """Conceded in turn 1: no End Phase was played, so the Strike Points are the standing ones."""
    out = io.StringIO()
    lines = ["pick A Down!", "concede A", "state", "quit"]
    assert run_table(None, 1, iter(lines), out, False, vs_ai="B", db=f"sqlite+aiosqlite:///{tmp_path / 't.db'}",
                     new=True, out_dir=tmp_path / "out") == 0
    end = out.getvalue()[out.getvalue().index("=== Game over"):]
    assert end.startswith("=== Game over: player B wins (player A concedes) ===\n  Strike Points: player A 0 "
                          "(2 ships fighting), player B 0 (2 ships fighting);")
    assert "End Phase" not in end and "Last attack" not in end and end.count("=== Game over") == 1
    folder = tmp_path / "out" / "table-game1"
    assert sorted(p.name for p in folder.glob("*.png")) == ["0000-turn01-setup.png",
                                                            "0001-turn01-final-player-B-wins.png"]


def test_a_resumed_game_numbers_its_boards_on_from_the_last(tmp_path: Path) -> None:
    commands, seed = _readme_first_game()
    db, boards = f"sqlite+aiosqlite:///{tmp_path / 't.db'}", tmp_path / "out"
    first = io.StringIO()
    run_table(None, seed, iter([*commands[:3], "preview move Kestrel", "quit"]), first, False, vs_ai="B",
              db=db, new=True, out_dir=boards)
    assert (boards / "table-game1" / "preview.png").exists(), first.getvalue()[-2000:]
    out = io.StringIO()
    run_table(None, None, iter([*commands[3:], "quit"]), out, False, db=db, out_dir=boards)
    assert "Resuming game #1" in out.getvalue() and "0000-turn01-setup.png" not in out.getvalue()
    names = sorted(p.name for p in (boards / "table-game1").glob("0*.png"))
    assert [int(n[:4]) for n in names] == list(range(9)), names  # preview.png is not counted
