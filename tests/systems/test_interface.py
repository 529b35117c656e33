"""The GameSystem interface: every system offers it, Oak & Iron's existing functions fit it as they
are, commands round-trip through their notation, events and states through JSON, bad setups and bad
lines are refused with typed errors."""

from __future__ import annotations

import contextlib
import tomllib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.codec import from_data, to_data
from game.dice import FairDice, seed_from_number
from game.errors import ParseError, RulesError
from game.systems import OAK_AND_IRON, REFEREE_SYSTEMS, SYSTEMS, system
from game.systems.base import GameSystem, replay, run
from game.systems.setup import SetupError
from tests.systems.captains_sea.test_game import setup as cs_setup
from tests.systems.iron_and_oak.conftest import setup as io_setup
from tests.systems.wsim.conftest import setup as wsim_setup

SETUPS = {"wsim": wsim_setup, "iron_and_oak": io_setup, "captains_sea": cs_setup}


def test_every_system_offers_the_interface() -> None:
    """Four systems behind one interface: the three referee assistants with their play-aid tables,
    Oak & Iron with every capability the service offers beyond it."""
    assert list(SYSTEMS) == ["oak_and_iron", *REFEREE_SYSTEMS]
    for name, s in SYSTEMS.items():
        assert isinstance(s, GameSystem) and s.name == name
        assert (len(s.tables()) > 0) == (name in REFEREE_SYSTEMS)
        assert not s.capabilities if name in REFEREE_SYSTEMS else len(s.capabilities) == 4
    assert system("wsim") is SYSTEMS["wsim"] and system("oak_and_iron") is OAK_AND_IRON


def test_oak_and_iron_fits_the_interface_unchanged() -> None:
    from game.scenario import builtin_scenarios

    oi: GameSystem[Any, Any, Any] = OAK_AND_IRON
    assert isinstance(oi, GameSystem)
    state = oi.initial_state(tomllib.loads(builtin_scenarios()["quickstart"]))
    assert oi.deciders(state) == {"A", "B"}
    events = oi.decide(state, oi.parse("pick A Careful Aim", state), FairDice(seed_from_number(1), 0))
    after = replay(oi, state, events)
    assert oi.deciders(after) == {"B"}
    assert oi.event_for(events[0], "B") != events[0] and oi.account(events[0])
    cmd = oi.parse("pick A Careful Aim", state)
    assert oi.parse(oi.format(cmd), state) == cmd


LINES = {
    "wsim": [
        "plot Victory L1R2", "plot Victory 0 (A)", "British: plot Victory W(Redoutable)", "board Victory OBP1,2 Redoutable DBP3",
        "board Redoutable NBP", "load Victory left DS", "repair Victory hull", "sails Victory full", "heading Victory 4",
        "fire Victory left Redoutable range 2 aim rigging half rake bow mod -1", "Umpire: hits 3 2H1C1R", "mark Victory 1H2C",
        "collide Victory Redoutable", "grapple Victory Redoutable motionless 1", "ungrapple Victory Redoutable",
        "unfoul Victory Redoutable", "melee Victory Redoutable", "blast Victory Redoutable", "roll 2d6 for a signal",
        "roll d10d8 vs d10d4 drm -2", "printed rake Bow 2 = 4", "next", "end a storm",
    ],
    "iron_and_oak": [
        "order Monitor m1", "order Monitor cross Virginia bow", "order Monitor m0 escape", "Union: order Minnesota tow Monitor",
        "reveal Monitor", "answer d10 drm -1", "card Monitor maneuver=d10d8 draft=3 powered=no", "marker Monitor +Smoke",
        "marker Monitor -Fouled Virginia", "hits Monitor 2 shield 1", "roll d10d8 vs 5", "printed drifting 7 = 1 GB east",
    ],
    "captains_sea": [
        "initiative US", "bearing Constitution C", "hull Constitution", "impulses Constitution 1 4 7 10",
        "impulses Guerriere none", "maneuver Constitution turn-port", "fire Constitution Guerriere hits 5 high leeward mod -1",
        "offset low 2", "morale Guerriere failed", "crew Guerriere unfit", "crew Guerriere status 1", "mp A D",
    ],
}


@pytest.mark.parametrize(("name", "line"), [(n, line) for n, lines in LINES.items() for line in lines])
def test_lines_round_trip(name: str, line: str) -> None:
    s = REFEREE_SYSTEMS[name]
    state = s.initial_state(SETUPS[name]())
    cmd = s.parse(line, state)
    assert s.parse(s.format(cmd), state) == cmd
    assert s.commands.decode(s.commands.encode(cmd)) == cmd


