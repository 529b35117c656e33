"""Helpers every phase uses: finding things, whose ship it is, the table as shapes, Skill Tests."""

from __future__ import annotations

from collections.abc import Iterable

from shapely.geometry import Polygon

from game import events as ev
from game.context import Decision, Suspend
from game.errors import IllegalAction, NotYourShip, NotYourTurn, UnknownName, WrongPhase
from game.geometry import Hull, Obstacles, Pose
from game.model import MAX_TRACK, Game, PendingRoll, Phase, Ship, Status, TerrainKind


def hull(ship: Ship) -> Hull:
    return Hull(Pose(ship.x, ship.y, ship.heading), ship.beam, ship.length)


def terrain_polygons(state: Game, kinds: Iterable[TerrainKind]) -> dict[str, Polygon]:
    wanted = set(kinds)
    return {t.id: Polygon(t.points) for t in state.table.terrain if t.kind in wanted}


def land(state: Game) -> dict[str, Polygon]:
    return terrain_polygons(state, [k for k in TerrainKind if k.is_obstacle])


def sight_blockers(state: Game) -> list[Polygon]:
    return list(terrain_polygons(state, [k for k in TerrainKind if k.blocks_sight]).values())


def obstacles(state: Game, exclude: Iterable[str] = ()) -> Obstacles:
    """Everything a moving base may not pass through: other ships on the table and land."""
    skip = set(exclude)
    shapes: dict[str, Polygon] = {s.id: hull(s).polygon for s in state.ships if s.on_table and s.id not in skip}
    shapes.update({TERRAIN_PREFIX + k: v for k, v in land(state).items() if k not in skip})
    return Obstacles(shapes)


TERRAIN_PREFIX = "terrain:"


def get_ship(state: Game, ship_id: str) -> Ship:
    try:
        return state.ship(ship_id)
    except KeyError:
        known = ", ".join(s.id for s in state.ships)
        raise UnknownName(f"There is no ship called {ship_id!r} in this game.", f"Ships: {known}.") from None


def require_phase(state: Game, *phases: Phase) -> None:
    if state.phase not in phases:
        wanted = " or ".join(p.value.title() for p in phases)
        now = state.phase.value.title()
        if state.phase is Phase.OVER:
            now = "over"
        raise WrongPhase(
            f"That can only be done in the {wanted} Phase; the game is now in the {now} Phase.",
            _what_now(state),
        )


def _what_now(state: Game) -> str:
    if state.pending is not None:
        return f"First settle {state.pending.ship}'s roll: reroll, fortune or keep."
    if state.phase in (Phase.SETUP, Phase.INITIATIVE):
        waiting = [q.player for q in state.squadrons if not q.picked]
        return f"Waiting for initiative picks from: {', '.join(waiting)}." if waiting else ""
    if state.active_player:
        return f"It is player {state.active_player}'s turn to activate a ship."
    return ""


def acting_player(cmd_player: str, ship: Ship) -> str:
    if cmd_player and cmd_player != ship.controller:
        raise NotYourShip(
            f"{ship.id} is not yours to command: it belongs to player {ship.controller}.",
            "Give orders only to your own ships.",
        )
    return ship.controller


def require_turn(state: Game, player: str) -> None:
    if state.active_player != player:
        raise NotYourTurn(
            f"It is not player {player}'s turn: player {state.active_player} activates next.",
            "Wait for your opponent to finish their activation.",
        )


def no_pending(state: Game) -> None:
    if state.pending is not None:
        p = state.pending
        from game.errors import RollPending

        raise RollPending(
            f"{p.ship}'s {p.purpose.replace('_', ' ')} roll waits for player {p.player} to choose.",
            "Answer with: reroll N… (Skill), fortune (re-roll all) or keep.",
        )


# ---------------------------------------------------------------- tracks


def take_fatigue(ctx: Decision, ship_id: str, amount: int) -> None:
    s = ctx.state.ship(ship_id)
    total = max(0, min(MAX_TRACK, s.fatigue + amount))
    if total != s.fatigue:
        ctx.emit(ev.TrackChanged(ship_id, "fatigue", amount, total))
    _check_out_of_action(ctx, ship_id)
    if ctx.state.ship(ship_id).shaken and ctx.state.ship(ship_id).landing_parties:
        ctx.emit(ev.LandingPartyChanged(ship_id, ()))


def take_damage(ctx: Decision, ship_id: str, amount: int) -> None:
    """Damage up the track; at 7 the ship is Crippled and further damage becomes Fatigue."""
    for _ in range(amount):
        s = ctx.state.ship(ship_id)
        if s.crippled:
            take_fatigue(ctx, ship_id, 1)
            continue
        total = min(MAX_TRACK, s.damage + 1)
        ctx.emit(ev.TrackChanged(ship_id, "damage", 1, total))
        if total >= MAX_TRACK:
            ctx.emit(ev.StatusGained(ship_id, Status.CRIPPLED))
    _check_out_of_action(ctx, ship_id)


def _check_out_of_action(ctx: Decision, ship_id: str) -> None:
    s = ctx.state.ship(ship_id)
    if s.crippled and s.shaken and not s.out_of_action:
        ctx.emit(ev.StatusGained(ship_id, Status.OUT_OF_ACTION))


# ---------------------------------------------------------------- Skill Tests


def skill_dice(ship: Ship) -> int:
    return max(1, 5 - ship.fatigue)


def can_reroll(state: Game, p: PendingRoll) -> bool:
    ship = state.ship(p.ship)
    skill_left = ship.skill - len(p.skill_rerolled) > 0 and len(p.skill_rerolled) < len(p.faces)
    fortune_left = not p.fortune_used and state.squadron(p.player).fortune > 0
    return skill_left or fortune_left


def skill_test(ctx: Decision, ship_id: str, purpose: str) -> bool:
    """Roll a Skill Test. A failed test that could be re-rolled stops the decision and asks the
    roller; when play resumes, the settled result comes back through ctx.preresolved."""
    if ctx.preresolved is not None:
        result, ctx.preresolved = ctx.preresolved, None
        return result
    ship = ctx.state.ship(ship_id)
    faces = ctx.roll(skill_dice(ship), purpose, "skill_test", ship.controller, ship_id)
    passed = ctx.successes("skill_test", faces) > 0
    if not passed:
        pending = PendingRoll(ship.controller, ship_id, purpose, "skill_test", faces, remaining=ctx.remaining)
        if can_reroll(ctx.state, pending):
            ctx.emit(ev.RollAwaitsChoice(pending))
            raise Suspend
    return passed


def ensure_able(ship: Ship, doing: str) -> None:
    if not ship.on_table:
        raise IllegalAction(f"{ship.id} is no longer on the table.", "Choose a ship still in play.")
    if ship.out_of_action:
        raise IllegalAction(f"{ship.id} is Out of Action and cannot {doing}.", "Choose another ship.")
    if Status.CAPTURED in ship.statuses:
        raise IllegalAction(f"{ship.id} has been Captured and cannot {doing}.", "Choose another ship.")
