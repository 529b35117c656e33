"""End Phase (the online rules' The End Phase): capture or destroy Shaken entangled ships; Strike Points and
withdrawal; sinking; lost admirals; cards return. Steps that need a player's decision wait for it
as Choices, then the phase carries on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game import effects
from game import events as ev
from game import geometry as geo
from game.commands import Decide
from game.context import Decision
from game.errors import IllegalAction
from game.model import Choice, Game, Phase, Ship, Status
from game.phases import common as c
from game.phases.motion import push_directly_away
from game.rules_data import RulesData


def run_end_phase(ctx: Decision) -> None:
    ctx.emit(ev.PhaseBegan(Phase.END, ctx.state.turn))
    ctx.emit(ev.ActivePlayer(None))
    _push_apart_shaken_pairs(ctx)
    choices = _capture_choices(ctx.state)
    if choices:
        ctx.emit(ev.ChoicesSet(choices))
        return
    after_captures(ctx)


# ---------------------------------------------------------------- step 1: capture or destroy


def _fighting(ship: Ship) -> bool:
    return ship.can_act and not ship.shaken


def _push_apart_shaken_pairs(ctx: Decision) -> None:
    for s in ctx.state.ships:
        s = ctx.state.ship(s.id)
        for other_id in sorted(s.entangled_with):
            other = ctx.state.ship(other_id)
            if s.id < other_id and not ctx.state.allied(s.controller, other.controller) and s.shaken and other.shaken:
                ctx.emit(ev.EntanglementChanged(s.id, other_id, False))
                push_directly_away(ctx, other_id, s.id, ctx.rules.range_of("yard_arm"))


def _capture_choices(state: Game) -> tuple[Choice, ...]:
    out = []
    for target in state.ships:
        if not target.on_table or not target.shaken or Status.CAPTURED in target.statuses:
            continue
        captors = sorted(
            o for o in target.entangled_with
            if not state.allied(state.ship(o).controller, target.controller) and _fighting(state.ship(o))
        )
        if captors:
            player = state.ship(captors[0]).controller
            out.append(Choice(player, "capture", target.id, tuple(captors)))
    return tuple(sorted(out, key=lambda ch: (ch.player != state.initiative, ch.ship)))


def capture(ctx: Decision, choice: Choice, cmd: Decide) -> None:
    if cmd.answer not in ("capture", "destroy", "spare"):
        raise IllegalAction(f"{cmd.ship} may be captured, destroyed or spared.", "Answer capture, destroy or spare.")
    target = ctx.state.ship(choice.ship)
    captor = choice.options[0]
    if cmd.answer == "spare":
        return
    if cmd.answer == "capture":
        ctx.emit(ev.StatusGained(target.id, Status.CAPTURED))
        ctx.emit(ev.ControlChanged(target.id, choice.player, "captured"))
        return
    if not target.out_of_action:
        c.knock_out(ctx, target.id)
    ctx.emit(ev.EntanglementChanged(captor, target.id, False))
    # the free Cut Free that follows a Destroy succeeds automatically if there is room
    if not push_directly_away(ctx, captor, target.id, ctx.rules.range_of("yard_arm"), full=True):
        ctx.emit(ev.StatusGained(target.id, Status.REMOVED))
        for other in sorted(ctx.state.ship(target.id).entangled_with):
            ctx.emit(ev.EntanglementChanged(target.id, other, False))


# ---------------------------------------------------------------- step 2: Strike Points


def strike_points(state: Game, player: str, rules: RulesData | None = None) -> int:
    points = _objective_points(state, player, rules) if rules is not None else 0
    points = max(points, -_losses(state, player))  # an objective may take away points, not below none
    return points + _losses(state, player)


def _losses(state: Game, player: str) -> int:
    points = 0
    flagship = state.squadron(player).flagship
    for s in state.ships:
        if s.owner != player:
            continue
        gone = s.out_of_action or not s.on_table or Status.CAPTURED in s.statuses
        if gone:
            points += 3 if s.id == flagship else 2
        elif s.crippled:
            points += 1
    return points


def _objective_points(state: Game, player: str, rules: RulesData) -> int:
    """Strike Points the scenario's objective card adds (effects of kind `strike_points`)."""
    card = rules.scenario_cards.get("objective", {}).get(state.objective or "")
    if card is None:
        return 0
    total = 0
    mine = [s for s in state.ships if s.controller == player and s.can_act]
    for e in card.effects:
        if e.get("kind") != "strike_points":
            continue
        cond, add = e.get("condition"), int(e.get("add", 0))
        if e.get("side") == "attacker" and (state.prep is None or state.prep.attacker != player):
            continue
        if cond in EDGE_CONDITIONS:
            total += _edge_objective(state, player, e, rules)
        elif cond == "no_ship_near_centre":
            from shapely.geometry import Point

            centre = Point(state.table.width / 2, state.table.height / 2)
            reach = rules.range_of(str(e.get("range", "musket")))
            if not any(c.hull(s).polygon.distance(centre) <= reach + 1e-9 for s in mine):
                total += add
        elif cond == "no_formation":
            if not effects.formation(state, player, rules):
                total += add
        elif cond == "per_captured_ship":
            total += add * sum(1 for s in state.ships if s.owner == player and Status.CAPTURED in s.statuses)
    return total


