"""A game played line by line in one process: the script runner and the offline hot-seat table.

It keeps the starting state and every event, so the game can be replayed or saved, and owns the
`dice` table command of test scenarios.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from game.commands import Command, FixDice
from game.dice import FairDice, ScriptedDice, seed_from_number
from game.engine import decide_and_apply
from game.errors import DiceNotAllowed, RulesError
from game.model import Game
from game.notation import parse
from game.rules_data import RulesData, load_rules


class TableSession:
    def __init__(self, initial: Game, rules: RulesData | None = None) -> None:
        self.initial = initial
        self.state = initial
        self.rules = rules or load_rules(initial.system)
        self.events: list[Any] = []
        self.commands: list[int] = []  # the number of the command that produced each event
        self.fixed_dice: deque[str] = deque()

    def submit_line(self, line: str) -> list[Any]:
        return self.submit(parse(line, self.state))

    def submit(self, command: Command) -> list[Any]:
        if isinstance(command, FixDice):
            self._fix_dice(command)
            return []
        dice = ScriptedDice(fallback=FairDice(seed_from_number(self.state.seed), self.state.log_position))
        dice.push(self.fixed_dice)
        events, after = decide_and_apply(self.state, command, dice, self.rules)
        # a refused command raised above and used none of the fixed dice
        for _ in range(len(self.fixed_dice) - len(dice.remaining)):
            self.fixed_dice.popleft()
        self.state = after
        self.events.extend(events)
        if events:
            self.commands.extend([self.commands[-1] + 1 if self.commands else 1] * len(events))
        return events

    @property
    def log(self) -> list[tuple[int, Any]]:
        """(command number, event) in order: what the dice verifier reads."""
        return list(zip(self.commands, self.events, strict=True))

    def _fix_dice(self, command: FixDice) -> None:
        if not self.state.test_dice:
            raise DiceNotAllowed(
                "Fixing dice is refused in this game.",
                "Only scenarios with test_dice = true allow the dice command.",
            )
        sides = set(self.rules.die.sides)
        bad = [f for f in command.faces if f not in sides]
        if bad:
            raise RulesError(f"{bad[0]!r} is not a face of the die.", f"Faces: {', '.join(sorted(sides))}.", code="parse")
        self.fixed_dice.extend(command.faces)
