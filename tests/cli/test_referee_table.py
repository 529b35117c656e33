"""`quarterdeck ref` (cli/referee.py): a referee game at one terminal, driven as the people at it
would, over the game service's referee part. Each run reads its lines from a list (as from a pipe),
and the game is then read back through the service to see what was stored."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main
from cli.referee import ONLOOKER, run_referee
from cli.table import run_table
from game.dice import FairDice, seed_from_number
from game.service.db import make_engine
from game.service.game_service import GameService
from game.service.referee import builtin_setups
from game.systems.dice import roll_faces
from tests.seeds import counting_seeds

TO_PLOTS = ["next"]  # the Umpire, the one seat awaited: A's wind rolled, B and C skipped, D


def _db(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'ref.db'}"


def _run(tmp_path: Path, lines: list[str], system: str = "wsim", new: bool = False, setup: str | None = None,
         file: Path | None = None) -> str:
    out = io.StringIO()
    rc = run_referee(system, setup, file, iter(lines), out, interactive=False, new=new, db=_db(tmp_path),
                     seeds=counting_seeds())
    assert rc == 0
    return out.getvalue()


def _stored(tmp_path: Path, game_id: int = 1) -> tuple[list[str], object]:
    """The game's log as everyone reads it, and its state, from the database."""

    async def read() -> tuple[list[str], object]:
        engine = make_engine(_db(tmp_path))
        try:
            ref = GameService(engine).referee
            return await ref.log(ONLOOKER, game_id, 1000), (await ref._load(game_id)).state
        finally:
            await engine.dispose()

    return asyncio.run(read())


def _after(text: str, line: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index(line) + 1:]


def test_a_wsim_game_from_creation_to_the_plots_revealed_together(tmp_path: Path) -> None:
    text = _run(tmp_path, [*TO_PLOTS, "French: plot Redoutable L1R1", "log 2", "French: log 1",
                           "ship Redoutable", "British: plot Victory 1", "quit"])
    assert text.startswith("New game #1 (Victory and Redoutable, Wooden Ships & Iron Men (Casus Belli rules)).")
    # the wind roll comes from the game's secret seed at the start of the log: CB rule VIII, "WSN 5 on 2,
    # 11, 12" changes the wind, so this roll holds it
    a, b = roll_faces(FairDice(seed_from_number(1), 0), (6, 6))
    assert a + b not in (2, 11, 12)
    assert _after(text, "Waiting for Umpire.")[:8] == [
        "  — Turn 1: A. Wind Phase —",
        "  The wind is rolled for (two dice against the wind shift number); a change takes effect next turn.",
        f"  rolls 2d6 for wind change (WSN 5): [{a}] [{b}] = {a + b}",
        "  The wind holds.",
        "  Phase A (Wind Phase): the wind is rolled and nothing else is done in it.",
        "  Turn 1: Phase B (Signal Phase) skipped: no side has two ships to signal between.",
        "  Turn 1: Phase C (Unfouling Phase) skipped: no ship is fouled, and none may sink or explode.",
        "  — Turn 1: D. Movement notation Phase —",
    ]
    assert _after(text, "  Secret orders (plot) are awaited for: Victory, Redoutable.") == [
        "  Waiting for British, French.",
        # the French plot: everyone reads that it is sealed, and the seat that gave it what it sealed
        "  French seals the Redoutable order.",
        "  [French only] French seals Redoutable: L1R1",
        "  Waiting for British.",
        # `log 2`: as everyone may read it; `French: log 1`: as French reads it
        "  Secret orders (plot) are awaited for: Victory, Redoutable.",
        "  French seals the Redoutable order.",
        "  French seals Redoutable: L1R1",
        # `ship Redoutable` as everyone may read it: the plot is not on the sheet, the loads are hidden
        "Redoutable (French): Class 3, quality Av, 9 guns a side, leaders Lucas",
        "Hull and rigging:", "Hull: 20 of 20 left", "Rigging 1: 6 of 6 left", "Rigging 2: 6 of 6 left",
        "Rigging 3: 6 of 6 left", "Rigging 4: 6 of 6 left",
        "Crew:", "Crew 1: 8 of 8 left", "Crew 2: 8 of 8 left", "Crew 3: 8 of 8 left",
        "Guns:", "Guns: 9 guns a side", "Left broadside: ? (secret)", "Right broadside: ? (secret)",
        "Sailing:", "Sails: battle (battle 4, full 6)", "Heading: 6", "Turning: 2 of 2",
        "Status:", "Condition: sailing and fighting",
        # the last plot: revealed together, in the order they were sealed
        "  British seals the Victory order.",
        "  [British only] British seals Victory: 1",
        "  Revealed: Redoutable: L1R1; Victory: 1",
        "  Redoutable moves L1R1: now heading 6.",
        "  Victory moves 1: now heading 3.",
        "  — Turn 1: E. Movement execution Phase —",
        "  Move the ships on your table as plotted; drift last; retrace collisions hex by hex "
        "(`collide SHIP OTHER` rolls for fouling). Ships that end alongside may grapple: `next F` stops in the "
        "Grappling Phase, which `next` skips while no ship is fouled or grappled.",
        "  Waiting for Umpire.",
    ]
    log, state = _stored(tmp_path)
    assert log[-6:-2] == ["British seals the Victory order.", "Revealed: Redoutable: L1R1; Victory: 1",
                          "Redoutable moves L1R1: now heading 6.", "Victory moves 1: now heading 3."]
    assert state.phase == "E"  # type: ignore[attr-defined]