EDGE_CONDITIONS = ("flagship_exits", "anchored_near_land", "far_from_enemy_edge")


def _edge_distance(state: Game, ship: Ship, edge: str) -> float:
    t = state.table
    corners = c.hull(ship).corners
    return min({"S": y, "N": t.height - y, "W": x, "E": t.width - x}[edge] for x, y in corners)


def _edge_objective(state: Game, player: str, e: Mapping[str, Any], rules: RulesData) -> int:
    """Objectives that read the sides' deployment edges and roles: drafted games only."""
    prep = state.prep
    if prep is None or not prep.edges or not prep.attacker:
        return 0
    cond, add = e.get("condition"), int(e.get("add", 0))
    reach = rules.range_of(str(e.get("range", "cannon")))
    if cond == "flagship_exits":
        defender = state.defender or ""
        flag = state.flagship_of(defender) if defender in state.players else None
        if flag is None or Status.LEFT_TABLE not in flag.statuses:
            return 0
        nearest = min(("N", "E", "S", "W"), key=lambda edge: _edge_distance(state, flag, edge))
        return add if nearest == prep.edge_of(prep.attacker) else 0
    mine = [s for s in state.ships if s.controller == player and s.can_act]
    if cond == "anchored_near_land":
        land = c.land(state).values()
        near = [s for s in mine if s.anchored and any(c.hull(s).polygon.distance(p) <= reach + 1e-9 for p in land)]
        return add * len(near)
    enemy_edges = {prep.edge_of(p) for p in state.players if not state.allied(p, player)}
    if mine and all(_edge_distance(state, s, edge) > reach + 1e-9 for s in mine for edge in enemy_edges):
        return add
    return 0


def ship_total(state: Game, player: str) -> int:
    """Ships still counted: those it controls (captured prizes too), not Aground or Out of Action."""
    return sum(
        1 for s in state.ships
        if s.controller == player and s.on_table and not s.out_of_action and not s.aground
        and (Status.CAPTURED not in s.statuses or s.owner != player)
    )


def after_captures(ctx: Decision) -> None:
    state = ctx.state
    by_player = {p: strike_points(state, p, ctx.rules) for p in state.players}
    ships = {p: ship_total(state, p) for p in state.players}
    ctx.emit(ev.StrikePointsCounted(tuple(by_player.items()), tuple(ships.items())))
    # withdrawal is checked per side: in a fleet battle against the whole fleet's ship total
    points = {t: sum(by_player[p] for p in state.players_of(t)) for t in state.teams}
    totals = {t: sum(ships[p] for p in state.players_of(t)) for t in state.teams}
    over = [t for t in state.teams if points[t] > totals[t]]
    if len(over) == 1:
        side = over[0]
        winner = next(t for t in state.teams if t != side)
        n = totals[side]
        ctx.emit(ev.GameEnded(winner, f"player {side} withdraws ({points[side]} Strike Points, "
                                      f"{n} ship{'' if n == 1 else 's'} left)"))
        return
    if len(over) == 2 and points[over[0]] != points[over[1]]:
        winner = min(over, key=lambda t: points[t])
        ctx.emit(ev.GameEnded(winner, "both sides withdraw; fewer Strike Points wins"))
        return
    if state.turn >= state.last_turn:
        _last_turn_result(ctx, points)
        return
    _sinking(ctx)
    choices = _lost_admiral_choices(ctx.state)
    if choices:
        ctx.emit(ev.ChoicesSet(choices))
        return
    finish_turn(ctx)


def _last_turn_result(ctx: Decision, points: Mapping[str, int]) -> None:
    """The end of the last turn is judged in step 2 from the Strike Points counted there (the online
    rules' Check for Withdrawal): the game is over, so sinking and a new Flagship change nothing."""
    state = ctx.state
    low = min(points.values())
    leaders = [t for t in state.teams if points[t] == low]
    if len(leaders) == 1:
        ctx.emit(ev.GameEnded(leaders[0], f"end of turn {state.turn}: fewer Strike Points"))
    else:
        ctx.emit(ev.GameEnded(state.defender, f"end of turn {state.turn}: Strike Points tied, the defender holds"))


# ---------------------------------------------------------------- step 3: sinking


