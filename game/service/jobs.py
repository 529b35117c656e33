"""The pure jobs the worker pool runs (game/service/workers.py): module-level functions of picklable
arguments, so a worker process gives what an inline call gives. Nothing here touches the database
or the event loop; the service reads and writes, the jobs think."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.ai.captain import Captain
from game.commands import Command
from game.dice import FairDice, ScriptedDice
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
    """The options of each waiting player that may be posted in the channel, each from their own view."""
    return [public_options(view_of(state, p), rules) for p in players]


def choose_job(view: View, player: str, judgement: int, rules: RulesData) -> Command:
    """The computer captain's command, from its own side's view only."""
    return Captain(player, judgement, rules).choose(view)
