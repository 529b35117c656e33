"""The pure jobs the worker pool runs (game/service/workers.py): module-level functions of picklable
arguments, so a worker process gives what an inline call gives. Nothing here touches the database
or the event loop; the service reads and writes, the jobs think."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game import option_geometry
from game.ai.captain import Captain
from game.commands import Command
from game.dice import FairDice, ScriptedDice, seed_from_number
from game.engine import decide
from game.model import Game
from game.options import Options, options_for, public_options
from game.rules_data import RulesData
from game.views import View, view_of


def decide_job(state: Game, cmd: Command, seed: str, fixed: Sequence[str], rules: RulesData) -> tuple[list[Any], int]:
    """The events of a command, and how many of the fixed faces (test games) its dice used. The
    dice are the game's fair dice at the state's log position, so the same command decides the same
    wherever it runs."""
    fallback = FairDice(seed, state.log_position)
    if not fixed:
        return decide(state, cmd, fallback, rules), 0
    dice = ScriptedDice(list(fixed), fallback=fallback)
    events = decide(state, cmd, dice, rules)
    return events, len(fixed) - len(dice.remaining)


def options_job(view: View, rules: RulesData, ship: str | None) -> Options:
    """What the viewer can do now: the closing moves are trial moves through the engine, the dearest
    part of answering a command, so they run beside the decisions."""
    return options_for(view, rules, ship)


def public_options_job(state: Game, players: Sequence[str], rules: RulesData) -> list[Options]:
    """The options of each waiting player that may be posted in the channel, each from their own view,
    as far as the board post and its menu show them (a tutorial's hint reads them all: a learner's
    small table, game/tutorial.py)."""
    return [public_options(view_of(state, p), rules, shown_only=not state.tutorial) for p in players]


def warm_worker() -> None:
    """A worker's start (the pool's initializer): the rules data loaded, the options' paths for every
    base size and tool shaped, and a quick-start table's options worked out once, then everything
    alive frozen out of the garbage collector's sight (`gc.freeze`). The geometry caches then fill with the games' own shapes, and a full collection no longer walks
    the data, the modules and the warm-up's objects each time (issue 29: the captain's worst game was
    mostly full collections)."""
    import gc

    from game.apply import apply_all
    from game.phases.flow import deciders
    from game.rules_data import load_rules
    from game.scenario import quickstart

    rules = load_rules()
    option_geometry.warm(rules)
    state = quickstart(seed=1)
    for _ in range(8):  # the captains' picks, to the first activation of the Movement Phase
        who = sorted(deciders(state))
        for player in who:
            public_options(view_of(state, player), rules)
        if not who or state.activation is None and state.phase.value == "movement":
            break
        cmd = Captain(who[0], 1, rules).choose(view_of(state, who[0]))
        state = apply_all(state, decide(state, cmd, FairDice(seed_from_number(1), state.log_position), rules))
    gc.collect()
    gc.freeze()


def choose_job(view: View, player: str, judgement: int, rules: RulesData) -> Command:
    """The computer captain's command, from its own side's view only."""
    return Captain(player, judgement, rules).choose(view)
