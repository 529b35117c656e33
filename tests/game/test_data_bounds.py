"""What the loaders check beyond one value: the lists of what the engine reads are true to its
source, files agree with each other, the pre-parse scan reads TOML strings right, an imported set
is played before it is accepted, the engine never waits on an empty hand, and the board refuses a
table it cannot draw."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from game.ai.match import ai_game
from game.data_trial import trial_game
from game.errors import DataError, RulesError
from game.model import Table
from game.phases.flow import deciders
from game.rules_data import REQUIRED_BANDS, REQUIRED_ROLLS, default_texts, load_rules, rules_from_texts
from game.scenario import quickstart
from game.schema.common import nesting, read_toml
from game.schema.data import EFFECT_KINDS
from game.squadron import ShipEntry, SquadronError, parse_squadron
from game.squadron_builder import new_list, to_toml, with_ship
from game.views import view_of
from render.board import MAX_PIXELS, BoardTooLarge, RenderOptions, render_board

ROOT = Path(__file__).resolve().parents[2]
ENGINE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "game").rglob("*.py")
                   if "schema" not in p.parts and p.name != "rules_data.py")


# ---------------------------------------------------------------- what the engine reads


def test_required_rolls_are_the_roll_kinds_the_engine_names() -> None:
    named = {k for k in load_rules().die.success if f'"{k}"' in ENGINE}
    assert named == set(REQUIRED_ROLLS)


def test_required_bands_are_the_bands_the_engine_measures_by_name() -> None:
    measured = set(re.findall(r'range_of\("(\w+)"\)', ENGINE))
    measured |= set(re.findall(r'\.get\("(?:range|within|clear|spacing)", "(\w+)"\)', ENGINE))
    assert measured == set(REQUIRED_BANDS)


def test_effect_kinds_are_the_kinds_the_engine_reads() -> None:
    read = set(re.findall(r'(?:effects_for|first|extra)\([^()]*?"(\w+)"', ENGINE))
    read |= set(re.findall(r'get\("kind"\) (?:==|!=) "(\w+)"', ENGINE))
    for group in re.findall(r'get\("kind"\) in \(([^)]*)\)', ENGINE):
        read |= set(re.findall(r'"(\w+)"', group))
    assert read == set(EFFECT_KINDS)


# ---------------------------------------------------------------- before parsing


@pytest.mark.parametrize(
    ("text", "brackets", "dotted"),
    [
        ('a = "[[[[" # ]]]]\nb = [1, [2]]', 2, 0),
        ("a = '''\n[[[\n''' \nb.c.d = 1", 0, 3),
        ('a = """x \\""" [[["""\n[t.u]\nv = {w.x.y = 1.5}', 1, 3),
        ('"q.r".s = 1\nx = 3.25', 0, 2),
        ("a = [\n  {b.c = 1},\n  {d = [1.5]},\n]", 3, 2),
    ],
)
def test_the_scan_counts_only_outside_strings_and_comments(text: str, brackets: int, dotted: int) -> None:
    assert nesting(text) == (brackets, dotted)


def test_the_limits_hold_at_their_edges() -> None:
    deep = "a = " + "[" * 16 + "]" * 16
    assert read_toml(deep, "f", 1000, DataError)["a"] is not None
    with pytest.raises(DataError, match="brackets more than 16"):
        read_toml("a = " + "[" * 17 + "]" * 17, "f", 1000, DataError)
    read_toml("a" + ".b" * 15 + " = 1", "f", 1000, DataError)
    with pytest.raises(DataError, match="more than 16 parts"):
        read_toml("a" + ".b" * 16 + " = 1", "f", 1000, DataError)
    with pytest.raises(DataError, match="tables more than 16"):  # a deep header, then deep brackets in it
        read_toml("[a" + ".b" * 10 + "]\nc = " + "[" * 10 + "]" * 10, "f", 1000, DataError)
    with pytest.raises(DataError, match="1,001 bytes"):
        read_toml("#" * 1001, "f", 1000, DataError)
    with pytest.raises(DataError, match="1,002 bytes"):
        read_toml("#" + "é" * 500 + "\n", "f", 1001, DataError)  # bytes, not characters


# ---------------------------------------------------------------- the trial game


def test_the_built_in_data_passes_its_trial() -> None:
    trial_game(load_rules())


def test_a_data_set_no_squadron_can_be_built_from_fails_its_trial() -> None:
    texts = default_texts()
    texts["ships.toml"] = re.sub(r"points = \d+", "points = 60", texts["ships.toml"])  # no Patrol can afford one
    with pytest.raises(DataError) as err:
        trial_game(rules_from_texts("oak_and_iron", texts), "ships.toml")
    assert (err.value.file, err.value.entry, err.value.field) == (
        "ships.toml", "trial game (drafted Patrol set-up)", "RuntimeError")


# ---------------------------------------------------------------- an empty hand


def test_an_empty_hand_is_never_waited_for() -> None:
    game = quickstart(seed=3)
    game = replace(game, squadrons=(replace(game.squadrons[0], hand=()), game.squadrons[1]))
    assert deciders(game) == {"B"}
    session = ai_game(3, game=game)
    assert session.state.turn >= 2  # B's first pick made A's (no card) and the game went on


# ---------------------------------------------------------------- the squadron builder


def test_the_builder_keeps_a_list_within_the_file_format() -> None:
    sq = with_ship(new_list("Zeeland", "skirmish", "Dutch", "Untested"), ShipEntry("Zeelandia", "Fifth Rate"))
    assert parse_squadron(to_toml(sq), partial=True) == sq
    with pytest.raises(SquadronError) as err:
        to_toml(with_ship(sq, ShipEntry("Z" * 65, "Sloop")))
    assert (err.value.entry, err.value.field) == ("ship #2", "name")
    with pytest.raises(SquadronError) as err:
        to_toml(with_ship(sq, ShipEntry("Line\nbreak", "Sloop")))
    assert isinstance(err.value, RulesError)


# ---------------------------------------------------------------- the board


@pytest.mark.parametrize(("width", "height"), [(1e308, 36), (100_000, 36), (float("nan"), 36), (36, float("inf")),
                                               (1, 120)])
def test_the_board_refuses_a_table_it_cannot_draw(width: float, height: float) -> None:
    game = quickstart()
    game = replace(game, table=Table(width, height, "N"), ships=())
    with pytest.raises(BoardTooLarge):
        render_board(view_of(game, None))


def test_the_board_refuses_a_crop_off_the_table_and_an_oversize_image() -> None:
    view = view_of(quickstart(), None)
    with pytest.raises(BoardTooLarge):
        render_board(view, RenderOptions(zoom_box=(50.0, 50.0, 60.0, 60.0)))
    with pytest.raises(BoardTooLarge):
        render_board(view, RenderOptions(width_px=100_000))
    assert MAX_PIXELS < 4096 * 4096  # a square table at the widest width is refused too
    with pytest.raises(BoardTooLarge):
        render_board(view, RenderOptions(width_px=4096))
