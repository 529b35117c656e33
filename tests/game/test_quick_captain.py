"""Issue 15: the quicker captain. Foresight puts a ship exactly where the engine does when nothing
is in the way; decide_and_apply hands back exactly the state the events lead to."""

from __future__ import annotations

import pytest

from benchmarks.captain import wilson
from benchmarks.engine import to_movement
from game import events as ev
from game.ai import foresight
from game.ai.captain import Captain
from game.apply import apply_all
from game.commands import Activate, Advance, Turn
from game.dice import FairDice, seed_from_number
from game.engine import decide, decide_and_apply
from game.errors import RulesError
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.scenario import quickstart

TURNS = [None, *(Turn(w, s, d) for w in ("start", "end") for s in ("port", "starboard") for d in (20.0, 30.0, 45.0))]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_foresight_ends_where_the_engine_ends_a_free_move(seed: int) -> None:
    rules = load_rules()
    state = to_movement(quickstart(seed=seed))
    checked = 0
    for ship in state.ships_of(state.active_player or ""):
        sketch = foresight.move_speed(state, ship, rules)
        assert sketch is not None  # the quick start's opening moves are all plain moves ahead
        for turn in TURNS:
            pose = foresight.end_pose(ship, sketch[1], turn, rules)
            cmd = Activate(ship.id, None, Advance(ship.id, "ahead", turn, player=ship.controller), None,
                           player=ship.controller)
            try:
                events = decide(state, cmd, FairDice(seed_from_number(seed), state.log_position), rules)
            except RulesError:  # a turn too sharp for the tool is refused by both
                assert pose is None
                continue
            moves = [e for e in events if isinstance(e, ev.ShipMoved)]
            assert pose is not None and moves and not moves[0].stopped_by
            assert moves[0].path[-1] == (round(pose.x, 6), round(pose.y, 6), round(geo_heading(pose.heading), 6))
            checked += 1
    assert checked >= 8


def geo_heading(h: float) -> float:
    from game.geometry import norm_heading

    return norm_heading(h)


def test_decide_and_apply_hands_back_the_state_the_events_lead_to() -> None:
    rules = load_rules()
    state = quickstart(seed=4)
    captains = {p: Captain(p, 4, rules) for p in state.players}
    for _ in range(150):
        who = deciders(state)
        if not who:
            break
        cmd = captains[sorted(who)[0]].act(state)
        dice = FairDice(seed_from_number(state.seed), state.log_position)
        events, after = decide_and_apply(state, cmd, dice, rules)
        assert after == apply_all(state, events)
        assert events == decide(state, cmd, FairDice(seed_from_number(state.seed), state.log_position), rules)
        state = after


def test_win_rate_interval() -> None:
    lo, hi = wilson(100, 200)
    assert lo == pytest.approx(0.4314, abs=1e-4) and hi == pytest.approx(0.5686, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and 0.27 < hi < 0.28
