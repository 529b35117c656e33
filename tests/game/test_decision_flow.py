"""A decision hands the game on through the flow it was given (game/context.py): the phases never
import game.phases.flow, which imports them."""

from __future__ import annotations

import pytest

from game.context import Decision
from game.dice import ScriptedDice
from game.phases.flow import FLOW
from game.rules_data import load_rules
from game.scenario import quickstart


def test_a_decision_hands_on_through_the_flow_it_was_given_and_its_scratch_copies_keep_it() -> None:
    state, rules = quickstart(), load_rules()
    ctx = Decision(state, ScriptedDice(), rules, FLOW)
    assert ctx.flow is FLOW
    scratch = ctx.over(state)
    assert scratch.flow is FLOW and scratch.state is state and scratch.events == []


def test_a_decision_made_without_a_flow_says_so_rather_than_handing_on_nowhere() -> None:
    ctx = Decision(quickstart(), ScriptedDice(), load_rules())
    with pytest.raises(RuntimeError, match="without the phases' flow"):
        ctx.flow.after_picks(ctx)
    assert ctx.events == [] and ctx.state is ctx.start
