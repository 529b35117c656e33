"""Step 3 of the Initiative Phase: effects that act 'immediately' on reveal, initiative player first.
Those that need the player's hand on the tiller (a free turn) wait as Choices."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game import effects
from game import events as ev
from game import geometry as geo
from game.commands import Decide
from game.context import Decision
from game.deployment import terrain_points
from game.errors import IllegalAction
from game.model import Choice, PointOfSail, Ship, ShipSide, Terrain, TerrainKind
from game.phases import common as c
from game.phases.motion import make_move


def resolve(ctx: Decision) -> tuple[Choice, ...]:
    state = ctx.state
    order = sorted(state.players, key=lambda p: p != state.initiative)
    choices: list[Choice] = []
    for player in order:
        for card, e in effects.on_reveal(ctx.state, player, ctx.rules):
            choices += _act(ctx, player, card, e)
    return tuple(choices)


def _act(ctx: Decision, player: str, card: str, e: Mapping[str, Any]) -> list[Choice]:
    """One on-reveal effect of a card, done at once; those that wait for the player come back as Choices."""
    action = e.get("action")
    if e.get("condition") == "strike_points_last_turn" and not dict(ctx.state.strike_points).get(player):
        return []
    ships = [s for s in ctx.state.ships_of(player) if s.can_act and effects.in_scope(ctx.state, s, e, ctx.rules)]
    choices: list[Choice] = []
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
    elif action == "free_move":
        _free_moves(ctx, ships, int(e.get("tool", 1)))
    elif action == "enemy_test":
        _enemy_tests(ctx, player, e)
    elif action == "place_terrain":
        choices.append(Choice(player, "place_terrain", card, (str(e.get("terrain", "shoal")),)))
    elif action == "borrow_effect":
        options = _borrowable(ctx, player, card, str(e.get("source", "hand")))
        if options:
            choices.append(Choice(player, "borrow", card, options))
    return choices


def _borrowable(ctx: Decision, player: str, card: str, source: str) -> tuple[str, ...]:
    """Cards whose effect this card may use: from the player's own hand, or from the discards of
    the other side."""
    state = ctx.state
    if source == "opponent_discards":
        names = [c for q in state.squadrons if not state.allied(q.player, player) for c in q.discards]
    else:
        names = list(state.squadron(player).hand)
    return tuple(n for n in dict.fromkeys(names) if n != card and n in ctx.rules.cards)


def borrow(ctx: Decision, choice: Choice, cmd: Decide) -> None:
    if cmd.target not in choice.options:
        raise IllegalAction(f"{choice.ship} cannot use {cmd.target!r}.", f"Choose one of: {', '.join(choice.options)}.")
    ctx.emit(ev.EffectBorrowed(choice.player, cmd.target))
    # "use that card's effect": an effect the lent card does on reveal is done now, as the card's own
    # would be (Take Courage, Reload!, Fleet Maneuver, Raise the Black); a card that itself borrows
    # lends nothing further
    waiting: list[Choice] = []
    for card, e in effects.on_reveal(ctx.state, choice.player, ctx.rules):
        if card == cmd.target and e.get("action") != "borrow_effect":
            waiting += _act(ctx, choice.player, card, e)
    if waiting:
        ctx.emit(ev.ChoicesSet((*ctx.state.choices, *waiting)))


def _free_moves(ctx: Decision, ships: list[Ship], tool: int) -> None:
    """A speed-1 move straight ahead, no turn, for ships not In the Wind's Eye, Entangled or Aground."""
    t = ctx.state.table
    length = ctx.rules.tool(tool).length
    for s in ships:
        s = ctx.state.ship(s.id)
        pos = geo.point_of_sail(c.hull(s), t.weather_edge, t.width, t.height)
        if s.entangled or s.aground or s.anchored or pos is PointOfSail.WINDS_EYE or not s.on_table:
            continue
        make_move(ctx, s.id, [geo.advance_motion(c.hull(s), length)], "free_move", tool)


