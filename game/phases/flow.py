"""The order of the phases and the hand-over between them: who acts next, when a phase gives way to
the next one, and where the game goes on after a waiting decision. The phases know only their own
rules: this module calls them, and they hand back through `ctx.flow` (game/context.py), never by
importing each other."""

from __future__ import annotations

from game import events as ev
from game.commands import Decide
from game.context import Decision
from game.errors import IllegalAction
from game.model import Game, Phase
from game.phases import common as c
from game.phases import end, initiative, reveal_effects


def can_activate(state: Game, ship_id: str) -> bool:
    s = state.ship(ship_id)
    return s.can_act and ship_id not in state.activated


def has_ships_to_activate(state: Game, player: str) -> bool:
    return any(can_activate(state, s.id) for s in state.ships_of(player))


def after_picks(ctx: Decision) -> None:
    """Both players have chosen next turn's card: resolve 'immediately' effects, then move."""
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
        end.run_end_phase(ctx)


def turn_over(ctx: Decision) -> None:
    """The End Phase is done: the next turn begins with its Initiative Phase."""
    initiative.begin_turn(ctx, ctx.state.turn + 1)


def decide_choice(ctx: Decision, cmd: Decide) -> None:
    """A waiting decision of any phase (a capture, a lost admiral, a reveal's choice, an event card):
    its phase's rule carries it out; once none waits, the game goes on where that phase left it."""
    state = ctx.state
    c.no_pending(state)
    if not state.choices:
        raise IllegalAction("No decision is waiting.", "Carry on with the game.")
    by_kind = {"borrow": "borrow", "place": "place_terrain", "skip": "place_terrain", "keep": "event_draw",
               "discard": "event_draw"}
    match = [ch for ch in state.choices if (ch.ship == cmd.ship and bool(cmd.ship)) or (
        not cmd.ship and ch.kind == by_kind.get(cmd.answer) and (not cmd.player or ch.player == cmd.player))]
    if not match:
        waiting = ", ".join(f"{ch.ship} ({ch.kind.replace('_', ' ')})" for ch in state.choices)
        raise IllegalAction(f"Nothing is to be decided about {cmd.ship}.", f"Waiting: {waiting}.")
    choice = match[0]
    if cmd.player and cmd.player != choice.player:
        raise IllegalAction(f"The decision about {cmd.ship} is player {choice.player}'s.")
    if choice.kind == "capture":
        end.capture(ctx, choice, cmd)
    elif choice.kind == "lost_admiral":
        end.lost_admiral(ctx, choice, cmd)
    elif choice.kind == "borrow":
        reveal_effects.borrow(ctx, choice, cmd)
    elif choice.kind == "place_terrain":
        reveal_effects.place_lured(ctx, choice, cmd)
    elif choice.kind == "event_draw":
        initiative.event_choice(ctx, choice, cmd.answer)
    else:
        reveal_effects.free_turn(ctx, choice, cmd)
    remaining = tuple(ch for ch in ctx.state.choices if ch != choice)
    ctx.emit(ev.ChoicesSet(remaining))
    if remaining:
        return
    if choice.kind == "capture":
        end.after_captures(ctx)
    elif choice.kind == "event_draw":
        initiative.continue_tie(ctx)
    elif choice.kind == "lost_admiral":
        end.finish_turn(ctx)
    else:
        begin_activation_phase(ctx, Phase.MOVEMENT)


class Flow:
    """What the phases call to hand over (ctx.flow): the functions above, and only these."""

    after_picks = staticmethod(after_picks)
    turn_over = staticmethod(turn_over)
    next_activation = staticmethod(next_activation)


FLOW = Flow()


def deciders(state: Game) -> set[str]:
    """The players whose answer the game is waiting for: the one rule the bot, the clock, the captain and
    the offline table read (a squadron owes an initiative pick as `owes_pick` says)."""
    if state.phase is Phase.OVER:
        return set()
    if state.pending is not None:
        return {state.pending.player}
    if state.offer is not None:
        return {state.offer.player}
    if state.choices:
        return {state.choices[0].player}
    if state.phase in (Phase.SETUP, Phase.INITIATIVE):
        return set(c.awaiting_pick(state))
    if state.phase is Phase.PREPARATION and state.prep is not None:
        if state.prep.to_act:
            return {state.prep.to_act}
        return {q.player for q in state.squadrons if not q.name}  # squadron lists awaited
    if state.active_player is None:
        return set()
    if state.active_player in state.players:
        return {state.active_player}
    # a fleet battle's Attack Phase: any squadron of the side with ships still to attack
    return {p for p in state.players_of(state.active_player) if has_ships_to_activate(state, p)}


def sole_decider(state: Game) -> str | None:
    """The one player the game waits for, if it waits for exactly one (whom planned and standing orders
    may answer for)."""
    waiting = deciders(state)
    return next(iter(waiting)) if len(waiting) == 1 else None
