"""Less ceremony (issue 24 item 4): the Casus Belli turn goes through the phases where nobody can give
anything, saying why, so a two-ship turn of plots, one broadside each and a reload takes 8 commands;
a phase with something to do is never skipped, and the referee can still stop anywhere."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.codec import from_data, to_data
from game.dice import FairDice, seed_from_number
from game.errors import IllegalAction, RulesError, UnknownName, WrongPhase
from game.model import evolve
from game.systems import orders as od
from game.systems.base import replay
from game.systems.captains_sea import SYSTEM as CAPTAINS_SEA
from game.systems.common import NextPhase, PhaseEntered, PhaseSkipped, Prompt, Step, sequence
from game.systems.iron_and_oak import SYSTEM as IRON_AND_OAK
from game.systems.wsim import SYSTEM
from game.systems.wsim import events as ev
from game.systems.wsim.engine import enter, tables
from game.systems.wsim.model import Broadside, Party, Wind
from game.systems.wsim.skips import PREDICATES
from tests.systems.captains_sea.test_game import setup as cs_setup
from tests.systems.helpers import Table, quote
from tests.systems.iron_and_oak.conftest import setup as io_setup
from tests.systems.wsim.conftest import at, setup

SEED = "seed_002_tables.txt"
# one turn: (line, its dice). Victory's right broadside at range 7 rolls FFN 18, Redoutable's left FFN 9, both
# at the rigging, critical rolls 4 and 2: no effect; the last load rolls the next turn's wind (7: it holds)
TURN: list[tuple[str, tuple[int, ...]]] = [
    ("British: plot Victory 1", ()),
    ("French: plot Redoutable 1", ()),
    ("Umpire: next", ()),
    ("British: fire Victory right Redoutable range 7", (1, 1, 2)),
    ("French: fire Redoutable left Victory range 7", (1, 1, 1)),
    ("Umpire: next", ()),
    ("British: load Victory right R", ()),
    ("French: load Redoutable left R", (3, 4)),
]


def _first_turn(t: Table) -> None:
    """Turn 1, whose fires (FFN 19 and 10, with the initial broadsides) wait for the referee's hits."""
    t.play("Umpire: next", 3, 4)
    t.play("British: plot Victory 1")
    t.play("French: plot Redoutable 1")
    t.play("Umpire: next")
    t.play("British: fire Victory right Redoutable range 7", 1, 1, 2)
    t.play("French: fire Redoutable left Victory range 7", 1, 1, 1)
    t.play("Umpire: hits 1 1R")
    t.play("Umpire: hits 2 1R")
    t.play("Umpire: next")
    t.play("British: load Victory right R")
    t.play("French: load Redoutable left R", 3, 4)


def _started(**changes: Any) -> Table:
    t = Table(SYSTEM, setup(**changes))
    # the referee has entered the two rows of the Fire Results Table turn 2 reads (garbled in the play aid)
    t.play("Umpire: printed fire_results 18 rigging = 1R")
    t.play("Umpire: printed fire_results 9 rigging = 1R")
    _first_turn(t)
    return t


def _turns_started(events: list[Any]) -> list[int]:
    return [e.turn for e in events if isinstance(e, PhaseEntered) and e.phase == "A"]


def test_a_two_ship_turn_takes_eight_commands() -> None:
    t = _started()
    assert (t.state.turn, t.state.phase) == (2, "D")  # turn 2 began with turn 1's last load
    commands, skipped = 0, []
    for line, dice in TURN:
        if line.startswith("British: load"):
            assert SYSTEM.deciders(t.state) == {"British", "French"}  # the loads are awaited, not the referee
        events = t.play(line, *dice)
        commands += 1
        skipped += [e.phase for e in events if isinstance(e, PhaseSkipped)]
        if _turns_started(events):
            break
    assert commands == 8 and _turns_started(events) == [3]
    assert skipped == ["F", "G", "I", "K", "B", "C"]
    # the hits came from the rows the referee entered, and were marked when the Combat Phase ended
    assert [f.hits for f in t.state.fires] == ["1R", "1R"]
    assert t.state.ship("Redoutable").rigging_lost == (2, 0, 0, 0)
    assert t.state.phase == "D" and SYSTEM.deciders(t.state) == {"British", "French"}
    assert replay(SYSTEM, t.initial, t.events) == t.state
    for e in t.events:
        assert SYSTEM.events.decode(SYSTEM.events.encode(e)) == e
    assert from_data(SYSTEM.state_type, to_data(t.state)) == t.state


