"""Movement Phase: one activation is speed, an optional Seamanship Action, the move, an optional
Crew Action, then the wake marker. Each step is its own command; `Activate` runs them in order."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from game import effects
from game import events as ev
from game import geometry as geo
from game.commands import Advance, Attack, Crew, EndActivation, Seamanship, Shot, Turn
from game.context import Decision
from game.errors import IllegalAction
from game.model import Activation, Game, Offer, Phase, PointOfSail, Sail, Ship, ShipSide, Status, TerrainKind
from game.phases import attack
from game.phases import common as c
from game.phases.attack import broadside_legal, partial_legal, resolve_attack
from game.phases.motion import drop_landing_parties, make_move, pose_tuple, with_edges
from game.rules_data import RulesData

SEAMANSHIP_LABEL = {"heading": "Change Heading", "adjust": "Adjust Speed", "cutfree": "Cut Free"}


# ---------------------------------------------------------------- start of an activation


def begin(ctx: Decision, ship_id: str, player: str, pos_choice: str = "") -> Activation:
    """The activation of this ship, starting it if it has not started."""
    state = ctx.state
    c.nothing_waiting(state)
    c.require_phase(state, Phase.MOVEMENT)
    ship = c.get_ship(state, ship_id)
    who = c.acting_player(player, ship)
    act = state.activation
    if act is not None:
        if act.ship != ship_id:
            raise IllegalAction(
                f"{act.ship}'s activation is still under way.",
                f"Finish it first (move, crew action or done {act.ship}).",
            )
        return act
    c.require_turn(state, who)
    c.ensure_able(ship, "activate")
    if ship_id in state.activated:
        raise IllegalAction(f"{ship_id} has already moved this turn.", _unmoved_hint(ctx, who))
    pos = _point_of_sail(ctx, ship, pos_choice)
    act = Activation(ship_id, who, pos, activation_speed(state, ship, pos, ctx.rules),
                     start=(ship.x, ship.y, ship.heading))
    rating, limited_by = rated_speed(ship, act)
    ctx.emit(ev.ActivationBegan(act, speed_rating=rating, speed_limited_by=limited_by))
    assert ctx.state.activation is not None
    return ctx.state.activation


def activation_speed(state: Game, ship: Ship, pos: PointOfSail, rules: RulesData) -> int:
    """The printed speed for the point of sail, with the Sail Setting and cards: what an activation
    starts from, before Adjust Speed and the caps of `rated_speed`."""
    if pos is PointOfSail.WINDS_EYE:
        return 0
    printed = ship.large if pos is PointOfSail.LARGE else ship.windward
    base = printed + ship.sail.speed_modifier
    speed = base + effects.speed_bonus(state, ship, pos, rules)
    floor = effects.speed_floor(state, ship, rules)
    if floor is not None and not ship.anchored:
        speed = max(speed, min(floor, base))  # a card's penalty stops at its minimum
    return speed


def _unmoved_hint(ctx: Decision, player: str) -> str:
    left = [s.id for s in ctx.state.ships_of(player) if s.can_act and s.id not in ctx.state.activated]
    return f"Ships still to move: {', '.join(left)}." if left else ""


def _point_of_sail(ctx: Decision, ship: Ship, choice: str) -> PointOfSail:
    t = ctx.state.table
    pos = geo.point_of_sail(c.hull(ship), t.weather_edge, t.width, t.height)
    if pos is not None:
        return pos
    # exactly between Large and Windward: the player's choice, else the faster one
    if choice in (PointOfSail.LARGE.value, PointOfSail.WINDWARD.value):
        return PointOfSail(choice)
    return PointOfSail.LARGE if ship.large >= ship.windward else PointOfSail.WINDWARD


def speed_rating(ship: Ship, act: Activation) -> int:
    return rated_speed(ship, act)[0]


def rated_speed(ship: Ship, act: Activation) -> tuple[int, str]:
    """The speed rating the ship has now, and what holds it down (Aground, Anchored, Crippled,
    Cut Free) if anything does. An Aground or Anchored ship cannot move: its speed rating is 0."""
    if ship.aground:
        return 0, "Aground"
    if ship.anchored:
        return 0, "Anchored"
    speed, why = act.speed + act.speed_adjust, ""
    if ship.crippled and speed > 2:
        speed, why = 2, "Crippled"
    if act.speed_limit is not None and speed > act.speed_limit:
        speed, why = act.speed_limit, "Cut Free"
    return speed, why


def why_no_forward_move(ship: Ship, act: Activation) -> str | None:
    if ship.entangled:
        return f"{ship.id} is Entangled and cannot move until it Cuts Free"
    if ship.aground:
        return f"{ship.id} is Aground and cannot move until the Aground token is removed"
    if ship.anchored:
        return f"{ship.id} is Anchored and cannot move until it changes its Sail Setting"
    if act.point_of_sail is PointOfSail.WINDS_EYE:
        return f"{ship.id} is In the Wind's Eye, so it may only turn up to 30° with the speed-1 tool"
    if speed_rating(ship, act) <= 0:
        return f"{ship.id}'s speed rating is {speed_rating(ship, act)}, so it cannot move"
    return None


def refuse_idle_move(ctx: Decision, ship_id: str, player: str, pos_choice: str) -> None:
    """A bare `move SHIP` for a ship that cannot move would spend its activation on nothing: say what
    it would do and ask for it outright (`hold`), or for what the ship can still do."""
    state = ctx.state
    if state.activation is not None and state.activation.ship == ship_id and state.activation.step != "seamanship":
        return  # the order goes on with an activation already under way
    act = begin(ctx, ship_id, player, pos_choice)
    ship = ctx.state.ship(ship_id)
    blocked = why_no_forward_move(ship, act)
    if blocked is None:
        return
    name = f'"{ship_id}"' if " " in ship_id else ship_id
    if act.point_of_sail is PointOfSail.WINDS_EYE and not (ship.entangled or ship.aground or ship.anchored):
        instead = f"Turn up to 30° in place (`move {name} hold turn start port 30`)"
    elif ship.entangled:
        instead = f"Try to Cut Free (`move {name} cutfree`)"
    elif ship.anchored:
        instead = f"Raise sail as a Crew Action (`move {name} hold crew sail up`)"
    elif ship.aground:
        instead = f"Try to refloat as a Crew Action (`move {name} hold crew repair aground`)"
    else:
        instead = f"Take a Crew Action (`move {name} hold crew …`)"
    raise IllegalAction(f"{blocked}: a plain move would spend its activation without moving.",
                        f"{instead}, or say `move {name} hold` to spend it on nothing.")


# ---------------------------------------------------------------- Seamanship Action


def seamanship(ctx: Decision, cmd: Seamanship) -> None:
    act = begin(ctx, cmd.ship, cmd.player, cmd.point_of_sail)
    if act.step != "seamanship":
        raise IllegalAction(
            f"{cmd.ship} can no longer take a Seamanship Action: they come before the move.",
            "Continue with the move or a Crew Action.",
        )
    ship = ctx.state.ship(cmd.ship)
    label = SEAMANSHIP_LABEL.get(cmd.action)
    if label is None:
        raise IllegalAction(f"Unknown Seamanship Action {cmd.action!r}.", "Choose heading, adjust or cutfree.")
    if ship.shaken:
        raise IllegalAction(f"{ship.id} is Shaken and may not take Seamanship Actions.", "Move without one.")
    tool1 = ctx.rules.tool(1)
    cut_to: geo.Pose | None = None
    if cmd.action == "heading":
        _forbid(ship, act, label, winds_eye=True, entangled=True, aground=True)
        _check_turn_angle(cmd.side, cmd.degrees, tool1.max_turn, "the speed-1 tool")
    elif cmd.action == "adjust":
        _forbid(ship, act, label, winds_eye=True, entangled=True, aground=True, anchored=True)
        if cmd.delta not in (1, -1):
            raise IllegalAction("Adjust Speed changes the speed rating by exactly 1.", "Use adjust +1 or adjust -1.")
    else:
        if not ship.entangled:
            raise IllegalAction(f"{ship.id} is not Entangled, so there is nothing to cut free from.")
        cut_to = _cut_free_pose(ctx, ship)
        if cut_to is None:
            raise IllegalAction(
                f"{ship.id} has no room to move Yard Arm directly away, so it cannot Cut Free.",
                "It stays Entangled; choose another action.",
            )
    passed = c.skill_test(ctx, ship.id, "seamanship")
    ctx.emit(ev.SeamanshipDone(ship.id, cmd.action, passed))
    adjust, limit, cut = act.speed_adjust, act.speed_limit, act.cut_free
    if passed:
        if cmd.action == "heading":
            motion = geo.pivot_motion(c.hull(ship), cmd.side, cmd.degrees)
            make_move(ctx, ship.id, [motion], "change_heading", max(1, speed_rating(ship, act)))
        elif cmd.action == "adjust":
            adjust = cmd.delta
        elif cut_to is not None:
            ctx.emit(ev.ShipMoved(ship.id, (pose_tuple(c.hull(ship).pose), pose_tuple(cut_to)), "cut_free"))
            for other in sorted(ship.entangled_with):
                ctx.emit(ev.EntanglementChanged(ship.id, other, False))
            drop_landing_parties(ctx, ship.id)
            limit, cut = 1, True
    if ctx.state.ship(ship.id).on_table:
        ctx.emit(ev.ActivationStep(ship.id, "move", adjust, cut, limit))
    else:
        _end(ctx, ship.id, act.player)


def _forbid(
    ship: Ship,
    act: Activation,
    label: str,
    winds_eye: bool = False,
    entangled: bool = False,
    aground: bool = False,
    anchored: bool = False,
) -> None:
    if winds_eye and act.point_of_sail is PointOfSail.WINDS_EYE:
        raise IllegalAction(f"{ship.id} is In the Wind's Eye and may not {label}.", "It may only turn with the speed-1 tool.")
    if entangled and ship.entangled:
        raise IllegalAction(f"{ship.id} is Entangled and may not {label}.", "The only Seamanship Action allowed is Cut Free.")
    if aground and ship.aground:
        raise IllegalAction(f"{ship.id} is Aground and may not {label}.", "A Repair Crew Action may refloat it.")
    if anchored and ship.anchored:
        raise IllegalAction(f"{ship.id} is Anchored and may not {label}.", "Change Heading is allowed at anchor.")


def _check_turn_angle(side: str, degrees: float, max_turn: float, tool: str) -> None:
    if side not in ("port", "starboard"):
        raise IllegalAction(f"A turn goes to port or starboard, not {side!r}.")
    if not 0 < degrees <= max_turn + 1e-9:
        raise IllegalAction(
            f"A turn of {degrees:g}° is not possible with {tool}.", f"Turn between 1° and {max_turn:g}°."
        )


def _cut_free_pose(ctx: Decision, ship: Ship) -> geo.Pose | None:
    state = ctx.state
    others = unary_union([c.hull(state.ship(o)).polygon for o in sorted(ship.entangled_with)])
    obstacles = with_edges(ctx, c.obstacles(state, exclude=[ship.id]))
    return geo.directly_away(c.hull(ship), others, ctx.rules.range_of("yard_arm"), obstacles, require_full=True)


# ---------------------------------------------------------------- the move


def advance(ctx: Decision, cmd: Advance) -> None:
    act = begin(ctx, cmd.ship, cmd.player, cmd.point_of_sail)
    if act.step not in ("seamanship", "move"):
        raise IllegalAction(f"{cmd.ship} has already moved this activation.", "Take a Crew Action or finish (done).")
    ship = ctx.state.ship(cmd.ship)
    blocked = why_no_forward_move(ship, act)
    direction = cmd.direction or ("hold" if blocked else "ahead")
    speed = speed_rating(ship, act)
    motions: list[geo.Motion] = []
    h0 = c.hull(ship)
    if direction == "ahead":
        if blocked:
            raise IllegalAction(f"{blocked}.", _hold_hint(ship, act))
        tool = ctx.rules.tool(speed)
        motions = _tool_motions(h0, tool.length, cmd.turn, tool.max_turn, f"the speed-{tool.speed} tool")
        reason = "move"
    elif direction == "hold":
        if cmd.turn is not None:
            if act.point_of_sail is not PointOfSail.WINDS_EYE:
                raise IllegalAction(
                    f"{ship.id} may only turn as part of its move.", "Give the turn with the move (ahead)."
                )
            if ship.entangled or ship.aground or ship.anchored:
                raise IllegalAction(f"{blocked}.")
            _check_turn_angle(cmd.turn.side, cmd.turn.degrees, ctx.rules.tool(1).max_turn, "the speed-1 tool")
            motions = [geo.pivot_motion(h0, cmd.turn.side, cmd.turn.degrees)]
            speed = 1
        elif not blocked and not act.cut_free:
            raise IllegalAction(
                f"{ship.id} must move its full speed ({speed}) straight ahead: a ship always moves forward.",
                "Move ahead, with a turn at the start or the end if you wish.",
            )
        reason = "turn"
    elif direction in ("back", "port", "starboard"):
        if not act.cut_free:
            raise IllegalAction(
                f"{ship.id} may only move {direction} in the speed-1 move after a Cut Free.", "Move ahead."
            )
        if cmd.turn is not None:
            raise IllegalAction("The sideways or backward move after a Cut Free has no turn.")
        if blocked:  # a Cut Free frees the ship from the other, not from its anchor or the ground
            raise IllegalAction(f"{blocked}.", "A ship that Cut Free may skip its move: finish (done).")
        way = {"back": "stern", "port": "port", "starboard": "starboard"}[direction]
        motions = [geo.advance_motion(h0, ctx.rules.tool(1).length, way)]
        reason = "cut_free_move"
    else:
        raise IllegalAction(f"Unknown direction {direction!r}.", "Use ahead, back, port, starboard or hold.")
    if cmd.shift is not None:
        motions = _with_shift(ctx, ship, cmd, motions, h0, blocked)
        reason = reason if reason != "turn" or cmd.turn else "shift"
    if motions:
        make_move(ctx, ship.id, motions, reason, speed)
    if not ctx.state.ship(ship.id).on_table:
        _end(ctx, ship.id, act.player)
        return
    tired = effects.fatigue_after_move(ctx.state, ctx.state.ship(ship.id), ctx.rules)
    if tired:
        c.take_fatigue(ctx, ship.id, tired)
    ctx.emit(ev.ActivationStep(ship.id, "crew", act.speed_adjust, act.cut_free, act.speed_limit))


def _with_shift(
    ctx: Decision, ship: Ship, cmd: Advance, motions: list[geo.Motion], h0: geo.Hull, blocked: str | None
) -> list[geo.Motion]:
    """Add a card's free sideways shift before or after the move."""
    shift = cmd.shift
    assert shift is not None
    effect = effects.free_move(ctx.state, ship, ctx.rules)
    if effect is None:
        raise IllegalAction(
            f"{ship.id} has no card that lets it shift sideways now.",
            "A sideways shift needs a card such as Adjust Position, and the ship not Entangled or Aground.",
        )
    limit = ctx.rules.tool(int(effect.get("tool", 1))).length
    if shift.side not in ("port", "starboard") or shift.when not in ("start", "end"):
        raise IllegalAction("A shift goes to port or starboard, at the start or the end of the move.")
    if not 0 < shift.distance <= limit + 1e-9:
        raise IllegalAction(f"A sideways shift is at most {limit:g} in.", f"Shift between 0 and {limit:g} in.")
    if shift.when == "start":
        first = geo.advance_motion(h0, shift.distance, shift.side)
        rest: list[geo.Motion] = []
        pose = geo.end_pose(h0.pose, first)
        for m in motions:  # the move starts from the shifted pose
            rest.append(_moved_motion(m, h0.pose, pose))
        return [first, *rest]
    end = h0.pose
    for m in motions:
        end = geo.end_pose(end, m)
    return [*motions, geo.advance_motion(h0.at(end), shift.distance, shift.side)]


