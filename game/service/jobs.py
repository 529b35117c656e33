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
from game.rules_data import RulesData
from game.views import View


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


def choose_job(view: View, player: str, judgement: int, rules: RulesData) -> Command:
    """The computer captain's command, from its own side's view only."""
    return Captain(player, judgement, rules).choose(view)
