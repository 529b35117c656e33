"""Attack Phase: ships activate in alternation, initiative player first."""

from __future__ import annotations

from game import events as ev
from game.commands import Pass
from game.context import Decision
from game.errors import IllegalAction
from game.model import Phase
from game.phases import common as c
from game.phases.flow import next_activation


def begin_attack(ctx: Decision, ship_id: str, player: str) -> str:
    state = ctx.state
    c.no_pending(state)
    c.require_phase(state, Phase.ATTACK)
    ship = c.get_ship(state, ship_id)
    who = c.acting_player(player, ship)
    c.require_turn(state, who)
    c.ensure_able(ship, "attack")
    if ship_id in state.activated:
        raise IllegalAction(f"{ship_id} has already had its Attack Phase activation this turn.")
    return who


def pass_attack(ctx: Decision, cmd: Pass) -> None:
    who = begin_attack(ctx, cmd.ship, cmd.player)
    finish_attack(ctx, cmd.ship, who)


def finish_attack(ctx: Decision, ship_id: str, player: str) -> None:
    if ctx.state.ship(ship_id).wake:
        ctx.emit(ev.WakeMarker(ship_id, False))
    ctx.emit(ev.ActivationEnded(ship_id, Phase.ATTACK))
    next_activation(ctx, player)
