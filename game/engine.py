"""decide(state, command, dice) -> events: every rule lives behind this call. It raises a RulesError
(and changes nothing) or returns the events that happened; `apply` folds them into the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game import events as ev
from game.apply import apply, apply_all, replay
from game.commands import (
    Activate,
    AddTerrain,
    Advance,
    Attack,
    ChooseRole,
    Command,
    Concede,
    Crew,
    Decide,
    Decline,
    Deploy,
    Draft,
    EndActivation,
    Enlist,
    FinishStep,
    FixDice,
    KeepRoll,
    Pass,
    PickCard,
    PlaceTerrain,
    Reroll,
    Seamanship,
    UseFortune,
)
from game.context import Decision, Suspend
from game.dice import DiceSource
from game.errors import DiceNotAllowed, GameOver, IllegalAction, NotYourShip, RulesError
from game.model import Game, PendingRoll, Phase
from game.notation import parse
from game.phases import attack, common, flow, initiative, movement, preparation
from game.rules_data import RulesData, load_rules

__all__ = ["apply", "apply_all", "decide", "decide_and_apply", "replay"]


def decide(state: Game, command: Command, dice: DiceSource, rules: RulesData | None = None) -> list[Any]:
    return decide_and_apply(state, command, dice, rules)[0]


def decide_and_apply(
    state: Game, command: Command, dice: DiceSource, rules: RulesData | None = None
) -> tuple[list[Any], Game]:
    """The events, and the state they lead to. Deciding folds each event into a working state as
    it goes (later rules read it), so that state is handed back: applying the events again would
    do the same work twice."""
    rules = rules or load_rules(state.system)
    if state.phase is Phase.OVER:
        raise GameOver(f"The game is over: {state.result}.", "Start a new game to play again.")
    if isinstance(command, FixDice):
        raise DiceNotAllowed(
            "Fixing the dice is a table command, not a game move.",
            "Use it in a test scenario (test_dice = true) through the table or script runner.",
        )
    ctx = Decision(state, dice, rules, flow.FLOW)
    try:
        if isinstance(command, Reroll | UseFortune | KeepRoll):
            _answer_roll(ctx, command)
        elif isinstance(command, Activate):
            if command.seamanship is None and command.advance is None and command.crew is None:
                movement.refuse_idle_move(ctx, command.ship, command.player, command.point_of_sail)
            _run_order(ctx, _steps_of(command))
        elif isinstance(command, Seamanship | Advance | Crew | EndActivation | Attack):
            _run_order(ctx, [command])
        else:
            _HANDLERS[type(command)](ctx, command)
    except Suspend:
        pass
    return ctx.events, ctx.state


_HANDLERS: dict[type, Callable[[Decision, Any], None]] = {
    PickCard: initiative.pick_card,
    Pass: attack.pass_attack,
    Decline: attack.decline,
    Decide: flow.decide_choice,
    Concede: lambda ctx, cmd: _concede(ctx, cmd),
    Enlist: preparation.enlist,
    ChooseRole: preparation.choose_role,
    Draft: preparation.draft,
    AddTerrain: preparation.add_terrain,
    PlaceTerrain: preparation.place_terrain,
    FinishStep: preparation.finish_step,
    Deploy: preparation.deploy,
}


def _concede(ctx: Decision, cmd: Concede) -> None:
    if cmd.player not in ctx.state.players:
        raise IllegalAction(f"There is no player {cmd.player!r} in this game.")
    ctx.emit(ev.GameEnded(ctx.state.opponent(cmd.player), f"player {cmd.player} concedes"))

_STEP_HANDLERS: dict[type, Callable[[Decision, Any], None]] = {
    Seamanship: movement.seamanship,
    Advance: movement.advance,
    Crew: movement.crew,
    EndActivation: movement.end_activation,
    Attack: attack.attack_command,
}


def _steps_of(cmd: Activate) -> list[Command]:
    """An Activate order as its steps. It picks up wherever the ship's activation stands."""
    steps: list[Command] = []
    if cmd.seamanship is not None:
        steps.append(cmd.seamanship)
    steps.append(cmd.advance or Advance(cmd.ship, "", None, cmd.point_of_sail, cmd.player))
    if cmd.crew is not None:
        steps.append(cmd.crew)
    else:
        steps.append(EndActivation(cmd.ship, cmd.player))
    if cmd.point_of_sail:
        first = steps[0]
        if isinstance(first, Seamanship | Advance | Crew) and not first.point_of_sail:
            from dataclasses import replace

            steps[0] = replace(first, point_of_sail=cmd.point_of_sail)
    return steps