def test_a_prefix_naming_another_seats_ship_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    _run(tmp_path, TO_PLOTS)
    before = _stored(tmp_path)
    text = _run(tmp_path, ["British: plot Redoutable 1", "plot Victory 1", "British: next", "Spain: next",
                           "French: foo bar", "status"])
    assert _after(text, "Waiting for British, French.") == [
        # the engine's own refusal: British orders only British ships
        "refused: Redoutable belongs to French. Each player orders only their own ships.",
        # two seats are awaited: a line without a prefix says whose it is
        "refused: Say which seat gives this line: the game waits for British, French. "
        "Start it with the seat, e.g. `British: …`.",
        "refused: Only the referee (Umpire) does that. Ask the referee.",
        "refused: There is no seat 'Spain' at this table. Seats: British, French, Umpire.",
        # not notation: the parser's error, and the table goes on to the next line
        "refused: Unknown command 'foo'. Commands: plot, board, load, repair, sails, heading, fire, hits, mark, "
        "collide, unfoul, grapple, ungrapple, melee, blast, roll, printed, next, end.",
        "Game #1 Victory and Redoutable (Wooden Ships & Iron Men (Casus Belli rules)). "
        "Seats: British, French, Umpire (referee).",
        "Turn 1, Movement notation Phase (D): Plot every ship in secret: `plot SHIP MOVES [A|AB|AS|(A)|a]`. "
        "The plots are revealed together when all are in.",
        "Waiting for British, French.",
    ]
    assert _stored(tmp_path) == before


def test_the_referee_takes_back_a_sealed_order_and_only_the_referee(tmp_path: Path) -> None:
    text = _run(tmp_path, [*TO_PLOTS, "French: plot Redoutable L1R1", "French: undo", "undo",
                           "French: plot Redoutable 2", "British: plot Victory 1", "undo"])
    assert _after(text, "  [French only] French seals Redoutable: L1R1") == [
        "  Waiting for British.",
        "refused: Only the referee (Umpire) takes a command back. Ask the referee.",
        "  The referee took back the last command.",
        "  Waiting for British, French.",
        "  French seals the Redoutable order.",
        "  [French only] French seals Redoutable: 2",
        "  Waiting for British.",
        "  British seals the Victory order.",
        "  [British only] British seals Victory: 1",
        "  Revealed: Redoutable: 2; Victory: 1",
        "  Redoutable moves 2: now heading 6.",
        "  Victory moves 1: now heading 3.",
        "  — Turn 1: E. Movement execution Phase —",
        "  Move the ships on your table as plotted; drift last; retrace collisions hex by hex "
        "(`collide SHIP OTHER` rolls for fouling). Ships that end alongside may grapple: `next F` stops in the "
        "Grappling Phase, which `next` skips while no ship is fouled or grappled.",
        "  Waiting for Umpire.",
        # everyone has seen the plots: nothing takes them back
        "refused: The last command cannot be taken back: it revealed orders. Only a command that rolled no dice, "
        "revealed nothing and sealed no order after a reveal can be undone.",
    ]


def test_a_secret_order_is_never_on_the_screen_until_it_is_revealed(tmp_path: Path) -> None:
    text = _run(tmp_path, [*TO_PLOTS, "French: secret", "plot Redoutable L1R1", "British: secret plot Victory 1",
                           "British: secret", "", "British: secret", "plot Victory 1"])
    assert _after(text, "  Waiting for British, French.") == [
        "  French seals the Redoutable order.",  # and nothing else: not the order, not French's own line
        "  Waiting for British.",
        "refused: `secret` takes the order on the next line, where it is not shown. "
        "Type `British: secret`, then the order.",
        "refused: No order was given after `secret`. Type the order on the next line.",
        "  British seals the Victory order.",
        "  Revealed: Redoutable: L1R1; Victory: 1",
        "  Redoutable moves L1R1: now heading 6.",
        "  Victory moves 1: now heading 3.",
        "  — Turn 1: E. Movement execution Phase —",
        "  Move the ships on your table as plotted; drift last; retrace collisions hex by hex "
        "(`collide SHIP OTHER` rolls for fouling). Ships that end alongside may grapple: `next F` stops in the "
        "Grappling Phase, which `next` skips while no ship is fouled or grappled.",
        "  Waiting for Umpire.",
    ]
    assert text.count("L1R1") == 2  # the reveal and the move