def _moved_motion(m: geo.Motion, old: geo.Pose, new: geo.Pose) -> geo.Motion:
    if isinstance(m, geo.Pivot):
        return geo.Pivot(m.px + new.x - old.x, m.py + new.y - old.y, m.degrees)
    return m


def _hold_hint(ship: Ship, act: Activation) -> str:
    if act.point_of_sail is PointOfSail.WINDS_EYE and not (ship.entangled or ship.aground or ship.anchored):
        return "Hold, or turn up to 30° in place (turn start port 30)."
    return "Hold this activation (the move is skipped); a Crew Action is still allowed."


def _tool_motions(h0: geo.Hull, length: float, turn: Turn | None, max_turn: float, tool: str) -> list[geo.Motion]:
    if turn is None:
        return [geo.advance_motion(h0, length)]
    if turn.when not in ("start", "end"):
        raise IllegalAction(f"A turn is made at the start or the end of the move, not {turn.when!r}.")
    _check_turn_angle(turn.side, turn.degrees, max_turn, tool)
    if turn.when == "start":
        pivot = geo.pivot_motion(h0, turn.side, turn.degrees)
        return [pivot, geo.advance_motion(h0.at(geo.end_pose(h0.pose, pivot)), length)]
    straight = geo.advance_motion(h0, length)
    return [straight, geo.pivot_motion(h0.at(geo.end_pose(h0.pose, straight)), turn.side, turn.degrees)]


