"""A captain's record from one game (game/record.py), checked against hand computations."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from game.model import Status
from game.record import EXACT_UP_TO, DiceTally, game_figures, luck
from tests.game.test_attack import duel


def test_a_scripted_broadside_gives_the_hand_computed_luck() -> None:
    t = duel()  # Musket Shot: a hit is musket, cannon or skull, 3 faces of the 8; Broadside 5
    t.submit_line("dice musket musket cannon skull sail pistol")  # the pistol is the critical die
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    final = dataclasses.replace(t.state, winner="A")
    figures = {f.player: f for f in game_figures(t.initial, final, t.events, {"A": "111", "B": "222"}, t.rules.die)}
    a = figures["A"]
    assert a.hits == DiceTally(((Fraction(3, 8), 5, 4),))
    got = luck(a.hits)
    # By hand: X ~ Binomial(5, 3/8); P(X >= 4) = (5 * 3^4 * 5 + 3^5) / 8^5 = 2268 / 32768
    assert (got.dice, got.observed, got.method) == (5, 4, "exact")
    assert got.expected == pytest.approx(1.875)
    assert got.chance == pytest.approx(2268 / 32768)
    assert (a.result, figures["B"].result) == ("win", "loss")
    assert a.opponents == ("222",) and a.ships == ("Light Galleon",)
    assert luck(figures["B"].hits).method == "none"


def test_sunk_captured_and_lost_are_counted_per_side() -> None:
    t = duel()
    ships = tuple(dataclasses.replace(s, statuses=frozenset({Status.SUNK})) if s.id == "Frigate"
                  else dataclasses.replace(s, controller="B", statuses=frozenset({Status.CAPTURED}))
                  for s in t.state.ships)
    final = dataclasses.replace(t.state, ships=ships)
    figures = {f.player: f for f in game_figures(t.initial, final, [], {"A": "1", "B": "2"}, t.rules.die)}
    assert (figures["A"].sunk, figures["A"].captured, figures["A"].lost) == (1, 0, 1)
    assert (figures["B"].sunk, figures["B"].captured, figures["B"].lost) == (0, 1, 1)
    assert figures["A"].result == "draw"


def test_an_unseated_player_has_no_record() -> None:
    t = duel()
    assert [f.player for f in game_figures(t.initial, t.state, [], {"B": "2"}, t.rules.die)] == ["B"]


def test_tallies_merge_by_chance_and_the_normal_tail_is_close_to_the_exact() -> None:
    a = DiceTally(((Fraction(1, 4), 300, 90),))
    b = DiceTally(((Fraction(1, 4), 300, 80), (Fraction(1, 2), 300, 160)))
    merged = a.merge(b)
    assert merged.groups == ((Fraction(1, 4), 600, 170), (Fraction(1, 2), 300, 160))
    exact = luck(merged)
    assert exact.method == "exact" and merged.dice <= EXACT_UP_TO
    bigger = merged.merge(merged)
    assert luck(bigger).method == "normal"
    # mean 150 + 150 = 300, seen 330; the normal approximation with continuity correction agrees
    assert exact.expected == pytest.approx(300)
    assert 0.01 < exact.chance < 0.1


def test_turnout_counts_who_played_each_activation_and_the_answer_times() -> None:
    from datetime import UTC, datetime, timedelta

    from game import events as ev
    from game.model import Activation, PointOfSail
    from game.record import turnout

    t0 = datetime(2026, 11, 1, tzinfo=UTC)

    def began(player: str) -> ev.ActivationBegan:
        return ev.ActivationBegan(Activation("Kestrel", player, PointOfSail.LARGE, 3))

    rows = [
        (1, "222", t0, began("B")),  # Bob plays his own activation
        (2, "111", t0 + timedelta(minutes=10), began("A")),  # Ann answers after 10 minutes
        (3, "222", t0 + timedelta(minutes=40), began("B")),  # Bob after 30
        (4, "system", t0 + timedelta(hours=50), ev.ActedFor("A", "ai:A", "past the deadline", kind="gm")),
        (4, "system", t0 + timedelta(hours=50), began("A")),  # the deadline played Ann's activation
        (5, "111", t0 + timedelta(hours=51), began("A")),  # Ann answers an hour after the system
        (6, "999", t0 + timedelta(hours=52), began("B")),  # a GM gave Bob's order
    ]
    got = turnout(rows, {"A": "111", "B": "222"})
    # Ann: played commands 2 and 5; command 4 was played for her; answers 10 min and 60 min
    assert (got["111"].played, got["111"].covered, got["111"].responses) == (2, 1, (600.0, 3600.0))
    # Bob: played 1 and 3 (the first command of a game has no answer time); 6 was a GM's
    assert (got["222"].played, got["222"].covered, got["222"].responses) == (2, 1, (1800.0,))