def test_the_account_says_what_was_skipped_and_why() -> None:
    t = _started()
    quote(__file__, SEED, 257, "Write any boarding parties in the logs of the involved ships.")
    t.play("British: plot Victory 1")
    t.play("French: plot Redoutable 1")
    assert t.lines(t.play("Umpire: next"), "French")[:2] == [
        "Turn 2: Phase F (Grappling/ungrappling Phase) skipped: no ship is fouled or grappled.",
        "Turn 2: Phase G (Boarding Preparation Phase) skipped: no ship is fouled or grappled.",
    ]


def test_the_ceremony_kept_walks_every_phase() -> None:
    """skip_empty = false: the same turn as the referee walked it before, 16 commands, 8 of them `next`."""
    t = Table(SYSTEM, setup(options={"skip_empty": False}))
    t.play("Umpire: printed fire_results 18 rigging = 1R")
    t.play("Umpire: printed fire_results 9 rigging = 1R")
    nxt: tuple[str, tuple[int, ...]] = ("Umpire: next", ())
    turn_1 = [("Umpire: next", (3, 4)), nxt, nxt, nxt, *TURN[:2], nxt, nxt, *TURN[2:5], ("Umpire: hits 1 1R", ()),
              ("Umpire: hits 2 1R", ()), nxt, nxt, *TURN[6:7], ("French: load Redoutable left R", ()), nxt,
              ("Umpire: next", (3, 4))]
    turn_2 = [nxt, nxt, nxt, *TURN[:2], nxt, nxt, *TURN[2:5], nxt, nxt, *TURN[6:7], ("French: load Redoutable left R", ()),
              nxt, ("Umpire: next", (3, 4))]
    for line, dice in turn_1:
        t.play(line, *dice)
    assert (t.state.turn, t.state.phase) == (2, "A")
    before = len(t.events)
    for line, dice in turn_2:
        t.play(line, *dice)
    assert not any(isinstance(e, PhaseSkipped) for e in t.events[before:])
    assert len(turn_2) == 16 and (t.state.turn, t.state.phase) == (3, "A")


def test_the_wind_phase_is_never_skipped_its_roll_is_made() -> None:
    quote(__file__, SEED, 251, "Roll two dice each turn to determine wind change")
    t = Table(SYSTEM, setup())
    events = t.play("Umpire: next", 6, 6, 3, 5)
    assert ev.WindForecast(Wind(2, 4)) in events and t.state.phase == "D"
    assert "Phase A (Wind Phase): the wind is rolled and nothing else is done in it." in t.lines(events)


def test_signals_wait_when_a_side_has_two_ships() -> None:
    quote(__file__, SEED, 252, "Receive signals sent last turn and send new signals.")
    doc = setup()
    doc["ship"].append({**doc["ship"][0], "id": "Temeraire", "leaders": []})
    t = Table(SYSTEM, doc)
    t.play("Umpire: next", 3, 4)
    assert t.state.phase == "B"
    t.play("Umpire: next")
    assert t.state.phase == "D"  # C: nothing fouled