# ---------------------------------------------------------------- Crew Action


def crew(ctx: Decision, cmd: Crew) -> None:
    act = begin(ctx, cmd.ship, cmd.player, cmd.point_of_sail)
    if act.step != "crew":
        if act.step in ("seamanship", "move") and why_no_forward_move(ctx.state.ship(cmd.ship), act) is None:
            raise IllegalAction(f"{cmd.ship} has not moved yet.", "Move first; the Crew Action comes after the move.")
        advance(ctx, Advance(cmd.ship, "hold", player=cmd.player))
        act = ctx.state.activation or act
    ship = ctx.state.ship(cmd.ship)
    if act.cut_free:
        raise IllegalAction(f"{ship.id} Cut Free this activation and may not take a Crew Action.", "Finish (done).")
    if ship.entangled:
        raise IllegalAction(f"{ship.id} is Entangled and may not take Crew Actions.", "Finish (done).")
    if ship.shaken and cmd.action != "rally":
        raise IllegalAction(f"{ship.id} is Shaken: the only Crew Action it may take is Rally.", "Rally, or finish.")
    handler = _CREW.get(cmd.action)
    if handler is None:
        raise IllegalAction(f"Unknown Crew Action {cmd.action!r}.", f"Crew Actions: {', '.join(_CREW)}.")
    handler(ctx, ship, cmd)
    if ctx.state.activation is not None:
        _end(ctx, ship.id, act.player)


