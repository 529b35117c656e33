"""Who acts next and when a phase gives way to the next one."""

from __future__ import annotations

from game import events as ev
from game.context import Decision
from game.model import Game, Phase


def can_activate(state: Game, ship_id: str) -> bool:
    s = state.ship(ship_id)
    return s.can_act and ship_id not in state.activated


def has_ships_to_activate(state: Game, player: str) -> bool:
    return any(can_activate(state, s.id) for s in state.ships_of(player))


def after_picks(ctx: Decision) -> None:
    """Both players have chosen next turn's card: resolve 'immediately' effects, then move."""
    from game.phases import reveal_effects

    choices = reveal_effects.resolve(ctx)
    if choices:
        ctx.emit(ev.ChoicesSet(choices))
        return
    begin_activation_phase(ctx, Phase.MOVEMENT)


def begin_activation_phase(ctx: Decision, phase: Phase) -> None:
    ctx.emit(ev.PhaseBegan(phase, ctx.state.turn))
    first = ctx.state.initiative
    order = [first] + [p for p in ctx.state.players if p != first] if first else list(ctx.state.players)
    for p in order:
        if p is not None and has_ships_to_activate(ctx.state, p):
            ctx.emit(ev.ActivePlayer(p))
            return
    advance_phase(ctx, phase)


def next_activation(ctx: Decision, just_acted: str) -> None:
    """Alternate: the opponent if they have ships left, else the same player, else the next phase."""
    state = ctx.state
    if state.phase is Phase.OVER:
        return
    other = state.opponent(just_acted)
    for p in (other, just_acted):
        if has_ships_to_activate(state, p):
            if state.active_player != p:
                ctx.emit(ev.ActivePlayer(p))
            return
    advance_phase(ctx, state.phase)


def advance_phase(ctx: Decision, finished: Phase) -> None:
    if finished is Phase.MOVEMENT:
        begin_activation_phase(ctx, Phase.ATTACK)
    elif finished is Phase.ATTACK:
        from game.phases.end import run_end_phase

        run_end_phase(ctx)