def _sinking(ctx: Decision) -> None:
    for s in ctx.state.ships:
        if not (s.out_of_action and s.on_table):
            continue
        faces = ctx.roll(1, "sinking", "sinking", s.controller, s.id)
        if ctx.successes("sinking", faces):
            ctx.emit(ev.StatusGained(s.id, Status.SUNK))
            for other in sorted(ctx.state.ship(s.id).entangled_with):
                ctx.emit(ev.EntanglementChanged(s.id, other, False))


# ---------------------------------------------------------------- step 4: lost admirals


def _flagship_lost(state: Game, player: str) -> bool:
    q = state.squadron(player)
    if q.admiral_lost:
        return True
    if not q.flagship:
        return False
    flag = state.ship(q.flagship)
    return flag.out_of_action or not flag.on_table or flag.controller != player


def _lost_admiral_choices(state: Game) -> tuple[Choice, ...]:
    out = []
    for q in state.squadrons:
        if not _flagship_lost(state, q.player):
            continue
        candidates = tuple(s.id for s in state.ships_of(q.player) if s.can_act and s.id != q.flagship)
        if candidates:
            out.append(Choice(q.player, "lost_admiral", q.flagship, candidates))
    return tuple(out)


def transfer_targets(ctx: Decision, player: str) -> list[str]:
    """Where a Fortune Point could move the Admiral: ships within Pistol Shot, not Entangled."""
    state = ctx.state
    q = state.squadron(player)
    if q.fortune <= 0 or q.admiral_lost or not q.flagship:
        return []
    flag = state.ship(q.flagship)
    if not flag.on_table:
        return []
    pistol = ctx.rules.range_of("pistol")
    fp = c.hull(flag).polygon
    return [
        s.id for s in state.ships_of(player)
        if s.id != flag.id and s.can_act and not s.entangled
        and geo.distance(fp, c.hull(s).polygon) <= pistol + 1e-9
    ]


def lost_admiral(ctx: Decision, choice: Choice, cmd: Decide) -> None:
    q = ctx.state.squadron(choice.player)
    if cmd.target not in choice.options:
        raise IllegalAction(f"{cmd.target!r} cannot become the Flagship.", f"Choose one of: {', '.join(choice.options)}.")
    if cmd.answer == "transfer":
        allowed = transfer_targets(ctx, choice.player)
        if cmd.target not in allowed:
            raise IllegalAction(
                "A free Transfer Flag needs a Fortune Point and a friendly ship within Pistol Shot, not Entangled.",
                f"Possible: {', '.join(allowed) or 'none'}; or assign a new Flagship (newflag).",
            )
        ctx.emit(ev.FortuneSpent(q.player, q.fortune - 1))
        ctx.emit(ev.AdmiralAssigned(q.player, cmd.target, q.admiral, q.admiral_value))
        return
    if cmd.answer != "assign":
        raise IllegalAction("Answer transfer (Fortune Point) or newflag.")
    limit = 5
    hand = list(q.hand)
    if len(hand) > limit:
        drop = list(cmd.cards)
        if len(drop) != len(hand) - limit or any(d not in hand for d in drop):
            raise IllegalAction(
                f"With an admiral value of 0 the hand is {limit} cards: remove {len(hand) - limit} of {', '.join(hand)}.",
                "Name them with `drop CARD, CARD`.",
            )
        for d in drop:
            hand.remove(d)
        ctx.emit(ev.HandTrimmed(q.player, tuple(hand)))
    ctx.emit(ev.AdmiralAssigned(q.player, cmd.target, "Untested", 0))


# ---------------------------------------------------------------- step 5: return cards


def finish_turn(ctx: Decision) -> None:
    return_cards(ctx)
    if ctx.state.event_face_up is not None:
        ctx.emit(ev.EventDiscarded(ctx.state.event_face_up))  # a 'turn' event runs its course
    for s in ctx.state.ships:
        if s.wake:
            ctx.emit(ev.WakeMarker(s.id, False))
        boats = [p for p in s.landing_parties if p.on_ship]
        if boats:
            keep = tuple((p.x, p.y, p.on_ship) for p in s.landing_parties if not p.on_ship)
            ctx.emit(ev.LandingPartyChanged(s.id, keep))
    ctx.flow.turn_over(ctx)  # the next turn's Initiative Phase: flow's to begin


def return_cards(ctx: Decision) -> None:
    for q in ctx.state.squadrons:
        if q.face_up is None:
            continue
        card = ctx.rules.cards.get(q.face_up)
        if card is not None and card.discard:
            ctx.emit(ev.CardsReturned(q.player, q.hand, q.discards + (q.face_up,)))
        else:
            ctx.emit(ev.CardsReturned(q.player, q.hand + (q.face_up,), q.discards))