def _reload(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if ship.sail is Sail.FULL:
        raise IllegalAction(f"{ship.id} is at Full Sail and may not Reload.", "Change Sail Setting down first.")
    if cmd.side not in ("port", "starboard"):
        raise IllegalAction("Reload names a side.", "Use reload port or reload starboard.")
    side = ShipSide(cmd.side)
    if side not in ship.reload:
        loaded = ", ".join(s.value for s in sorted(ship.reload)) or "none"
        raise IllegalAction(f"{ship.id} has no reload marker on its {side.value} side.", f"Reload markers: {loaded}.")
    ctx.emit(ev.ReloadMarker(ship.id, side, False))
    if effects.first(ctx.state, ship, "reload_all", ctx.rules) is not None:
        for other in sorted(ship.reload - {side}):  # a card reloads every side in one action
            ctx.emit(ev.ReloadMarker(ship.id, other, False))


def _rally(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if ship.fatigue == 0:
        raise IllegalAction(f"{ship.id} has no Fatigue to Rally off.", "Choose another Crew Action.")
    c.take_fatigue(ctx, ship.id, -min(ship.fatigue, 1 + effects.extra(ctx.state, ship, "rally", ctx.rules)))
    if ctx.state.squadron(ship.controller).flagship == ship.id:
        _flagship_rallies(ctx, ship)


def _flagship_rallies(ctx: Decision, flagship: Ship) -> None:
    """A card may let friends near the Flagship take heart when it Rallies: each ship with Fatigue
    within range takes a Skill Test (rolled for it) and removes Fatigue if it passes."""
    for e in effects.card_effects(ctx.state, flagship.controller, ctx.rules):
        if e[1].get("kind") != "on_rally":
            continue
        effect = e[1]
        reach = ctx.rules.range_of(str(effect.get("range", "musket")))
        base = c.hull(flagship).polygon
        success = ctx.rules.die.success["skill_test"]
        for s in ctx.state.ships_of(flagship.controller):
            if s.id == flagship.id or not s.can_act or not s.fatigue:
                continue
            if geo.distance(base, c.hull(s).polygon) > reach + 1e-9:
                continue
            faces = ctx.roll(c.skill_dice(s), "card_test", "skill_test", s.controller, s.id, needed=1)
            if any(f in success for f in faces):
                c.take_fatigue(ctx, s.id, -int(effect.get("remove_fatigue", 1)))


def _repair(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if ship.crippled:
        raise IllegalAction(f"{ship.id} is Crippled and can no longer Repair damage.", "Rally, or finish.")
    if ship.damage == 0:
        raise IllegalAction(f"{ship.id} has no damage to Repair.", "Choose another Crew Action.")
    repaired = min(ship.damage, 1 + effects.extra(ctx.state, ship, "repair", ctx.rules))
    ctx.emit(ev.TrackChanged(ship.id, "damage", -repaired, ship.damage - repaired))


def _repair_aground(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if not ship.aground:
        raise IllegalAction(f"{ship.id} is not Aground.", "Choose another Crew Action.")
    if c.skill_test(ctx, ship.id, "repair_aground"):
        ctx.emit(ev.StatusLost(ship.id, Status.AGROUND))


def _sail(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if cmd.delta not in (1, -1):
        raise IllegalAction("Change Sail Setting moves one level.", "Use sail up or sail down.")
    new = ship.sail.step(cmd.delta)
    if new is None:
        raise IllegalAction(
            f"{ship.id} is already at {ship.sail.value} sail.",
            "Full Sail is the highest setting and Anchored the lowest.",
        )
    ctx.emit(ev.SailChanged(ship.id, new))


def _board(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    card = effects.forbidden(ctx.state, ship, "board", ctx.rules)
    if card:
        raise IllegalAction(f"{card}: no ship may take a Boarding action this turn.", "Take another Crew Action.")
    target = c.get_ship(ctx.state, cmd.target)
    if ctx.state.allied(target.controller, ship.controller):
        raise IllegalAction(f"{target.id} is a friendly ship.", "Board an opposing ship.")
    if not target.on_table:
        raise IllegalAction(f"{target.id} is no longer on the table.")
    if Status.CAPTURED in target.statuses and target.owner != ship.controller:
        # "A ship may be re-captured by having a ship from its original squadron become Entangled with
        # it": Boarding a prize is its own squadron's way to take it back, and nobody else's
        raise IllegalAction(f"{target.id} is Captured: only a ship of its own squadron ({target.owner}) may "
                            "board it, to re-capture it.", "Take another Crew Action.")
    gap = geo.distance(c.hull(ship).polygon, c.hull(target).polygon)
    yard_arm = ctx.rules.range_of("yard_arm")
    if gap > yard_arm + 1e-9:
        raise IllegalAction(
            f"{target.id} is {gap:.2f}\" away; Boarding needs it within Yard Arm ({yard_arm:g}\").",
            "Close the distance first.",
        )
    if cmd.edge and cmd.edge not in geo.EDGES:
        raise IllegalAction(f"Unknown edge {cmd.edge!r}.", "Use bow, stern, port or starboard.")
    obstacles = c.obstacles(ctx.state, exclude=[ship.id, target.id])
    placed = geo.boarding_placement(c.hull(ship), c.hull(target), obstacles, cmd.edge or None)
    if placed is None:
        raise IllegalAction(
            f"{ship.id} cannot lay its edge flush against {target.id}: there is no room.",
            "Boarding is not possible here; choose another Crew Action.",
        )
    if Status.CAPTURED not in target.statuses:  # no volley into one's own prize being taken back
        _fire_before_boarding(ctx, ship, target)
    ship, target = ctx.state.ship(ship.id), ctx.state.ship(target.id)
    if not target.on_table:
        return  # the volley finished it
    placed = geo.boarding_placement(c.hull(ship), c.hull(target), obstacles, cmd.edge or None) or placed
    auto = effects.first(ctx.state, ship, "auto_pass", ctx.rules)
    sure = auto is not None and auto.get("test") == "boarding" and target.sail.value in auto.get("target_sail", [])
    if sure or c.skill_test(ctx, ship.id, "boarding"):
        pose, _, _ = placed
        start = pose_tuple(c.hull(ship).pose)
        ctx.emit(ev.ShipMoved(ship.id, (start, pose_tuple(pose)), "boarding"))
        drop_landing_parties(ctx, ship.id)
        c.entangle(ctx, ship.id, target.id)


def _fire_before_boarding(ctx: Decision, ship: Ship, target: Ship) -> None:
    """A card may let the boarder fire first (Boarding Through the Smoke): a free Partial Fire at the
    target whenever it is a legal shot. It is rolled without re-rolls, so a re-roll prompt never
    stands between the volley and the boarding."""
    if not any(e.get("trigger") == "before_boarding" for _, e in effects.effects_for(ctx.state, ship, "free_attack",
                                                                                     ctx.rules)):
        return
    if not attack.partial_legal(ctx, ship, target.id):
        return
    remaining, ctx.no_reroll = ctx.remaining, True
    try:
        attack.resolve_attack(ctx, Attack(ship.id, "partial", (Shot("", target.id),), free=True,
                                          player=ship.controller), lambda a: a)
    finally:
        ctx.remaining, ctx.no_reroll = remaining, False


def _row(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if "Sweeps" not in ship.upgrades and "Sweeps" not in ship.traits:
        raise IllegalAction(f"{ship.id} has no Sweeps and cannot Row.", "Only ships with Sweeps may Row.")
    if ship.aground:
        raise IllegalAction(f"{ship.id} is Aground and cannot Row.")
    tool = ctx.rules.tool(1)
    make_move(ctx, ship.id, [geo.advance_motion(c.hull(ship), tool.length)], "row", 1)


def _flag(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    q = ctx.state.squadron(ship.controller)
    if q.flagship != ship.id:
        raise IllegalAction(f"{ship.id} is not the Flagship.", f"Only {q.flagship} can Transfer Flag.")
    target = c.get_ship(ctx.state, cmd.target)
    if target.controller != ship.controller or target.id == ship.id or not target.can_act:
        raise IllegalAction(f"{target.id} cannot take the Admiral.", "Choose another friendly ship in play.")
    if target.entangled:
        raise IllegalAction(f"{target.id} is Entangled and cannot receive the Admiral.")
    pistol = ctx.rules.range_of("pistol")
    gap = geo.distance(c.hull(ship).polygon, c.hull(target).polygon)
    if gap > pistol + 1e-9:
        raise IllegalAction(f"{target.id} is {gap:.2f}\" away; Transfer Flag needs it within Pistol Shot ({pistol:g}\").")
    ctx.emit(ev.FlagTransferred(ship.controller, ship.id, target.id))


def _landing(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if not ship.anchored:
        raise IllegalAction(f"{ship.id} must be Anchored to send a Landing Party ashore.", "Change Sail Setting first.")
    shores = c.terrain_polygons(ctx.state, [TerrainKind.ISLAND, TerrainKind.LANDMASS])
    base = c.hull(ship).polygon
    pistol, musket = ctx.rules.range_of("pistol"), ctx.rules.range_of("musket")
    near = [p for p in shores.values() if geo.distance(base, p) <= pistol + 1e-9]
    if not near:
        raise IllegalAction(f"{ship.id} is not within Pistol Shot of an island or landmass.")
    spot = Point(cmd.x, cmd.y)
    land_here: list[Polygon] = [p for p in near if p.buffer(1e-9).contains(spot)]
    if not land_here:
        raise IllegalAction(f"({cmd.x:g}, {cmd.y:g}) is not on an island or landmass near {ship.id}.")
    if geo.distance(base, spot) > musket + 1e-9:
        raise IllegalAction(f"The Landing Party must land within Musket Shot ({musket:g}\") of {ship.id}.")
    parties = tuple((p.x, p.y, p.on_ship) for p in ship.landing_parties) + ((cmd.x, cmd.y, ""),)
    ctx.emit(ev.LandingPartyChanged(ship.id, parties))


def _crew_attack(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    if effects.crew_action_allowed(ctx.state, ship, "attack", ctx.rules) is None:
        raise IllegalAction(
            f"{ship.id} may not attack as a Crew Action now.", "A card such as Rolling Broadsides allows it."
        )
    if cmd.attack is None or cmd.attack.ship != ship.id:
        raise IllegalAction("The Crew Action attack names the attack, e.g. `crew fire port Otter`.")
    effect = effects.crew_action_allowed(ctx.state, ship, "attack", ctx.rules)
    assert effect is not None
    kinds = effect.get("attacks")
    if kinds and cmd.attack.kind not in kinds:
        raise IllegalAction(f"This card allows only {' or '.join(kinds)} as a Crew Action.")
    ctx.extra_dice = int(effect.get("add", 0))
    resolve_attack(ctx, cmd.attack, lambda a: replace(cmd, attack=a), harmless=bool(effect.get("harmless")))
    ctx.extra_dice = 0


def _boat(ctx: Decision, ship: Ship, cmd: Crew) -> None:
    effect = effects.crew_action_allowed(ctx.state, ship, "boat_assault", ctx.rules)
    if effect is None:
        raise IllegalAction(f"{ship.id} may not send boats now.", "A card such as Boat Assault allows it.")
    act = ctx.state.activation
    assert act is not None
    top = int(effect.get("max_speed", 2))
    if speed_rating(ship, act) > top:
        raise IllegalAction(f"Only a ship moving at speed {top} or less may send a Boat Assault.")
    target = c.get_ship(ctx.state, cmd.target)
    reach = ctx.rules.range_of(str(effect.get("range", "pistol")))
    if ctx.state.allied(target.controller, ship.controller) or not target.on_table:
        raise IllegalAction(f"{target.id} is not an enemy ship on the table.")
    if geo.distance(c.hull(ship).polygon, c.hull(target).polygon) > reach + 1e-9:
        raise IllegalAction(f"{target.id} is beyond the boats' reach ({reach:g} in).")
    parties = tuple((p.x, p.y, p.on_ship) for p in ship.landing_parties) + ((target.x, target.y, target.id),)
    ctx.emit(ev.LandingPartyChanged(ship.id, parties))


_CREW = {
    "reload": _reload,
    "rally": _rally,
    "repair": _repair,
    "repair_aground": _repair_aground,
    "sail": _sail,
    "board": _board,
    "row": _row,
    "flag": _flag,
    "landing": _landing,
    "attack": _crew_attack,
    "boat": _boat,
}


# ---------------------------------------------------------------- end of the activation


def end_activation(ctx: Decision, cmd: EndActivation) -> None:
    act = begin(ctx, cmd.ship, cmd.player)
    if act.step in ("seamanship", "move"):
        blocked = why_no_forward_move(ctx.state.ship(cmd.ship), act)
        if blocked is None and not act.cut_free:
            raise IllegalAction(f"{cmd.ship} has not moved yet.", "A ship must make its move before it finishes.")
        advance(ctx, Advance(cmd.ship, "hold", player=cmd.player))
    if ctx.state.activation is not None:
        _end(ctx, cmd.ship, act.player)


def _end(ctx: Decision, ship_id: str, player: str) -> None:
    act = ctx.state.activation
    if ctx.state.ship(ship_id).on_table:
        ctx.emit(ev.WakeMarker(ship_id, True))
    ctx.emit(ev.ActivationEnded(ship_id, Phase.MOVEMENT))
    offer = _boarding_follow_up(ctx, ship_id, player) or _free_attack_offer(
        ctx, ship_id, act.start if act else None, player
    )
    if offer is not None:
        ctx.emit(ev.OfferMade(offer))
        return
    ctx.flow.next_activation(ctx, player)


def _boarding_follow_up(ctx: Decision, ship_id: str, player: str) -> Offer | None:
    """A card may follow a successful Boarding with a free Close Combat (Expert Boarding): offered to
    the boarder's player when the activation ends."""
    boarded = [e for e in ctx.events if isinstance(e, ev.ShipMoved) and e.ship == ship_id and e.reason == "boarding"]
    if not boarded:
        return None
    ship = ctx.state.ship(ship_id)
    targets = sorted(ship.entangled_with)
    for card, e in effects.card_effects(ctx.state, ship.controller, ctx.rules):
        if e.get("kind") == "free_attack" and e.get("trigger") == "after_boarding" and targets:
            return Offer(ship.controller, card, str(e.get("attack", "close")), targets[0], (ship_id,), False, player)
    return None


def _free_attack_offer(
    ctx: Decision, mover_id: str, start: tuple[float, float, float] | None, mover_player: str
) -> Offer | None:
    """A card of the other side that grants a free attack because of this ship's move."""
    state = ctx.state
    mover = state.ship(mover_id)
    if not mover.on_table or not mover.can_act:
        return None
    for player in state.players:
        if state.allied(player, mover.controller):
            continue
        for card, e in effects.card_effects(state, player, ctx.rules):
            if e.get("kind") != "free_attack":
                continue
            trigger, attack = e.get("trigger"), e.get("attack", "broadside")
            # the card's scope (a Formation: dear on a big table) is only asked of a ship the trigger
            # fits, and a ship beyond the trigger's reach is passed over without a shape: the same ships
            own = [s for s in state.ships_of(player) if s.can_act]
            ships: list[str] = []
            if trigger == "enemy_moved_into_arc" and start is not None:
                before = _with_pose(ctx, mover_id, start)
                cannon = ctx.rules.range_of("cannon")
                for s in own:
                    if c.surely_beyond(s, mover, cannon):  # no Broadside bears beyond Cannon Shot
                        continue
                    for side in ("port", "starboard"):
                        if broadside_legal(ctx, s, side, mover_id) and not broadside_legal(before, s, side, mover_id):
                            if effects.in_scope(state, s, e, ctx.rules):
                                ships.append(s.id)
                            break
            elif trigger == "enemy_ended_move_within":
                reach = ctx.rules.range_of(str(e.get("range", "pistol")))
                mh = c.hull(mover).polygon
                ships = [
                    s.id for s in own
                    if not c.surely_beyond(s, mover, reach) and geo.distance(c.hull(s).polygon, mh) <= reach + 1e-9
                    and partial_legal(ctx, s, mover_id) and effects.in_scope(state, s, e, ctx.rules)
                ]
            if ships:
                return Offer(player, card, attack, mover_id, tuple(ships), bool(e.get("harmless", False)), mover_player)
    return None


def _with_pose(ctx: Decision, ship_id: str, pose: tuple[float, float, float]) -> Decision:
    """A scratch decision over the state with one ship put back where it was."""
    moved = ctx.state.ship(ship_id)
    return ctx.over(ctx.state.with_ship(replace(moved, x=pose[0], y=pose[1], heading=pose[2])))