def test_a_game_ended_by_the_referee_is_not_resumed(tmp_path: Path) -> None:
    text = _run(tmp_path, ["end a draw", "roll 2d6", "Umpire: roll 2d6", "log"], system="captains_sea")
    assert _after(text, "Waiting for Umpire.") == [
        "  Game over: a draw.",
        "refused: The game is over: a draw. `log` and `ship NAME` still read it; `quarterdeck ref --new` starts "
        "another.",
        "refused: The game is over: a draw. Start a new game to play again.",  # the engine's own
        "  Game over: a draw.",
    ]
    assert _run(tmp_path, [], system="captains_sea").startswith("New game #2 (Constitution and Guerriere")


def test_the_game_is_resumed_after_leaving_and_new_starts_another(tmp_path: Path) -> None:
    _run(tmp_path, [*TO_PLOTS, "French: plot Redoutable L1R1", "quit", "British: plot Victory 1"])
    text = _run(tmp_path, ["status", "British: plot Victory 1"], setup="trafalgar")
    assert text.splitlines()[:2] == [
        "note: --setup and --file choose a new game: add --new to start one. Resuming.",
        "Resuming game #1 (Victory and Redoutable); `--new` starts another.",
    ]
    assert "  Revealed: Redoutable: L1R1; Victory: 1" in text  # the French plot sealed in the first run
    assert _stored(tmp_path)[1].phase == "E"  # type: ignore[attr-defined]
    assert _run(tmp_path, ["status"], new=True).startswith("New game #2 (Victory and Redoutable")
    # another system's game is its own: Iron & Oak starts one rather than resume a WS&IM game
    assert _run(tmp_path, [], system="iron_and_oak").startswith("New game #3 (")
    # and the Oak & Iron table of the same database does not open a referee game
    out = io.StringIO()
    assert run_table(None, None, iter(["quit"]), out, interactive=False, db=_db(tmp_path)) == 0
    assert out.getvalue().splitlines()[0].startswith("New game #4")


def test_a_setup_file_whose_seat_names_hold_spaces(tmp_path: Path) -> None:
    setup = tmp_path / "navy.toml"
    setup.write_text(builtin_setups("wsim")["trafalgar"].replace('"British"', '"Royal Navy"'), encoding="utf-8")
    text = _run(tmp_path, [*TO_PLOTS, "Royal Navy: plot Victory 1", "ship Victory as royal navy"], file=setup)
    assert "  Royal Navy seals the Victory order." in text
    assert "  [Royal Navy only] Royal Navy seals Victory: 1" in text
    assert "Victory (Royal Navy)" in text


@pytest.mark.parametrize(("args", "error"), [
    (["--system", "chess"],
     "error: There is no referee-assistant system 'chess'. Systems: wsim, iron_and_oak, captains_sea."),
    (["--system", "wsim", "--setup", "nowhere"],
     "error: Wooden Ships & Iron Men (Casus Belli rules) has no built-in setup 'nowhere'. "
     "Setups: trafalgar, or upload your own file."),
    (["--system", "wsim", "--setup", "trafalgar", "--file", "navy.toml"], "error: Give --setup or --file, not both."),
])
def test_bad_arguments_are_one_error_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       args: list[str], error: str) -> None:
    assert main(["ref", *args, "--db", _db(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [error]
    assert _games(tmp_path) == 0  # nothing was made


@pytest.mark.parametrize(("content", "error"), [
    ("# a comment\n" * 10_000, "is larger than 100,000 bytes, the limit for this file."),
    ('name = "x"\nplayers = 3\n', "error: The setup's game: `players` must be list, got 3."),
])
def test_a_bad_setup_file_is_one_error_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       content: str, error: str) -> None:
    setup = tmp_path / "setup.toml"
    setup.write_text(content, encoding="utf-8")
    assert main(["ref", "--system", "wsim", "--file", str(setup), "--db", _db(tmp_path)]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and line.endswith(error)
    assert _games(tmp_path) == 0


def _games(tmp_path: Path) -> int:
    if not (tmp_path / "ref.db").exists():
        return 0

    async def count() -> int:
        engine = make_engine(_db(tmp_path))
        try:
            return len(await GameService(engine).lobby.list_games("offline"))
        finally:
            await engine.dispose()

    return asyncio.run(count())


WORDS = st.sampled_from(["British:", "French:", "Umpire:", "Spain:", "Royal Navy:", ":", "next", "plot", "Victory",
                         "Redoutable", "L1R1", "1", "status", "log", "ship", "as", "rules", "fire_base", "undo",
                         "secret", "help", "roll", "2d6", "end", '"', "#", "\x1b[2J", "-3", "99999999999999999999"])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(WORDS | st.text(max_size=6), max_size=6).map(" ".join), max_size=12))
def test_any_line_is_answered_never_a_traceback(tmp_path: Path, lines: list[str]) -> None:
    """Whatever is typed, the table answers (a refusal or an account) and reads on to the end."""
    out = io.StringIO()
    rc = run_referee("wsim", None, None, iter([*TO_PLOTS, *lines, "status"]), out, interactive=False, new=True,
                     db=_db(tmp_path), seeds=counting_seeds())
    assert rc == 0
    assert out.getvalue().splitlines()[-1].startswith(("Waiting for ", "Game over: "))  # `status` answered
