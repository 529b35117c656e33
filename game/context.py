"""The working area of one decision: the state as events accumulate, the dice, and the rules data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from game import events as ev
from game.apply import apply
from game.dice import DiceSource, drawn
from game.model import Game
from game.notation import format_command
from game.rules_data import RulesData


class Suspend(Exception):  # noqa: N818 - control flow, not an error
    """A roll waits for its roller's choice; the decision stops with the events so far."""


class Flow(Protocol):
    """How a phase hands the game on (game/phases/flow.py is the one implementation): flow imports
    the phases, so they reach it through the decision they are given, never by importing it."""

    def after_picks(self, ctx: Decision) -> None: ...

    def turn_over(self, ctx: Decision) -> None: ...

    def next_activation(self, ctx: Decision, just_acted: str) -> None: ...


class Decision:
    def __init__(self, state: Game, dice: DiceSource, rules: RulesData, flow: Flow | None = None) -> None:
        self.start = state
        self.state = state
        self.dice = dice
        self.rules = rules
        self.events: list[Any] = []
        self.rolled = False
        # a roll already settled through a re-roll prompt: the next re-rollable roll takes these faces
        self.preresolved: tuple[str, ...] | None = None
        # the order still to carry out, as notation lines, starting with the step now running;
        # written out only when a roll waits for its roller (it is kept with the roll), since most
        # orders never stop
        self._remaining: tuple[str, ...] | None = ()
        self._remaining_steps: tuple[Any, ...] = ()
        # dice a card adds to an attack made as a Crew Action (Elan)
        self.extra_dice = 0
        # a roll made inside another action (Boarding Through the Smoke's fire) is not offered re-rolls
        self.no_reroll = False
        # given by whoever makes the decision (the engine, the captain, ...): context cannot import flow,
        # which imports the phases that import context
        self._flow = flow

    @property
    def flow(self) -> Flow:
        """How a phase hands the game on: after the picks, after an activation, at the end of a turn."""
        if self._flow is None:
            raise RuntimeError("This decision was made without the phases' flow: it cannot hand the game on.")
        return self._flow

    def over(self, state: Game) -> Decision:
        """A scratch decision over another state, with the same dice, rules and flow."""
        return Decision(state, self.dice, self.rules, self._flow)

    @property
    def remaining(self) -> tuple[str, ...]:
        if self._remaining is None:
            self._remaining = tuple(format_command(s) for s in self._remaining_steps)
        return self._remaining

    @remaining.setter
    def remaining(self, lines: tuple[str, ...]) -> None:
        self._remaining, self._remaining_steps = lines, ()

    def remaining_steps(self, steps: Sequence[Any]) -> None:
        """The steps still to carry out, to be written out as notation if they are asked for."""
        self._remaining, self._remaining_steps = None, tuple(steps)

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    def roll(
        self,
        n: int,
        purpose: str,
        kind: str,
        player: str = "",
        ship: str = "",
        success: frozenset[str] | None = None,
        needed: int = 0,
        target: str = "",
        kept: tuple[str, ...] = (),
    ) -> tuple[str, ...]:
        faces, at = self.draw(n, self.rules.die.sides)
        self.rolled = True
        wanted = success if success is not None else self.rules.die.success[kind]
        self.emit(ev.DiceRolled(purpose, kind, faces, sum(1 for f in faces if f in wanted), player, ship, at,
                                needed=needed, target=target, kept=kept))
        return faces

    def draw(self, n: int, sides: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
        """n faces from the dice source, and how many dice it had handed out before them: the event
        that records the faces keeps that number, so the verifier can recompute each die."""
        at = drawn(self.dice)
        return self.dice.roll(n, sides), at

    def successes(self, kind: str, faces: Sequence[str]) -> int:
        return self.rules.die.successes(kind, tuple(faces))