def test_unfouling_and_the_sinking_roll_stop_in_c() -> None:
    quote(__file__, SEED, 253, "Make attempts to unfoul ships and rigging fouled on previous moves. Roll for sinking")
    t = at(Table(SYSTEM, setup()), "K", Redoutable={"doom": "may sink"})
    events = t.play("Umpire: next", 3, 4, 2)
    assert t.state.phase == "C" and any("may sink" in x for x in t.lines(events))
    t = at(Table(SYSTEM, setup()), "K", Victory={"fouled": ("Redoutable",)}, Redoutable={"fouled": ("Victory",)})
    t.play("Umpire: next", 3, 4)
    assert t.state.phase == "C"
    t.play("Umpire: next")
    t.play("British: plot Victory 0")
    t.play("French: plot Redoutable 0")
    t.play("Umpire: next")
    assert t.state.phase == "F"  # fouled ships may grapple: F is played
    quote(__file__, SEED, 256, "Attempt to grapple, avoid grappling, or ungrapple.")
    t.play("Umpire: next")
    assert t.state.phase == "G" and t.state.orders.kind == "board"


def test_ships_alongside_stop_in_f_when_the_referee_says_so() -> None:
    t = at(Table(SYSTEM, setup()), "E")
    assert isinstance(t.refused("British: grapple Victory Redoutable"), WrongPhase)
    t.play("Umpire: next F")
    assert t.state.phase == "F"
    t.play("British: grapple Victory Redoutable", 1)  # 1: the grapple holds
    assert t.state.ship("Victory").grappled == ("Redoutable",)
    t.play("Umpire: next")
    assert t.state.phase == "G"  # now grappled: boarding parties are written


def test_boarding_parties_revealed_go_on_to_the_combat_phase() -> None:
    t = at(Table(SYSTEM, setup()), "F", Victory={"grappled": ("Redoutable",)}, Redoutable={"grappled": ("Victory",)})
    t.play("Umpire: next")
    t.play("British: board Victory NBP")
    events = t.play("French: board Redoutable NBP")
    assert [e.ship for e in events if isinstance(e, ev.PartiesSet)] == ["Victory", "Redoutable"]
    assert od.OrdersClosed("board") in events and [e.phase for e in events if isinstance(e, PhaseEntered)] == ["H"]


def test_melee_stops_in_i_while_a_boarding_party_attacks() -> None:
    quote(__file__, SEED, 259, "Resolve Melee.")
    t = at(Table(SYSTEM, setup()), "H", Victory={"grappled": ("Redoutable",), "parties": (Party("OBP", (1,), "Redoutable"),)},
           Redoutable={"grappled": ("Victory",)})
    t.play("Umpire: next")
    assert t.state.phase == "I"


def test_hidden_sails_stop_in_k_and_the_reveal_ends_the_turn() -> None:
    quote(__file__, SEED, 261, "(Optional hidden: plot all Sail changes first.)")
    t = at(Table(SYSTEM, setup(options={"hidden_sails": True})), "J")
    assert isinstance(t.refused("French: sails Redoutable full"), WrongPhase)  # plotted in K, in secret
    t.play("Umpire: next")
    assert t.state.phase == "K" and t.state.orders.kind == "sails"
    t.play("British: sails Victory battle")
    t.play("French: sails Redoutable full", 3, 4)
    assert (t.state.turn, t.state.phase) == (2, "D") and t.state.ship("Redoutable").sails == "full"


def test_the_load_phase_waits_while_a_ship_may_still_load_or_repair() -> None:
    quote(__file__, SEED, 260, "Reload one broadside per ship. Mark any repairs")
    damaged = {"hull_lost": 3, "broadsides": (Broadside("left"), Broadside("right", "R"))}
    t = at(Table(SYSTEM, setup()), "J", Victory=damaged, Redoutable={"hull_lost": 2})
    t.play("British: load Victory left R")
    assert t.state.phase == "J"  # Redoutable has not loaded and may begin a repair
    err = t.refused("British: repair Victory hull")
    assert isinstance(err, IllegalAction) and "instead of a load" in err.text
    t.play("French: sails Redoutable full")  # the sails of K are set in J
    t.play("French: repair Redoutable hull", 3, 4)
    assert (t.state.turn, t.state.phase) == (2, "D") and t.state.ship("Redoutable").sails == "full"