@given(st.text(max_size=40))
def test_no_line_crashes_a_parser(line: str) -> None:
    for name, s in REFEREE_SYSTEMS.items():
        state = s.initial_state(SETUPS[name]())
        with contextlib.suppress(RulesError):
            s.parse(line, state)


@pytest.mark.parametrize("name", list(REFEREE_SYSTEMS))
def test_random_lines_are_refused_or_accepted_without_breaking_replay(name: str) -> None:
    s = REFEREE_SYSTEMS[name]
    state = s.initial_state(SETUPS[name]())
    initial, log = state, []
    dice = FairDice(seed_from_number(7), 0)
    for line in LINES[name] * 2 + ["next"] * 6 + LINES[name]:
        try:
            events = s.decide(state, s.parse(line, state), dice)
        except RulesError:
            continue
        for e in events:
            assert s.events.decode(s.events.encode(e)) == e
            state = s.apply(state, e)
        log.extend(events)
    assert replay(s, initial, log) == state
    assert from_data(s.state_type, to_data(state)) == state
    for viewer in (*state.players, state.referee, None):
        view = s.view(state, viewer)
        assert view.seed == 0


@pytest.mark.parametrize(
    ("name", "change", "problem"),
    [
        ("wsim", {"players": ["A"]}, "two players"),
        ("wsim", {"wind_shift_number": 3}, "wind_shift_number"),
        ("wsim", {"options": {"hurricanes": True}}, "Unknown option"),
        ("iron_and_oak", {"ship": [{"id": "X", "player": "Nobody"}]}, "not one of"),
        ("iron_and_oak", {"ship": [{"id": "X", "player": "Union", "maneuver": "d10x"}]}, "maneuver"),
        ("captains_sea", {"offsets": {"middle": 1}}, "offsets"),
        ("captains_sea", {"ship": [{"id": "X", "player": "US", "hull_type": "Fast"}]}, "hull_type"),
    ],
)
def test_bad_setups_are_refused_naming_the_field(name: str, change: dict[str, Any], problem: str) -> None:
    doc = SETUPS[name]()
    doc.update(change)
    with pytest.raises(SetupError, match=problem):
        REFEREE_SYSTEMS[name].initial_state(doc)


def test_a_bad_wsim_ship_names_its_field() -> None:
    doc = wsim_setup()
    doc["ship"][0]["rigging"] = [8, 8, 8, 8]
    with pytest.raises(SetupError, match="ship Victory: `rigging`"):
        REFEREE_SYSTEMS["wsim"].initial_state(doc)


def test_unknown_verbs_and_names() -> None:
    for name, s in REFEREE_SYSTEMS.items():
        state = s.initial_state(SETUPS[name]())
        with pytest.raises(ParseError):
            s.parse("dance wildly", state)
        with pytest.raises(ParseError, match="at most 500"):
            s.parse("roll 2d6 for " + "x" * 600, state)
        with pytest.raises(RulesError):
            s.parse("hull Nobody" if name == "captains_sea" else "reveal Nobody" if name == "iron_and_oak" else "plot Nobody 1", state)


def test_a_whole_oak_and_iron_game_replays_through_the_interface() -> None:
    from game.ai.match import ai_game

    played = ai_game(3)
    assert replay(OAK_AND_IRON, played.initial, played.events) == played.state
    shown = [OAK_AND_IRON.event_for(e, "B") for e in played.events]
    assert all(isinstance(OAK_AND_IRON.account(e), str) for e in shown)
    assert OAK_AND_IRON.deciders(played.state) == set()  # the game is over


@pytest.mark.parametrize("name", list(REFEREE_SYSTEMS))
def test_an_undo_restores_exactly_and_each_viewer_reads_it_redacted(name: str) -> None:
    """The event an undo writes: `apply` makes any state exactly the one restored (its log position
    too, so the dice stream goes on from there), it round-trips through the codec, and a player reads
    it with the other seats' sealed orders still sealed."""
    s = SYSTEMS[name]
    start = s.initial_state(SETUPS[name]())
    state, _ = run(s, start, "next", FairDice(seed_from_number(3), 0))
    back = s.restored(start, "taken back by the referee", "3")
    assert s.apply(state, back) == start
    assert s.events.decode(s.events.encode(back)) == back
    assert s.undo_refused([back], state) == "" and "taken back" in s.account(back)
    for viewer in (*start.players, None):
        assert s.event_for(back, viewer).state == s.view(start, viewer)