def _enemy_tests(ctx: Decision, player: str, e: Mapping[str, Any]) -> None:
    """Enemy ships within range of the card owner's ships take a Skill Test with fewer dice; each
    one that fails takes Fatigue."""
    reach = ctx.rules.range_of(str(e.get("range", "musket")))
    mine = [c.hull(s).polygon for s in ctx.state.ships_of(player) if s.can_act]
    success = ctx.rules.die.success["skill_test"]
    for s in ctx.state.ships:
        if ctx.state.allied(s.controller, player) or not s.can_act:
            continue
        if not any(geo.distance(c.hull(s).polygon, m) <= reach + 1e-9 for m in mine):
            continue
        n = max(1, c.skill_dice(s) + int(e.get("dice", 0)))
        faces = ctx.roll(n, "card_test", "skill_test", s.controller, s.id, needed=1)
        if not any(f in success for f in faces):
            c.take_fatigue(ctx, s.id, int(e.get("fail_fatigue", 1)))


def free_turn(ctx: Decision, choice: Choice, cmd: Decide) -> None:
    if cmd.answer == "skip":
        return
    if cmd.answer not in ("port", "starboard"):
        raise IllegalAction("A free turn goes to port or starboard, or is skipped.", "freeturn SHIP port 20 / skip.")
    limit = ctx.rules.tool(1).max_turn
    if not 0 < cmd.degrees <= limit + 1e-9:
        raise IllegalAction(f"The free turn uses the speed-1 tool: up to {limit:g}°.")
    ship = ctx.state.ship(choice.ship)
    make_move(ctx, ship.id, [geo.pivot_motion(c.hull(ship), cmd.answer, cmd.degrees)], "free_turn", 1)



def lured_problem(ctx: Decision, choice: Choice, x: float, y: float, rotation: float) -> str | None:
    """Why a card's terrain piece may not go there: it must lie on the table within the card's range
    (Musket Shot) of one of the player's ships, not within `clear` (Yard Arm) of any ship, and not
    on other terrain."""
    from shapely.geometry import Polygon, box

    card = ctx.rules.cards[choice.ship]
    e = next(x for x in card.effects if x.get("action") == "place_terrain")
    shape = ctx.rules.terrain_shapes[choice.options[0]]
    piece = Polygon(terrain_points(shape, x, y, rotation))
    state = ctx.state
    if not box(0, 0, state.table.width, state.table.height).buffer(1e-6).contains(piece):
        return "the piece would not lie wholly on the table"
    reach = ctx.rules.range_of(str(e.get("range", "musket")))
    clear = ctx.rules.range_of(str(e.get("clear", "yard_arm")))
    mine = [c.hull(s).polygon for s in state.ships_of(choice.player) if s.on_table]
    if not any(geo.distance(piece, m) <= reach + 1e-9 for m in mine):
        return f"it must be within {reach:g}\" of one of your ships"
    for s in state.ships:
        if s.on_table and geo.distance(piece, c.hull(s).polygon) <= clear + 1e-9:
            return f"it would be within {clear:g}\" of {s.id}"
    for t in state.table.terrain:
        if piece.intersection(Polygon(t.points)).area > 1e-6:
            return f"it would overlap {t.id}"
    return None


def place_lured(ctx: Decision, choice: Choice, cmd: Decide) -> None:
    """A card's terrain piece placed on reveal (Lured into the Shoals), or skipped."""
    if cmd.answer == "skip":
        return
    problem = lured_problem(ctx, choice, cmd.x, cmd.y, cmd.degrees)
    if problem:
        raise IllegalAction(f"The {choice.options[0]} cannot go at ({cmd.x:g}, {cmd.y:g}): {problem}.",
                            "Give another spot (shoal X Y), or skip it (shoal skip).")
    kind = choice.options[0]
    n = 1 + sum(1 for t in ctx.state.table.terrain if t.kind.value == kind)
    points = terrain_points(ctx.rules.terrain_shapes[kind], cmd.x, cmd.y, cmd.degrees)
    ctx.emit(ev.TerrainPlaced(Terrain(f"{kind.replace('_', '-')}-{n}", TerrainKind(kind), points), False))
