"""The script runner and the offline table, driven as a user would."""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

from cli.main import main
from cli.play import run_audit, run_script
from cli.table import run_table
from game.rules_data import load_rules
from game.scenario import quickstart

ROOT = Path(__file__).resolve().parents[2]
RULES = load_rules()


def _json(path: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    out = io.StringIO()
    rc = run_script(path, True, None, None, out)
    return rc, json.loads(out.getvalue())


def test_quickstart_script_moves_every_ship_by_its_tool_length() -> None:
    rc, data = _json(ROOT / "examples" / "quickstart_turn1.txt")
    assert rc == 0
    assert data["turn"] == 1 and data["phase"] == "attack" and data["active_player"] == "A"
    start = {s.id: s for s in quickstart().ships}
    expected_speed = {"Kestrel": 4, "Amazone": 4, "Otter": 4, "Hoorn": 3}  # Large values, Battle Sail
    for ship in data["ships"]:
        s0 = start[ship["name"]]
        moved = math.hypot(ship["x"] - s0.x, ship["y"] - s0.y)
        assert moved == RULES.tool(expected_speed[ship["name"]]).length or abs(
            moved - RULES.tool(expected_speed[ship["name"]]).length) < 1e-3
        assert ship["wake"] is True
        assert set(ship) >= {"name", "owner", "class", "x", "y", "heading", "point_of_sail", "sail_setting",
                             "speed_rating", "damage", "fatigue", "statuses", "reload_markers", "wake"}
    assert set(data) >= {"turn", "phase", "active_player", "weather_edge", "winner", "strike_points", "ships"}


def test_winds_eye_script_refuses_forward_and_accepts_the_turn() -> None:
    out = io.StringIO()
    rc = run_script(ROOT / "examples" / "winds_eye.txt", False, None, None, out)
    text = out.getvalue()
    assert rc == 0
    assert "refused as expected" in text and "In the Wind's Eye" in text
    rc, data = _json(ROOT / "examples" / "winds_eye.txt")
    kestrel = next(s for s in data["ships"] if s["name"] == "Kestrel")
    assert kestrel["heading"] == 330.0
    otter = next(s for s in data["ships"] if s["name"] == "Otter")
    assert "aground" in otter["statuses"] and otter["damage"] == 1


def test_script_stops_at_an_unexpected_refusal(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "bad.txt"
    script.write_text("pick A Down!\nmove Kestrel\n")
    rc = run_script(script, False, None, None, io.StringIO())
    assert rc == 1
    assert "bad.txt:2" in capsys.readouterr().err


def test_dice_refused_in_the_quick_start(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "cheat.txt"
    script.write_text("dice skull skull\n")
    assert run_script(script, False, None, None, io.StringIO()) == 1
    assert "dice-not-allowed" in capsys.readouterr().err


def test_malformed_scenario_is_reported(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\nwidth = 36\n")
    script = tmp_path / "s.txt"
    script.write_text("scenario bad.toml\npick A Down!\n")
    assert run_script(script, False, None, None, io.StringIO()) == 2
    assert "bad.toml" in capsys.readouterr().err


def test_offline_table_hot_seat(tmp_path: Path) -> None:
    lines = ["help", "pick A Down!", "pick B Take Courage", "move Kestrel", "pick A Careful Aim",
             "pick B Reload!", "move Otter", "json", "log", "quit"]
    out = io.StringIO()
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    assert run_table(None, None, iter(lines), out, interactive=False, db=db) == 0
    text = out.getvalue()
    assert "refused: " in text  # moving in the Initiative Phase
    assert "Player B has the initiative" in text
    assert "Otter move to" in text
    assert "Take Courage" in text  # revealed face up
    assert "Reload!" not in text  # B's face-down pick for turn 2 never shows


def test_main_entry_point(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["script", str(ROOT / "examples" / "quickstart_turn1.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["turn"] == 1


def test_demo_prints_finished_games_with_winners_and_reasons() -> None:
    from cli.main import run_demo

    out = io.StringIO()
    assert run_demo(1, 3, False, out) == 0
    games = [line for line in out.getvalue().splitlines() if line.startswith("Game ")]
    assert len(games) == 3
    for line in games:
        assert "wins" in line and ("withdraws" in line or "end of turn 10" in line)
    assert "  Turn 1" in out.getvalue()


def test_demo_json_is_the_full_event_log() -> None:
    from cli.main import run_demo
    from game.apply import replay
    from game.events import EVENTS

    out = io.StringIO()
    assert run_demo(5, 1, True, out) == 0
    (record,) = json.loads(out.getvalue())
    events = [EVENTS.decode(e) for e in record["events"]]
    final = replay(quickstart(seed=5), events)
    assert final.winner == record["winner"] and final.phase.value == "over"


def test_table_against_the_computer_captain(tmp_path: Path) -> None:
    lines = ["pick A Effective Fire", "pick A Careful Aim", "move Kestrel", "move Amazone", "state", "quit"]
    out = io.StringIO()
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    assert run_table(None, 3, iter(lines), out, interactive=False, vs_ai="B", db=db) == 0
    text = out.getvalue()
    assert "[AI] chooses an initiative card face down." in text
    assert "Otter move to" in text and "Hoorn move to" in text  # the captain moved B's ships in turn
    revealed = text.split("Revealed")[1].split("\n")[0]
    assert "B: " in revealed
    assert revealed.split("B: ")[1] not in text.split("Revealed")[0]  # B's pick was secret until the reveal


def test_offline_table_resumes_its_game_and_the_audit_passes(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    first = io.StringIO()
    run_table(None, None, iter(["pick A Down!", "pick B Take Courage", "quit"]), first, False, db=db)
    second = io.StringIO()
    run_table(None, None, iter(["pick A Careful Aim", "pick B Reload!", "move Otter", "quit"]), second, False, db=db)
    assert "Resuming game #1" in second.getvalue()
    assert "Otter move to" in second.getvalue()
    out = io.StringIO()
    assert run_audit([], db, out) == 0
    assert "game #1:" in out.getvalue() and "ok" in out.getvalue()


def test_demo_writes_a_png_per_activation(tmp_path: Path) -> None:
    from cli.main import run_demo

    out = io.StringIO()
    assert run_demo(2, 1, False, out, images="first", out_dir=tmp_path) == 0
    folder = tmp_path / "demo-seed2"
    assert f"{folder}/" in out.getvalue()
    pngs = sorted(folder.glob("*.png"))
    assert len(pngs) >= 8 and pngs[0].name.startswith("0001-turn01-movement-")
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size < 1_000_000 for p in pngs)


def test_table_writes_the_board_after_each_activation(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    lines = ["pick A Down!", "pick B Take Courage", "pick A Careful Aim", "pick B Reload!", "move Otter", "quit"]
    out = io.StringIO()
    assert run_table(None, None, iter(lines), out, False, db=db, out_dir=tmp_path / "boards") == 0
    written = sorted((tmp_path / "boards" / "table-game1").glob("*.png"))
    # the set-up before the first card, then Otter's activation (issue 25: a board from the start)
    assert [p.name for p in written] == ["0000-turn01-setup.png", "0001-turn01-movement-Otter.png"]
    assert all(f"board: {p}" in out.getvalue() for p in written)


def _newcomer(out: io.StringIO, seen: list[str]) -> Iterator[str]:
    """A player who reads only the prompt: picks the first card listed, takes the move offered to
    bring guns to bear (else the first ship's order), fires the first attack listed, keeps rolls."""
    for _ in range(400):
        prompt = out.getvalue().rsplit("Player A — ", 1)[-1]
        seen.append(prompt)
        if "Game over" in out.getvalue():
            break
        orders = re.findall(r"`([^`]+)`", prompt)
        if "Choose an initiative card" in prompt:
            card = re.search(r"face down: ([^(]+) \(", prompt)
            assert card, prompt
            yield f"pick A {card.group(1).strip()}"
        elif "Decide on" in prompt:
            yield "keep"
        elif "bring guns to bear" in prompt:
            yield next(o for o in orders if o.startswith("move") and " turn " in o)
        elif orders:
            yield orders[0]
        else:
            break
    yield "quit"


def test_a_newcomer_against_the_computer_fires_a_broadside_in_turn_one_from_the_prompts(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    out = io.StringIO()
    seen: list[str] = []
    assert run_table(None, 2, _newcomer(out, seen), out, interactive=False, vs_ai="B", db=db, new=True) == 0
    text = out.getvalue()
    turn_one = text.split("Turn 2:")[0]
    assert re.search(r"(Kestrel|Amazone)'s (port|starboard) Broadside at (Otter|Hoorn)", turn_one), turn_one[-3000:]
    attack_prompts = [p for p in seen if p.startswith("Attack Phase")]
    assert attack_prompts and all("Broadside at" in p or "Partial Fire at" in p or "no target" in p
                                  for p in attack_prompts)
    assert "refused" not in turn_one


def test_the_table_lists_its_games_opens_the_one_asked_for_and_suggests_a_command(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    run_table(None, None, iter(["quit"]), io.StringIO(), False, db=db)
    run_table("fleet_battle", None, iter(["quit"]), io.StringIO(), False, db=db, new=True, vs_ai="B1")
    out = io.StringIO()
    run_table("fleet_battle", None, iter(["mvoe Kestrel", "hand A", "hand B", "options", "quit"]), out, False,
              db=db, game=1)
    text = out.getvalue()
    assert "#1 Quick start" in text and "#2 " in text and "Opening game #1." in text
    assert "note: --scenario chooses a new game" in text
    assert "Did you mean `move`?" in text
    assert "Player A's hand (5 cards; Fortune 3):\n  Down! (1): " in text
    assert "Player B's hand (5 cards; Fortune 3):\n  Fire as She Bears (1): " in text
    resumed = io.StringIO()
    run_table(None, None, iter(["hand B1", "quit"]), resumed, False, db=db, game=2)
    assert "player B1's hand is not yours to see" in resumed.getvalue()  # the computer's side


def test_undo_at_the_table_against_the_computer_and_at_a_shared_screen(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    out = io.StringIO()
    picks = ["pick A Down!", "pick B Take Courage", "pick A Careful Aim", "pick B Reload!"]
    run_table(None, 1, iter([*picks, "move Otter", "undo", "state", "quit"]), out, False, db=db, new=True)
    text = out.getvalue()
    assert "Otter move to" in text
    assert "The last activation is taken back (undone with player " in text
    after = text.rsplit("taken back", 1)[1]
    assert re.search(r"B Otter +Corvette +\( 24\.95, 33\.30\)", after)  # back where it started
    vs_ai = io.StringIO()
    run_table(None, None, iter(["pick A Down!", "pick A Careful Aim", "options", "undo", "quit"]), vs_ai, False,
              db=db, new=True, vs_ai="B")
    assert "cannot be taken back" in vs_ai.getvalue() or "taken back (undone with the computer captain's consent)" \
        in vs_ai.getvalue()


def test_python_m_bot_without_a_token_opens_the_offline_table(tmp_path: Path) -> None:
    """`make run` with no DISCORD_TOKEN (README, docs/hosting.md), at a terminal (a pseudo-terminal
    here): the offline table, in the database the settings name, left with `quit`."""
    import os
    import pty
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "SHARD_COUNT", "SHARD_IDS")}
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    typed, terminal = pty.openpty()
    try:
        os.write(typed, b"pick A Down!\nquit\n")
        done = subprocess.run([sys.executable, "-m", "bot"], stdin=terminal, capture_output=True, text=True,
                              cwd=tmp_path, env=env, timeout=120)
    finally:
        os.close(typed)
        os.close(terminal)
    assert done.returncode == 0, done.stderr
    assert "opens the offline table" in done.stdout and "New game #1 (Quick start)" in done.stdout
    assert (tmp_path / "table.db").exists()


def test_python_m_bot_without_a_token_or_a_terminal_fails_so_a_service_manager_sees_it(tmp_path: Path) -> None:
    """Issue 25, item 4: under systemd (stdin is /dev/null) the bot used to open the table, read the end
    of its input and exit 0, so `Restart=on-failure` never fired. It now stops with what to set."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "SHARD_COUNT", "SHARD_IDS")}
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    done = subprocess.run([sys.executable, "-m", "bot"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "table.db").exists()  # nothing was opened
    helped = subprocess.run([sys.executable, "-m", "bot", "--help"], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, cwd=tmp_path, env=env, timeout=120)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: python -m bot") and "--check" in helped.stdout
    odd = subprocess.run([sys.executable, "-m", "bot", "--frobnicate"], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert odd.returncode == 2 and "unknown argument '--frobnicate'" in odd.stderr