def test_next_names_a_phase_to_stop_in() -> None:
    t = Table(SYSTEM, setup())
    cmd = SYSTEM.parse("Umpire: next wind", t.state)
    assert cmd == NextPhase("Umpire", "wind") and SYSTEM.format(cmd) == "Umpire: next wind"
    t.play("Umpire: next wind", 3, 4)
    assert t.state.phase == "A"
    t.play("Umpire: next c")
    assert t.state.phase == "C"  # B passed on the way, C kept
    err = t.refused("Umpire: next Z")
    assert isinstance(err, UnknownName) and "K (Full Sails Phase)" in err.allowed


def test_every_predicate_named_in_the_sequence_exists() -> None:
    named = {p.skip_when for p in sequence("wsim")} | {p.pass_when for p in sequence("wsim")}
    assert named - {""} == set(PREDICATES)
    assert not any(p.skip_when or p.pass_when for s in ("iron_and_oak", "captains_sea") for p in sequence(s))
    # the phases whose rules roll on a command or take fire are never skipped
    assert {p.key for p in sequence("wsim") if not p.skip_when} == {"A", "D", "E", "H", "J"}


@pytest.mark.parametrize(("system", "doc", "line"), [
    (IRON_AND_OAK, io_setup(), "Umpire: next order"),
    (CAPTAINS_SEA, cs_setup(), "Umpire: next initiative"),
])
def test_the_other_systems_walk_their_phases_one_at_a_time(system: Any, doc: dict[str, Any], line: str) -> None:
    t = Table(system, doc)
    err = t.refused(line)
    assert isinstance(err, IllegalAction) and "one at a time" in err.text
    t.play(line.replace(line.split()[-1], sequence(system.name)[0].key))
    assert t.state.phase == sequence(system.name)[0].key


PAIR_COMMANDS = {"C": "unfoul", "F": "ungrapple", "I": "melee"}


@settings(max_examples=60, deadline=None)
@given(phase=st.sampled_from("EFGHIK"), fouled=st.booleans(), grappled=st.booleans(), obp=st.booleans(),
       doom=st.sampled_from(["", "may sink"]), seed=st.integers(0, 10_000))
def test_a_skipped_phase_would_have_done_nothing(phase: str, fouled: bool, grappled: bool, obp: bool, doom: str,
                                                 seed: int) -> None:
    """Property: whatever is fouled, grappled, boarding or doomed, every phase `next` skips would, entered,
    only have announced itself, and refuses the commands of its rules; replay rebuilds the state."""
    v = {"fouled": ("Redoutable",) * fouled, "grappled": ("Redoutable",) * grappled,
         "parties": (Party("OBP", (1,), "Redoutable"),) * obp}
    r = {"fouled": ("Victory",) * fouled, "grappled": ("Victory",) * grappled, "doom": doom}
    t = at(Table(SYSTEM, setup()), phase, Victory=v, Redoutable=r)
    start = t.state
    events = SYSTEM.decide(start, NextPhase("Umpire"), FairDice(seed_from_number(seed), 0))
    state = start
    for e in events:
        if isinstance(e, PhaseSkipped):
            before = evolve(state, phase=e.phase, turn=e.turn)
            step = Step(state, FairDice(seed_from_number(seed), 0), SYSTEM.apply)
            enter(step, e.phase, e.turn, tables())
            assert all(isinstance(x, PhaseEntered | Prompt) for x in step.events), (e.phase, step.events)
            verb = PAIR_COMMANDS.get(e.phase)
            for a, b in (("Victory", "Redoutable"), ("Redoutable", "Victory")) if verb else ():
                with pytest.raises(RulesError):
                    SYSTEM.decide(before, SYSTEM.parse(f"Umpire: {verb} {a} {b}", before), FairDice(seed_from_number(seed), 0))
        state = SYSTEM.apply(state, e)
    assert replay(SYSTEM, start, events) == state
