"""The shared dice engine: notations, faces from the DiceSource only, keep-highest pools, colours,
challenge against response."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.dice import FairDice, ScriptedDice, seed_from_number
from game.errors import ParseError
from game.systems.dice import Opposed, coloured, numeric_sides, parse_spec, roll, roll_coloured


def test_notations() -> None:
    assert parse_spec("2d6").pool == (6, 6) and parse_spec("2d6").keep == "sum"
    assert parse_spec("d6+1").modifier == 1 and parse_spec("d6-2").modifier == -2
    s = parse_spec("d10d8")
    assert (s.pool, s.keep, s.text) == ((10, 8), "highest", "d10d8")
    assert parse_spec("D10D4-2").text == "d10d4-2"
    assert parse_spec("3d6").text == "3d6" and parse_spec("d6").text == "d6"


@pytest.mark.parametrize("bad", ["", "2x6", "d1", "0d6", "61d6", "d101", "d10d", "6", "2d6++1"])
def test_bad_notations_are_refused(bad: str) -> None:
    with pytest.raises(ParseError):
        parse_spec(bad)


def test_sum_and_keep_highest_use_only_the_dice_source() -> None:
    r = roll(ScriptedDice(["3", "5"]), parse_spec("2d6+1"), "test")
    assert (r.faces, r.kept, r.total, r.sides) == ((3, 5), 8, 9, (6, 6))
    r = roll(ScriptedDice(["7", "8"]), parse_spec("d10d8"), "test")
    assert (r.faces, r.kept, r.total) == ((7, 8), 8, 8)


def test_a_face_not_on_the_die_is_refused_by_the_scripted_source() -> None:
    with pytest.raises(ValueError):
        roll(ScriptedDice(["9"]), parse_spec("d8"), "test")


def test_a_source_that_breaks_the_protocol_is_caught() -> None:
    class Bad:
        def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
            return ("skull",) * n

    with pytest.raises(RuntimeError):
        roll(Bad(), parse_spec("d6"), "test")


def test_coloured_dice() -> None:
    r = roll_coloured(ScriptedDice(["2", "6", "4"]), (("white", 2, 6), ("red", 1, 6)), "fire")
    assert coloured(r, "white") == (2, 6) and coloured(r, "red") == (4,)
    assert r.colours == ("white", "white", "red") and r.notation == "2d6 white + 1d6 red"


def test_challenge_against_response_ties_fail_and_multiples() -> None:
    assert not Opposed(5, 5).success and Opposed(6, 5).success
    o = Opposed(2, 6)
    assert o.response_triple and o.response_double and not o.success and o.flags() == "response ×3"
    assert Opposed(3, 7).response_double and not Opposed(3, 7).response_triple
    assert Opposed(9, 3).challenge_triple and Opposed(9, 3).flags() == "challenge ×3"


@given(st.sampled_from(["2d6", "d10d8", "d10d4", "3d6-1", "d10d6+2", "d20"]), st.integers(0, 10_000))
def test_results_stay_within_the_dice(spec: str, seed: int) -> None:
    s = parse_spec(spec)
    r = roll(FairDice(seed_from_number(seed), 0), s, "test")
    assert all(1 <= f <= size for f, size in zip(r.faces, r.sides, strict=True))
    low = (len(s.pool) if s.keep == "sum" else 1) + s.modifier
    high = (sum(s.pool) if s.keep == "sum" else max(s.pool)) + s.modifier
    assert low <= r.total <= high
    assert numeric_sides(6) == ("1", "2", "3", "4", "5", "6")
