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


def side_has_ships(state: Game, side: str) -> bool:
    return any(has_ships_to_activate(state, p) for p in state.players_of(side))


def _turn_to(ctx: Decision, side: str) -> bool:
    """Hand the activation to a side: in a fleet battle's Movement Phase to its first squadron with
    ships left (the whole squadron then activates), in an Attack Phase to the side itself (any of
    its ships may attack). Outside fleet battles a side is one player. False if it has no ships."""
    state = ctx.state
    if state.fleet_battle and state.phase is Phase.MOVEMENT:
        who = next((p for p in state.players_of(side) if has_ships_to_activate(state, p)), None)
    else:
        who = side if side_has_ships(state, side) else None
    if who is None:
        return False
    if state.active_player != who:
        ctx.emit(ev.ActivePlayer(who))
    return True


def begin_activation_phase(ctx: Decision, phase: Phase) -> None:
    ctx.emit(ev.PhaseBegan(phase, ctx.state.turn))
    first = ctx.state.initiative
    teams = ctx.state.teams
    order = [first] + [t for t in teams if t != first] if first in teams else list(teams)
    for side in order:
        if _turn_to(ctx, side):
            return
    advance_phase(ctx, phase)


def next_activation(ctx: Decision, just_acted: str) -> None:
    """Alternate: the other side if it has ships left, else the same side, else the next phase. In a
    fleet battle's Movement Phase a squadron finishes all its ships before the other side goes."""
    state = ctx.state
    if state.phase is Phase.OVER:
        return
    if state.fleet_battle and state.phase is Phase.MOVEMENT and has_ships_to_activate(state, just_acted):
        return
    mine = state.team_of(just_acted)
    for side in (state.opponent(just_acted), mine):
        if _turn_to(ctx, side):
            return
    advance_phase(ctx, state.phase)


def advance_phase(ctx: Decision, finished: Phase) -> None:
    if finished is Phase.MOVEMENT:
        begin_activation_phase(ctx, Phase.ATTACK)
    elif finished is Phase.ATTACK:
        from game.phases.end import run_end_phase

        run_end_phase(ctx)