def _run_order(ctx: Decision, steps: list[Command]) -> None:
    """Carry out the steps in order. A step that is illegal before any die is rolled rejects the
    whole order; once dice have been rolled, the order halts there and the player continues."""
    act = ctx.state.activation
    first = steps[0]
    if (
        act is not None
        and act.step == "crew"
        and len(steps) > 1
        and isinstance(first, Advance)
        and (first.direction, first.turn) == ("", None)
    ):
        steps = steps[1:]  # the move was already made: the order picks up after it
    for i, cmd in enumerate(steps):
        ctx.remaining_steps(steps[i:])
        try:
            _STEP_HANDLERS[type(cmd)](ctx, cmd)
        except RulesError as exc:
            if not ctx.rolled:
                raise
            ship = getattr(cmd, "ship", "")
            ctx.emit(ev.OrderHalted(ship, exc.code, exc.text))
            return
        if ctx.state.activation is None:
            return  # the activation ended (a Crew Action, or the ship left the table)


def _answer_roll(ctx: Decision, cmd: Reroll | UseFortune | KeepRoll) -> None:
    p = ctx.state.pending
    if p is None:
        raise IllegalAction("No roll is waiting for a re-roll decision.", "Re-rolls are offered after a failed Skill Test.")
    if cmd.player and cmd.player != p.player:
        raise NotYourShip(f"The roll belongs to player {p.player}.", "Only the roller decides on re-rolls.")
    ship = ctx.state.ship(p.ship)
    ctx.rolled = True  # the test was rolled already: what follows halts rather than undoes it
    if isinstance(cmd, Reroll):
        positions = [d - 1 for d in cmd.dice]
        bad = [d for d in cmd.dice if not 1 <= d <= len(p.faces)]
        if bad:
            raise IllegalAction(f"There is no die at position {bad[0]}.", f"Positions run from 1 to {len(p.faces)}.")
        if len(set(positions)) != len(positions):
            raise IllegalAction("Each die can be named once.")
        again = [d + 1 for d in positions if d in p.skill_rerolled]
        if again:
            raise IllegalAction(
                f"Die {again[0]} was already re-rolled with Skill.", "Only a Fortune Point re-rolls it again."
            )
        left = p.skill - len(p.skill_rerolled)
        if len(positions) > left:
            raise IllegalAction(
                f"{ship.id} has Skill {p.skill}: {max(0, left)} Skill re-roll(s) left for this roll.",
                "Choose fewer dice, spend a Fortune Point (fortune) or keep.",
            )
        new, at = ctx.draw(len(positions), ctx.rules.die.sides)
        faces = list(p.faces)
        for pos, face in zip(positions, new, strict=True):
            faces[pos] = face
        ctx.emit(ev.DiceRerolled(p.player, p.ship, tuple(positions), tuple(faces), _count(p, faces), "skill", at,
                                 purpose=p.purpose, kind=p.kind, needed=p.needed))
    elif isinstance(cmd, UseFortune):
        if p.fortune_used:
            raise IllegalAction("A Fortune Point has already been spent on this roll.", "Keep the roll or use Skill.")
        q = ctx.state.squadron(p.player)
        if q.fortune <= 0:
            raise IllegalAction(f"Player {p.player} has no Fortune Points left.", "Keep the roll or use Skill.")
        ctx.emit(ev.FortuneSpent(p.player, q.fortune - 1))
        faces_t, at = ctx.draw(len(p.faces), ctx.rules.die.sides)
        ctx.emit(ev.DiceRerolled(p.player, p.ship, tuple(range(len(p.faces))), faces_t, _count(p, faces_t), "fortune",
                                 at, purpose=p.purpose, kind=p.kind, needed=p.needed))
    now = ctx.state.pending
    assert now is not None
    hits = _count(now, now.faces)
    all_hit = hits == len(now.faces)
    test_passed = now.kind == "skill_test" and hits > 0
    if not isinstance(cmd, KeepRoll) and not (all_hit or test_passed) and common.can_reroll(ctx.state, now):
        return  # another re-roll is possible and could still help: the roller decides again
    ctx.emit(ev.RollSettled(now.player, now.ship, now.purpose, hits > 0))
    _resume(ctx, now.remaining, now.faces)


def _count(p: PendingRoll, faces: tuple[str, ...] | list[str]) -> int:
    return sum(1 for f in faces if f in p.success)


def _resume(ctx: Decision, remaining: tuple[str, ...], faces: tuple[str, ...]) -> None:
    steps = [parse(line, ctx.state) for line in remaining]
    ctx.preresolved = faces
    _run_order(ctx, steps)
