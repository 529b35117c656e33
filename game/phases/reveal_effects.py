"""Step 3 of the Initiative Phase: effects that act 'immediately' on reveal, initiative player first.
Those that need the player's hand on the tiller (a free turn) wait as Choices."""

from __future__ import annotations

from game import effects
from game import events as ev
from game import geometry as geo
from game.commands import Decide
from game.context import Decision
from game.errors import IllegalAction
from game.model import Choice, ShipSide
from game.phases import common as c


def resolve(ctx: Decision) -> tuple[Choice, ...]:
    state = ctx.state
    order = sorted(state.players, key=lambda p: p != state.initiative)
    choices: list[Choice] = []
    for player in order:
        for card, e in effects.on_reveal(ctx.state, player, ctx.rules):
            action = e.get("action")
            if e.get("condition") == "strike_points_last_turn" and not dict(ctx.state.strike_points).get(player):
                continue
            ships = [s for s in ctx.state.ships_of(player) if s.can_act and effects.in_scope(ctx.state, s, e, ctx.rules)]
            if action == "remove_fatigue":
                for s in ships:
                    if s.fatigue:
                        c.take_fatigue(ctx, s.id, -int(e.get("amount", 1)))
            elif action == "remove_reload":
                for s in ships:
                    for side in (ShipSide.PORT, ShipSide.STARBOARD):
                        if side in s.reload:
                            ctx.emit(ev.ReloadMarker(s.id, side, False))
                            break
            elif action == "free_turn":
                for s in ships:
                    if not (s.entangled or s.aground):
                        choices.append(Choice(player, "free_turn", s.id, (card,)))
    return tuple(choices)


def free_turn(ctx: Decision, choice: Choice, cmd: Decide) -> None:
    if cmd.answer == "skip":
        return
    if cmd.answer not in ("port", "starboard"):
        raise IllegalAction("A free turn goes to port or starboard, or is skipped.", "freeturn SHIP port 20 / skip.")
    limit = ctx.rules.tool(1).max_turn
    if not 0 < cmd.degrees <= limit + 1e-9:
        raise IllegalAction(f"The free turn uses the speed-1 tool: up to {limit:g}°.")
    from game.phases.movement import make_move

    ship = ctx.state.ship(choice.ship)
    make_move(ctx, ship.id, [geo.pivot_motion(c.hull(ship), cmd.answer, cmd.degrees)], "free_turn", 1)

