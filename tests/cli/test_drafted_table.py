"""A drafted game (chapter 7, docs/setup.md) at the offline table: `--scenario drafted [--size S]` or
the built-in drafted_skirmish, `enlist PLAYER FILE` and the set-up lines exactly as in a script, and a
prompt saying what the set-up waits for at every step."""

from __future__ import annotations

import asyncio
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cli.common import open_service
from cli.main import main
from cli.play import run_script
from cli.table import run_table
from game.report import summary

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "drafted_skirmish.txt"


def _final(db: Path) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        engine, service = await open_service(f"sqlite+aiosqlite:///{db}")
        try:
            return summary(await service.reading.state_for_audit(1), service.store.rules)
        finally:
            await engine.dispose()
    return asyncio.run(read())


def _table(db: Path, lines: list[str], scenario: str | None, **kw: Any) -> str:
    out = io.StringIO()
    assert run_table(scenario, kw.pop("seed", None), lines, out, False, new=True, db=f"sqlite+aiosqlite:///{db}",
                     **kw) == 0
    return out.getvalue()


def test_the_table_plays_the_example_set_up_exactly_as_the_script_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script_db = tmp_path / "script.db"
    assert run_script(EXAMPLE, False, None, None, io.StringIO(), f"sqlite+aiosqlite:///{script_db}") == 0
    by_script = _final(script_db)
    assert by_script["turn"] == 1 and by_script["phase"] == "movement"
    # at the table the squadron files are found from where it was started (here the project's root)
    monkeypatch.chdir(ROOT)
    lines = [line.replace("enlist A ", "enlist A examples/").replace("enlist B ", "enlist B examples/")
             for line in EXAMPLE.read_text().splitlines() if not line.startswith("scenario ")]
    shown = _table(tmp_path / "table.db", lines, "drafted_skirmish", seed=24)  # the scenario file's seed
    assert _final(tmp_path / "table.db") == by_script
    # the prompt said, step by step, what the set-up waited for and how to write it
    steps = ["waiting for the squadron lists of player A, B: `enlist PLAYER FILE`",
             "Player A enlists the squadron in examples/dutch_skirmish.toml.",
             "waiting for the squadron lists of player B",
             "Player A chooses to be the attacker or the defender (role attacker|defender). "
             "Begin the line with the side: `A: …`",
             "Player A drafts one card:", "Player B adds a terrain piece to the pool", "Player B places a piece",
             "Player B deploys: Lowestoft", "Player A deploys: Zeelandia", "`pick A CARD`"]
    at = 0
    for step in steps:
        found = shown.find(step, at)
        assert found >= 0, f"{step!r} not shown after position {at}"
        at = found
    assert "refused" not in shown


def test_drafted_with_a_size_and_a_squadron_of_another_size_refused_at_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "stdin", io.StringIO("enlist A examples/dutch_skirmish.toml\nenlist A\n"
                                                  "enlist B examples/nowhere.toml\noptions\n"))
    db = tmp_path / "t.db"
    assert main(["table", "--new", "--hot-seat", "--scenario", "drafted", "--size", "patrol", "--db",
                 f"sqlite+aiosqlite:///{db}"]) == 0
    shown = capsys.readouterr().out
    assert "New game #1 (Drafted patrol)." in shown
    assert "refused: This game is a patrol; 'Zeeland Admiralty' is a skirmish list. Bring a patrol squadron." in shown
    assert "refused: 'enlist A': an enlist line is `enlist PLAYER FILE`." in shown
    assert "refused: examples/nowhere.toml cannot be read" in shown
    # nothing was seated by the refused lines: `options` says the set-up still waits for both lists
    assert shown.rstrip().endswith("Set-up: waiting for the squadron lists of player A, B: `enlist PLAYER FILE` "
                                   "(a squadron file, docs/squadron-format.md; e.g. "
                                   "`enlist A examples/dutch_skirmish.toml`).")


def test_size_is_only_for_a_drafted_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 't.db'}"
    assert main(["table", "--new", "--scenario", "quickstart", "--size", "patrol", "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --size is for a drafted game") and err.count("\n") == 1
    assert main(["table", "--new", "--scenario", "drafted armada", "--db", db]) == 2
    assert "Sizes: patrol, skirmish, engagement." in capsys.readouterr().err


def test_enlist_in_a_scenario_game_is_refused_naming_where_its_squadrons_come_from(tmp_path: Path) -> None:
    shown = _table(tmp_path / "q.db", [f"enlist A {ROOT / 'examples' / 'dutch_skirmish.toml'}"], "quickstart")
    assert "refused: This game's squadrons come from its scenario." in shown


def test_against_the_computer_captain_only_the_human_side_enlists(tmp_path: Path) -> None:
    shown = _table(tmp_path / "ai.db", [f"enlist A {ROOT / 'examples' / 'english_skirmish.toml'}", "json"],
                   "drafted", size="skirmish", vs_ai="B", seed=3)
    assert "The computer captain commands player B." in shown
    assert "waiting for the squadron lists of player A:" in shown  # B brought its list when it sat down
    state = json.loads(shown[shown.rindex("\n{"):shown.rindex("}") + 1])
    owners = {s["owner"] for s in state["ships"]}
    assert owners == {"A", "B"} and state["phase"] == "preparation"
