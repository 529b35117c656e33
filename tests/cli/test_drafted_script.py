"""A drafted game (chapter 7) played by the script runner: `scenario drafted SIZE`, an `enlist PLAYER
FILE` line per side, then the set-up in the table notation to the first turn. A squadron file that
cannot be read or breaks the rules is one `error:` line and exit status 2."""

from __future__ import annotations

import asyncio
import io
import json
from importlib import resources
from pathlib import Path

import pytest

from cli.common import LOCAL, open_service
from cli.play import run_script
from game.ai.setup_choices import setup_candidates
from game.errors import RulesError
from game.model import Phase
from game.notation import format_command
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.squadron import SquadronList, parse_squadron, random_squadron
from game.squadron_builder import to_toml

RULES = load_rules()
DUTCH = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
HEAD = "scenario drafted skirmish\nenlist A lists/dutch.toml\nenlist B lists/spanish.toml\n"


@pytest.fixture
def lists(tmp_path: Path) -> Path:
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "dutch.toml").write_text(DUTCH)
    (tmp_path / "lists" / "spanish.toml").write_text(to_toml(random_squadron(7, "skirmish", RULES)))
    return tmp_path


def _setup_lines(db: Path) -> list[str]:
    """The chapter-7 set-up of the game in `db`, as the computer captains would play it, in notation."""
    async def play() -> list[str]:
        engine, service = await open_service(f"sqlite+aiosqlite:///{db}")
        lines: list[str] = []
        try:
            for _ in range(200):
                state = await service.reading.state_for_audit(1)
                if state.phase is not Phase.PREPARATION:
                    return lines
                player = sorted(deciders(state))[0]
                for cmd in setup_candidates(state, player, RULES):
                    try:
                        await service.commands.submit(LOCAL, 1, format_command(cmd))
                    except RulesError:
                        continue
                    lines.append(format_command(cmd))
                    break
                else:
                    raise AssertionError(f"no set-up command for {player} at {state.prep}")
            raise AssertionError("the set-up never ended")
        finally:
            await engine.dispose()
    return asyncio.run(play())


def test_a_drafted_skirmish_from_two_squadron_files_reaches_the_first_turn(lists: Path) -> None:
    script = lists / "drafted.txt"
    script.write_text(HEAD)
    db = lists / "gen.db"
    assert run_script(script, False, None, None, io.StringIO(), f"sqlite+aiosqlite:///{db}") == 0
    setup = _setup_lines(db)
    verbs = {line.split()[1] for line in setup}
    assert {"role", "draft", "deploy"} <= verbs  # terrain, place and finish as the cards allow
    a, b = parse_squadron(DUTCH), parse_squadron((lists / "lists" / "spanish.toml").read_text())
    picks = [f"pick A {a.hand[0]}", f"pick B {b.hand[0]}"]  # the first initiative pick opens turn 1
    script.write_text(HEAD + "\n".join(setup + picks) + "\n")
    out = io.StringIO()
    assert run_script(script, True, None, None, out) == 0
    data = json.loads(out.getvalue())
    assert data["turn"] == 1 and data["phase"] not in ("preparation", "setup")
    assert sorted(s["owner"] for s in data["ships"]) == ["A"] * len(a.ships) + ["B"] * len(b.ships)


def _refused(script: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    script.write_text(text)
    assert run_script(script, False, None, None, io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


def test_a_missing_malformed_or_illegal_squadron_file_is_one_error_line(
        lists: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = lists / "s.txt"
    assert "cannot be read" in _refused(script, "scenario drafted\nenlist A lists/nowhere.toml\n", capsys)
    (lists / "lists" / "bad.toml").write_text("name = [\n")
    assert "s.txt:2" in _refused(script, "scenario drafted\nenlist A lists/bad.toml\n", capsys)
    (lists / "lists" / "big.toml").write_text("# " + "x" * 60_000 + "\n")
    assert "50,000" in _refused(script, "scenario drafted\nenlist A lists/big.toml\n", capsys)
    dutch = parse_squadron(DUTCH)
    (lists / "lists" / "patrol.toml").write_text(to_toml(SquadronList(
        "Small", "patrol", "Dutch", "Untested", "Zeelandia", dutch.ships[:2], dutch.hand[:5])))
    # a legal patrol is outside this game's size
    assert "skirmish" in _refused(script, "scenario drafted skirmish\nenlist A lists/patrol.toml\n", capsys)
    # breaking the building rules: too many points for a patrol
    (lists / "lists" / "fat.toml").write_text(DUTCH.replace('size = "skirmish"', 'size = "patrol"'))
    assert "building rules" in _refused(script, "scenario drafted patrol\nenlist A lists/fat.toml\n", capsys)
    assert "Sizes" in _refused(script, "scenario drafted armada\n", capsys)
    assert "enlist PLAYER FILE" in _refused(script, "scenario drafted\nenlist A\n", capsys)
    # a scenario's squadrons are its own
    assert "come from its scenario" in _refused(script, "enlist A lists/dutch.toml\n", capsys)


def test_a_squadron_path_is_relative_to_the_script_and_may_lead_upward(lists: Path) -> None:
    """Allowed: the runner reads what the person running it can read anyway, as `scenario FILE` does."""
    (lists / "scripts").mkdir()
    script = lists / "scripts" / "up.txt"
    script.write_text(HEAD.replace("lists/", "../lists/"))
    out = io.StringIO()
    assert run_script(script, True, None, None, out) == 0
    data = json.loads(out.getvalue())
    assert data["phase"] == "preparation" and {s["owner"] for s in data["ships"]} == {"A", "B"}
