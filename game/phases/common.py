"""Helpers every phase uses: finding things, whose ship it is, the table as shapes, Skill Tests."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable

from shapely.geometry import Polygon

from game import effects
from game import events as ev
from game.context import Decision, Suspend
from game.errors import IllegalAction, NotYourShip, NotYourTurn, RollPending, UnknownName, WrongPhase
from game.geometry import Hull, Obstacles, Pose, terrain_polygon
from game.model import MAX_TRACK, Game, PendingRoll, Phase, Ship, Status, Terrain, TerrainKind

_HULLS: dict[int, tuple[Ship, Hull]] = {}


def hull(ship: Ship) -> Hull:
    """The ship's base where it stands. The same ship object gives the same hull object, so the
    geometry caches keyed by hulls find it at once."""
    got = _HULLS.get(id(ship))
    if got is not None and got[0] is ship:
        return got[1]
    if len(_HULLS) > 20000:
        _HULLS.clear()
    h = Hull(Pose(ship.x, ship.y, ship.heading), ship.beam, ship.length)
    _HULLS[id(ship)] = (ship, h)  # the entry holds the ship: its id cannot be reused meanwhile
    return h


def surely_beyond(a: Ship, b: Ship, reach: float) -> bool:
    """The two bases are more than `reach` apart, told from the circles around them (each base lies
    inside the circle of its half-diagonal about its centre) without any shape: a bound, so a pair
    it does not rule out is measured as before."""
    gap = math.hypot(a.x - b.x, a.y - b.y) - (math.hypot(a.beam, a.length) + math.hypot(b.beam, b.length)) / 2
    return gap > reach + 1e-6


def terrain_polygons(state: Game, kinds: Iterable[TerrainKind]) -> dict[str, Polygon]:
    wanted = set(kinds)
    return {t.id: terrain_polygon(t.points) for t in state.table.terrain if t.kind in wanted}


def land(state: Game) -> dict[str, Polygon]:
    return terrain_polygons(state, [k for k in TerrainKind if k.is_obstacle])


def sight_blockers(state: Game) -> list[Polygon]:
    return list(terrain_polygons(state, [k for k in TerrainKind if k.blocks_sight]).values())


_OBSTACLES: OrderedDict[int, tuple[tuple[Ship, ...], tuple[Terrain, ...], Obstacles]] = OrderedDict()
KEPT_MOMENTS = 32


def obstacles(state: Game, exclude: Iterable[str] = ()) -> Obstacles:
    """Everything a moving base may not pass through: other ships on the table and land (ids in
    `exclude` left out: ship ids, and terrain ids without their prefix)."""
    skip = set(exclude)
    every = _every_obstacle(state)
    if not skip:
        return every.without()
    return every.without(*skip, *(TERRAIN_PREFIX + k for k in skip))


def _every_obstacle(state: Game) -> Obstacles:
    """Every ship on the table and all land, built once per table moment: the ships tuple and the
    terrain are immutable and shared by the states of a decision and by the trials of the options
    and the computer captain (each trial leaves them alone until a ship changes)."""
    key = id(state.ships)
    got = _OBSTACLES.get(key)
    if got is not None and got[0] is state.ships and got[1] is state.table.terrain:
        _OBSTACLES.move_to_end(key)
        return got[2]
    shapes: dict[str, Polygon] = {s.id: hull(s).polygon for s in state.ships if s.on_table}
    shapes.update({TERRAIN_PREFIX + k: v for k, v in land(state).items()})
    found = Obstacles(shapes)
    _OBSTACLES[key] = (state.ships, state.table.terrain, found)  # the entry holds the tuple: its id stays its own
    while len(_OBSTACLES) > KEPT_MOMENTS:
        _OBSTACLES.popitem(last=False)
    return found


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


PICKING = (Phase.SETUP, Phase.INITIATIVE)  # the phases in which a face-down card is chosen


def owes_pick(state: Game, player: str) -> bool:
    """Whether the game waits for this squadron's face-down initiative card: the one rule, for the
    engine, the computer captain, the clock, the bot's nudges and buttons and the offline table. Only
    in the Set-up and Initiative Phases, until it has chosen; never for a squadron with no card in
    hand, nor for one wholly Captured or Out of Action, which "may not play an initiative card this
    round" (the rulebook's Fleet Battles). Either has its pick made for it (no card) as soon as another
    squadron picks (initiative.auto_pick_empty_hands). Works on a player's own view too (their hand
    is in it); a view that hides the hand cannot say."""
    if state.phase not in PICKING:
        return False
    q = state.squadron(player)
    return not q.picked and bool(q.hand) and any(s.can_act for s in state.ships_of(player))


def awaiting_pick(state: Game) -> list[str]:
    """The players whose face-down card the game waits for (owes_pick), in the order of the squadrons."""
    return [q.player for q in state.squadrons if owes_pick(state, q.player)]


def _what_now(state: Game) -> str:
    if state.pending is not None:
        return f"First settle {state.pending.ship}'s roll: reroll, fortune or keep."
    if state.phase in (Phase.SETUP, Phase.INITIATIVE):
        waiting = awaiting_pick(state)
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
    if state.active_player not in (player, state.team_of(player)):
        raise NotYourTurn(
            f"It is not player {player}'s turn: player {state.active_player} activates next.",
            "Wait for your opponent to finish their activation.",
        )


def nothing_waiting(state: Game) -> None:
    """No roll, free-attack offer or decision stands between the game and the next order."""
    no_pending(state)
    if state.offer is not None:
        o = state.offer
        raise IllegalAction(
            f"Player {o.player} may first take a free attack on {o.target} ({o.card}).",
            "They answer with `free fire …`, `free partial …` or `decline`.",
        )
    if state.choices:
        ch = state.choices[0]
        raise IllegalAction(
            f"Player {ch.player} must first decide about {ch.ship} ({ch.kind.replace('_', ' ')}).",
            choice_hint(ch.kind),
        )


def choice_hint(kind: str) -> str:
    return {
        "free_turn": "Answer `freeturn SHIP port|starboard DEG` or `freeturn SHIP skip`.",
        "capture": "Answer `capture SHIP`, `destroy SHIP` or `spare SHIP`.",
        "lost_admiral": "Answer `transfer FLAGSHIP SHIP` (Fortune Point) or `newflag FLAGSHIP SHIP`.",
        "borrow": "Answer `borrow CARD` with the card whose effect to use.",
        "place_terrain": "Answer `shoal X Y` (optionally `rot DEG`) or `shoal skip`.",
        "event_draw": "Answer `event keep` or `event discard` (the next event card is drawn instead).",
    }.get(kind, "")


def no_pending(state: Game) -> None:
    if state.pending is not None:
        p = state.pending
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
    check_out_of_action(ctx, ship_id)
    if ctx.state.ship(ship_id).shaken:
        drop_shore_parties(ctx, ship_id)


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
    check_out_of_action(ctx, ship_id)


def check_out_of_action(ctx: Decision, ship_id: str) -> None:
    s = ctx.state.ship(ship_id)
    if s.crippled and s.shaken and not s.out_of_action:
        ctx.emit(ev.StatusGained(ship_id, Status.OUT_OF_ACTION))


def knock_out(ctx: Decision, ship_id: str) -> None:
    """Out of Action: both the Shaken and the Crippled token."""
    s = ctx.state.ship(ship_id)
    if s.fatigue < MAX_TRACK:
        ctx.emit(ev.TrackChanged(ship_id, "fatigue", MAX_TRACK - s.fatigue, MAX_TRACK))
    if s.damage < MAX_TRACK:
        ctx.emit(ev.TrackChanged(ship_id, "damage", MAX_TRACK - s.damage, MAX_TRACK))
    if not s.crippled:
        ctx.emit(ev.StatusGained(ship_id, Status.CRIPPLED))
    check_out_of_action(ctx, ship_id)
    drop_shore_parties(ctx, ship_id)


def drop_shore_parties(ctx: Decision, ship_id: str) -> None:
    """Landing Party tokens ashore go when their ship moves or becomes Shaken."""
    s = ctx.state.ship(ship_id)
    keep = tuple(p for p in s.landing_parties if p.on_ship)
    if len(keep) != len(s.landing_parties):
        ctx.emit(ev.LandingPartyChanged(ship_id, tuple((p.x, p.y, p.on_ship) for p in keep)))


# ---------------------------------------------------------------- Skill Tests


def skill_dice(ship: Ship, fatigue: int | None = None) -> int:
    return max(1, 5 - (ship.fatigue if fatigue is None else fatigue))


def _free_reroll(ctx: Decision, ship_id: str, n: int, purpose: str, kind: str, success: frozenset[str],
                 faces: tuple[str, ...], needed: int, target: str) -> tuple[str, ...]:
    """A keyword may re-roll a failed roll of this kind for free, a number of times per turn
    (Persistent); the roll is simply made again and the use is recorded on the ship."""
    ship = ctx.state.ship(ship_id)
    for source, e in effects.effects_for(ctx.state, ship, "free_reroll", ctx.rules):
        if e.get("roll") != kind:
            continue
        tag = f"{source}@{ctx.state.turn}"
        if ship.used.count(tag) >= int(e.get("per_turn", 1)):
            continue
        ctx.emit(ev.EffectUsed(ship_id, tag))
        return ctx.roll(n, f"{purpose} ({source}: free re-roll)", kind, ship.controller, ship_id, success,
                        needed=needed, target=target)
    return faces


def can_reroll(state: Game, p: PendingRoll) -> bool:
    skill_left = p.skill - len(p.skill_rerolled) > 0 and len(p.skill_rerolled) < len(p.faces)
    fortune_left = not p.fortune_used and state.squadron(p.player).fortune > 0
    return skill_left or fortune_left


def rerollable_roll(
    ctx: Decision,
    ship_id: str,
    n: int,
    purpose: str,
    kind: str,
    success: frozenset[str],
    ask: Callable[[tuple[str, ...]], bool],
    needed: int = 0,
    target: str = "",
) -> tuple[str, ...]:
    """Roll dice the roller may re-roll with Skill or a Fortune Point. When `ask(faces)` says a
    re-roll could help and one is possible, the decision stops and asks the roller; when play
    resumes, the settled faces come back through ctx.preresolved. `needed` is what a test needs
    to pass (0 for an attack) and `target` the ship attacked, for the account."""
    if ctx.preresolved is not None:
        faces, ctx.preresolved = ctx.preresolved, None
        return faces
    ship = ctx.state.ship(ship_id)
    faces = ctx.roll(n, purpose, kind, ship.controller, ship_id, success, needed=needed, target=target)
    if ask(faces):
        faces = _free_reroll(ctx, ship_id, n, purpose, kind, success, faces, needed, target)
    pending = PendingRoll(
        ship.controller, ship_id, purpose, kind, faces, tuple(sorted(success)),
        remaining=ctx.remaining, skill=ship.skill, needed=needed, target=target,
    )
    if ask(faces) and not ctx.no_reroll and can_reroll(ctx.state, pending):
        ctx.emit(ev.RollAwaitsChoice(pending, ctx.state.squadron(ship.controller).fortune))
        raise Suspend
    return faces


def skill_test(ctx: Decision, ship_id: str, purpose: str, bonus: int = 0) -> bool:
    """Roll a Skill Test (5 dice less Fatigue, at least 1, then bonuses); any sail or sword passes."""
    success = ctx.rules.die.success["skill_test"]
    ship = ctx.state.ship(ship_id)
    n = skill_dice(ship, effects.fatigue_counted(ctx.state, ship, ctx.rules)) + bonus
    n = max(1, n + effects.test_dice(ctx.state, ship, purpose, ctx.rules))
    faces = rerollable_roll(
        ctx, ship_id, n, purpose, "skill_test", success, lambda fs: not any(f in success for f in fs), needed=1
    )
    return any(f in success for f in faces)


def ensure_able(ship: Ship, doing: str) -> None:
    if not ship.on_table:
        raise IllegalAction(f"{ship.id} is no longer on the table.", "Choose a ship still in play.")
    if ship.out_of_action:
        raise IllegalAction(f"{ship.id} is Out of Action and cannot {doing}.", "Choose another ship.")
    if Status.CAPTURED in ship.statuses:
        raise IllegalAction(f"{ship.id} has been Captured and cannot {doing}.", "Choose another ship.")


def entangle(ctx: Decision, a: str, b: str) -> None:
    """Entangle two ships; a Captured ship Entangled with a ship of its own squadron is re-captured
    (it stays Shaken)."""
    ctx.emit(ev.EntanglementChanged(a, b, True))
    for prize, rescuer in ((a, b), (b, a)):
        p, r = ctx.state.ship(prize), ctx.state.ship(rescuer)
        if Status.CAPTURED in p.statuses and r.controller == p.owner:
            ctx.emit(ev.StatusLost(prize, Status.CAPTURED))
            ctx.emit(ev.ControlChanged(prize, p.owner, "recaptured"))
