"""The chapter-7 set-up of a drafted game (docs/setup.md): squadrons enlist, the objective and three
cards of each kind are drawn, the attacker/defender choice (admiral value, then a Challenge Test),
alternate drafting from the attacker, the terrain pool and its alternate placement from the defender
(never within Musket Shot of other terrain), the adjustment of terrain in one's own zone, deployment
from the defender (inside the zone, never within Cannon Shot of an enemy), then the first pick."""

from __future__ import annotations

from shapely.geometry import Polygon, box

from game import events as ev
from game import geometry as geo
from game.commands import AddTerrain, ChooseRole, Deploy, Draft, Enlist, FinishStep, PlaceTerrain
from game.context import Decision
from game.deployment import DEFAULT_DEPTH, terrain_points, zone, zone_spacing
from game.dice import DiceSource, drawn
from game.errors import IllegalAction, NotYourShip, NotYourTurn, UnknownName, WrongPhase
from game.model import (
    DEFAULT_EDGES,
    Game,
    Phase,
    PoolPiece,
    Preparation,
    Ship,
    Squadron,
    Status,
    Table,
    Terrain,
    TerrainKind,
)
from game.phases.common import take_fatigue
from game.phases.initiative import challenge_test
from game.rules_data import RulesData
from game.setup import TABLES, build_squadron
from game.squadron import validate

DRAFT_DECKS = ("setting", "deployment", "advantage")
DRAWN_PER_DECK = 3
GRID_STEP = 1.0  # inches between the positions tried when asking whether a piece fits anywhere
ROTATIONS = (0.0, 90.0)


def drafted_game(size: str, seed: int = 0, players: tuple[str, str] = ("A", "B"), name: str = "") -> Game:
    """A game waiting for two squadron lists of the given size; the set-up runs from there."""
    width, height = TABLES[size]
    edges = tuple(zip(players, DEFAULT_EDGES, strict=True))
    return Game(
        system="oak_and_iron", edition="drafted", name=name or f"Drafted {size}",
        table=Table(width, height, "W"), squadrons=tuple(Squadron(player=p, name="") for p in players),
        ships=(), seed=seed, phase=Phase.PREPARATION, prep=Preparation(size=size, edges=edges),
    )


# ---------------------------------------------------------------- common checks


def _prep(state: Game, step: str, player: str) -> Preparation:
    prep = state.prep
    if state.phase is not Phase.PREPARATION or prep is None:
        raise WrongPhase("The set-up is over.", "Play goes on with the initiative cards and activations.")
    if player not in state.players:
        raise UnknownName(f"There is no player {player!r} in this game.", f"Players: {', '.join(state.players)}.")
    if prep.step != step:
        raise WrongPhase(f"The set-up is at the {STEP_NAMES[prep.step]} step, not {STEP_NAMES[step]}.",
                         what_now(state))
    if prep.to_act and prep.to_act != player:
        raise NotYourTurn(f"It is player {prep.to_act}'s turn in the {STEP_NAMES[step]} step.", what_now(state))
    return prep


STEP_NAMES = {
    "enlist": "squadron lists", "role": "attacker/defender choice", "draft": "drafting",
    "select": "terrain selection", "place": "terrain placement", "adjust": "terrain adjustment",
    "deploy": "deployment", "done": "finished",
}


def what_now(state: Game) -> str:
    """What the set-up waits for, in words (errors and status lines)."""
    prep = state.prep
    if prep is None or state.phase is not Phase.PREPARATION:
        return ""
    who = prep.to_act
    if prep.step == "enlist":
        waiting = [q.player for q in state.squadrons if not q.name]
        return f"Waiting for squadron lists from: {', '.join(waiting)} (/game join with a saved squadron)."
    if prep.step == "role":
        return (f"Objective: {state.objective or 'none'}; drawn to draft: {', '.join(prep.offered)}. "
                f"Player {who} chooses to be the attacker or the defender (role attacker|defender).")
    if prep.step == "draft":
        return f"Player {who} drafts one card: {', '.join(prep.offered)}."
    if prep.step == "select":
        return f"Player {who} adds a terrain piece to the pool (terrain KIND)."
    if prep.step == "place":
        return f"Player {who} places a piece from the pool: {', '.join(p.id for p in prep.pool)} (place PIECE X Y)."
    if prep.step == "adjust":
        return f"Player {who} may move a piece in their zone up to Musket Shot (place PIECE X Y) or finish."
    if prep.step == "deploy":
        left = [s.id for s in state.ships if s.owner == who and Status.UNDEPLOYED in s.statuses]
        return f"Player {who} deploys: {', '.join(left)} (deploy SHIP X Y heading H)."
    return ""


def _other(state: Game, player: str) -> str:
    return next(p for p in state.players if p != player)


def _defender(state: Game) -> str:
    assert state.defender is not None
    return state.defender


# ---------------------------------------------------------------- squadrons and roles


def enlist(ctx: Decision, cmd: Enlist) -> None:
    state = ctx.state
    prep = _prep(state, "enlist", cmd.player)
    sq = cmd.squadron
    if sq.size != prep.size:
        raise IllegalAction(f"This game is a {prep.size}; {sq.name!r} is a {sq.size} list.",
                            f"Bring a {prep.size} squadron.")
    problems = validate(sq, ctx.rules)
    if problems:
        raise IllegalAction("The squadron breaks the building rules: " + "; ".join(map(str, problems)) + ".",
                            "Fix each entry and field named.")
    taken = [s.id for s in state.ships if s.owner != cmd.player]
    squadron, ships = build_squadron(cmd.player, sq, ctx.rules, taken, deployed=False)
    ctx.emit(ev.SquadronEnlisted(squadron, ships))
    if all(q.name for q in ctx.state.squadrons):
        _draw(ctx)


def _draw(ctx: Decision) -> None:
    """The objective and three cards of each draft deck, and the event deck shuffled. Each card is
    drawn by the dice source, so a replay never draws again and a test can name the cards."""
    at = drawn(ctx.dice)
    objective, offered, event_deck = draw_setup_cards(ctx.dice, ctx.rules)
    ctx.emit(ev.SetupCardsDrawn(objective, offered, event_deck, at))
    state = ctx.state
    values = {p: state.squadron(p).admiral_value for p in state.players}
    best = max(values.values())
    leaders = [p for p in state.players if values[p] == best]
    chooser = leaders[0] if len(leaders) == 1 else challenge_test(ctx, leaders)
    ctx.emit(ev.SetupStep("role", chooser))


def draw_setup_cards(dice: DiceSource, rules: RulesData) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
    """The set-up's draws, in the order the dice are used (the verifier repeats exactly this)."""
    decks = rules.scenario_cards
    objectives = tuple(decks.get("objective", {}))
    objective = dice.roll(1, objectives)[0] if objectives else None
    offered: list[str] = []
    for deck in DRAFT_DECKS:
        offered += _draw_cards(dice, tuple(decks.get(deck, {})), DRAWN_PER_DECK)
    events = tuple(rules.events)
    return objective, tuple(offered), _draw_cards(dice, events, len(events))


def _draw_cards(dice: DiceSource, deck: tuple[str, ...], n: int) -> tuple[str, ...]:
    left, out = list(deck), list[str]()
    while left and len(out) < n:
        card = dice.roll(1, tuple(left))[0]
        left.remove(card)
        out.append(card)
    return tuple(out)


def choose_role(ctx: Decision, cmd: ChooseRole) -> None:
    _prep(ctx.state, "role", cmd.player)
    if cmd.role not in ("attacker", "defender"):
        raise IllegalAction(f"{cmd.role!r} is not a role.", "Choose attacker or defender.")
    other = _other(ctx.state, cmd.player)
    attacker, defender = (cmd.player, other) if cmd.role == "attacker" else (other, cmd.player)
    ctx.emit(ev.RoleChosen(attacker, defender))
    ctx.emit(ev.SetupStep("draft", attacker))


# ---------------------------------------------------------------- drafting


def _deck_of(rules: RulesData, card: str) -> str:
    return next(d for d in DRAFT_DECKS if card in rules.scenario_cards.get(d, {}))


def _needs(state: Game, player: str, rules: RulesData) -> set[str]:
    prep = state.prep
    assert prep is not None
    have = {d for p, d, _ in prep.drafted if p == player}
    return {_deck_of(rules, c) for c in prep.offered} - have


def draft(ctx: Decision, cmd: Draft) -> None:
    prep = _prep(ctx.state, "draft", cmd.player)
    if cmd.card not in prep.offered:
        raise IllegalAction(f"{cmd.card!r} is not among the cards on offer.", f"On offer: {', '.join(prep.offered)}.")
    deck = _deck_of(ctx.rules, cmd.card)
    if prep.drafted_card(cmd.player, deck):
        wanted = sorted(_needs(ctx.state, cmd.player, ctx.rules))
        raise IllegalAction(f"Player {cmd.player} already has a {deck} card.",
                            f"Take a card of another kind: {', '.join(wanted)}.")
    ctx.emit(ev.CardDrafted(cmd.player, deck, cmd.card))
    if deck == "advantage":
        bonus = sum(int(e.get("add", 0)) for e in ctx.rules.scenario_cards["advantage"][cmd.card].effects
                    if e.get("kind") == "fortune")
        if bonus:
            ctx.emit(ev.FortuneGained(cmd.player, ctx.state.squadron(cmd.player).fortune + bonus, cmd.card))
    other = _other(ctx.state, cmd.player)
    for nxt in (other, cmd.player):
        if _needs(ctx.state, nxt, ctx.rules):
            ctx.emit(ev.SetupStep("draft", nxt))
            return
    ctx.emit(ev.DraftDiscarded(ctx.state.prep.offered if ctx.state.prep else ()))
    _next_selector(ctx, _defender(ctx.state))


# ---------------------------------------------------------------- the terrain pool


def setting_of(state: Game, player: str, rules: RulesData) -> dict[str, object]:
    prep = state.prep
    card = prep.drafted_card(player, "setting") if prep else None
    found = rules.scenario_cards.get("setting", {}).get(card or "")
    return dict(found.details.get("terrain", {})) if found else {"count": 0, "kinds": []}


def allowed_kinds(state: Game, player: str, rules: RulesData) -> list[str]:
    """The kinds the player may still add: all of its setting's kinds, or only the required ones
    when its last piece must meet the setting's requirement."""
    spec = setting_of(state, player, rules)
    prep = state.prep
    assert prep is not None
    mine = [p.kind.value for p in prep.pool if p.owner == player]
    left = int(spec.get("count", 0)) - len(mine)  # type: ignore[call-overload]
    if left <= 0:
        return []
    kinds = [str(k) for k in spec.get("kinds", [])]  # type: ignore[attr-defined]
    require = [str(k) for k in spec.get("require", [])]  # type: ignore[attr-defined]
    if require and left == 1 and not set(mine) & set(require):
        return [k for k in kinds if k in require] or require
    return kinds


def add_terrain(ctx: Decision, cmd: AddTerrain) -> None:
    state = ctx.state
    prep = _prep(state, "select", cmd.player)
    kinds = allowed_kinds(state, cmd.player, ctx.rules)
    if cmd.kind not in kinds:
        raise IllegalAction(f"Player {cmd.player}'s setting does not allow a {cmd.kind.replace('_', ' ')} now.",
                            f"Allowed: {', '.join(kinds) or 'nothing more'}.")
    n = 1 + sum(1 for p in prep.pool if p.kind.value == cmd.kind)
    ctx.emit(ev.TerrainAdded(PoolPiece(f"{cmd.kind.replace('_', '-')}-{n}", TerrainKind(cmd.kind), cmd.player)))
    _next_selector(ctx, _other(ctx.state, cmd.player))


def _next_selector(ctx: Decision, first: str) -> None:
    for p in (first, _other(ctx.state, first)):
        if allowed_kinds(ctx.state, p, ctx.rules):
            ctx.emit(ev.SetupStep("select", p))
            return
    _next_placer(ctx, _defender(ctx.state))


# ---------------------------------------------------------------- placing and adjusting terrain


def _table_polygon(table: Table) -> Polygon:
    return Polygon([(0, 0), (table.width, 0), (table.width, table.height), (0, table.height)])


def placement_problem(state: Game, rules: RulesData, piece: str, kind: TerrainKind, x: float, y: float,
                      rotation: float, keep_apart: bool = True) -> str | None:
    """Why the piece may not go there, or None. Placed pieces keep Musket Shot from other terrain;
    adjusted ones only may not overlap it."""
    shape = rules.terrain_shapes[kind.value]
    poly = Polygon(terrain_points(shape, x, y, rotation))
    if not _table_polygon(state.table).buffer(1e-6).contains(poly):
        return "the piece would not lie wholly on the table"
    musket = rules.range_of("musket")
    for t in state.table.terrain:
        if t.id == piece:
            continue
        other = Polygon(t.points)
        if keep_apart and geo.distance(poly, other) < musket - 1e-9:
            return f"it would be closer than Musket Shot ({musket:g}\") to {t.id}"
        if not keep_apart and poly.intersection(other).area > 1e-6:
            return f"it would overlap {t.id}"
    return None


def first_spot(state: Game, rules: RulesData, piece: PoolPiece) -> tuple[float, float, float] | None:
    """The first legal (x, y, rotation) for the piece on a grid over the table, or None when it
    fits nowhere (then it is removed from the game)."""
    w, h = state.table.width, state.table.height
    steps_x, steps_y = int(w / GRID_STEP), int(h / GRID_STEP)
    for rot in ROTATIONS:
        for i in range(steps_x + 1):
            for j in range(steps_y + 1):
                if placement_problem(state, rules, piece.id, piece.kind, i * GRID_STEP, j * GRID_STEP, rot) is None:
                    return i * GRID_STEP, j * GRID_STEP, rot
    return None


def _next_placer(ctx: Decision, player: str) -> None:
    for p in list(ctx.state.prep.pool if ctx.state.prep else ()):
        if first_spot(ctx.state, ctx.rules, p) is None:
            ctx.emit(ev.TerrainRemoved(p.id, "no place on the table is Musket Shot from all other terrain"))
    if ctx.state.prep and ctx.state.prep.pool:
        ctx.emit(ev.SetupStep("place", player))
    else:
        _next_adjuster(ctx, _defender(ctx.state))


def place_terrain(ctx: Decision, cmd: PlaceTerrain) -> None:
    state = ctx.state
    prep = state.prep
    if prep is not None and prep.step == "adjust":
        return _adjust(ctx, cmd)
    prep = _prep(state, "place", cmd.player)
    piece = next((p for p in prep.pool if p.id == cmd.piece), None)
    if piece is None:
        raise UnknownName(f"There is no piece {cmd.piece!r} in the pool.",
                          f"In the pool: {', '.join(p.id for p in prep.pool)}.")
    problem = placement_problem(state, ctx.rules, piece.id, piece.kind, cmd.x, cmd.y, cmd.rotation)
    if problem:
        raise IllegalAction(f"{piece.id} cannot go at ({cmd.x:g}, {cmd.y:g}): {problem}.",
                            "Terrain goes anywhere on the table at least Musket Shot from other terrain.")
    shape = ctx.rules.terrain_shapes[piece.kind.value]
    ctx.emit(ev.TerrainPlaced(Terrain(piece.id, piece.kind, terrain_points(shape, cmd.x, cmd.y, cmd.rotation)), False))
    _next_placer(ctx, _other(ctx.state, cmd.player))


def adjustable(state: Game, player: str, rules: RulesData) -> list[str]:
    """Terrain wholly inside the player's deployment zone that has not been adjusted yet."""
    prep = state.prep
    assert prep is not None
    area = zone(state, player, rules).buffer(1e-6)
    return [t.id for t in state.table.terrain if t.id not in prep.adjusted and area.contains(Polygon(t.points))]


def _adjust(ctx: Decision, cmd: PlaceTerrain) -> None:
    state = ctx.state
    _prep(state, "adjust", cmd.player)
    options = adjustable(state, cmd.player, ctx.rules)
    terrain = next((t for t in state.table.terrain if t.id == cmd.piece), None)
    if terrain is None or terrain.id not in options:
        raise IllegalAction(f"Player {cmd.player} may not move {cmd.piece!r}.",
                            f"Pieces wholly in your deployment zone, not yet moved: {', '.join(options) or 'none'}"
                            " (or finish).")
    centre = Polygon(terrain.points).centroid
    moved = ((cmd.x - centre.x) ** 2 + (cmd.y - centre.y) ** 2) ** 0.5
    musket = ctx.rules.range_of("musket")
    if moved > musket + 1e-9:
        raise IllegalAction(f"That moves {terrain.id} {moved:.1f}\"; a piece moves at most Musket Shot ({musket:g}\").")
    problem = placement_problem(state, ctx.rules, terrain.id, terrain.kind, cmd.x, cmd.y, cmd.rotation, keep_apart=False)
    if problem:
        raise IllegalAction(f"{terrain.id} cannot go at ({cmd.x:g}, {cmd.y:g}): {problem}.")
    shape = ctx.rules.terrain_shapes[terrain.kind.value]
    ctx.emit(ev.TerrainPlaced(Terrain(terrain.id, terrain.kind, terrain_points(shape, cmd.x, cmd.y, cmd.rotation)), True))
    _next_adjuster(ctx, _other(ctx.state, cmd.player))


def finish_step(ctx: Decision, cmd: FinishStep) -> None:
    _prep(ctx.state, "adjust", cmd.player)
    ctx.emit(ev.AdjustPassed(cmd.player))
    _next_adjuster(ctx, _other(ctx.state, cmd.player))


def _next_adjuster(ctx: Decision, first: str) -> None:
    for p in (first, _other(ctx.state, first)):
        prep = ctx.state.prep
        assert prep is not None
        if p in prep.passed:
            continue
        if not adjustable(ctx.state, p, ctx.rules):
            ctx.emit(ev.AdjustPassed(p))  # nothing of theirs to move
            continue
        ctx.emit(ev.SetupStep("adjust", p))
        return
    ctx.emit(ev.SetupStep("deploy", _defender(ctx.state)))


# ---------------------------------------------------------------- deployment


def deploy(ctx: Decision, cmd: Deploy) -> None:
    state = ctx.state
    _prep(state, "deploy", cmd.player)
    try:
        ship = state.ship(cmd.ship)
    except KeyError:
        raise UnknownName(f"There is no ship called {cmd.ship!r}.") from None
    if ship.owner != cmd.player:
        raise NotYourShip(f"{ship.id} belongs to player {ship.owner}.")
    problem = deployment_problem(state, ctx.rules, ship.id, cmd.x, cmd.y, cmd.heading)
    if problem:
        raise IllegalAction(f"{ship.id} cannot deploy at ({cmd.x:g}, {cmd.y:g}) heading {cmd.heading:g}: {problem}.",
                            "Deploy wholly inside your zone, clear of ships and land, and more than Cannon Shot "
                            "from every enemy ship (/setup deploy preview:True shows the spot first).")
    ctx.emit(ev.ShipDeployed(ship.id, cmd.x, cmd.y, cmd.heading % 360))
    if any(Status.UNDEPLOYED in s.statuses for s in ctx.state.ships if s.owner == cmd.player):
        return
    other = _other(ctx.state, cmd.player)
    if any(Status.UNDEPLOYED in s.statuses for s in ctx.state.ships if s.owner == other):
        ctx.emit(ev.SetupStep("deploy", other))
        return
    _begin_battle(ctx)


def deployment_problem(state: Game, rules: RulesData, ship_id: str, x: float, y: float, heading: float) -> str | None:
    ship = state.ship(ship_id)
    hull = geo.Hull(geo.Pose(x, y, heading), ship.beam, ship.length).polygon
    outside = not zone(state, ship.owner, rules).buffer(1e-6).contains(hull)
    # the wider area is only worked out for a spot outside the zone: it searches the zone for room
    if outside and not deployment_area(state, rules, ship_id).buffer(1e-6).contains(hull):
        return "the base is not wholly inside the deployment zone"
    return _placement_problem(state, rules, ship, hull)


def _placement_problem(state: Game, rules: RulesData, ship: Ship, hull: Polygon) -> str | None:
    for t in state.table.terrain:
        if t.kind.is_obstacle and hull.intersects(Polygon(t.points)):
            return f"the base would be on {t.id}"
    cannon = rules.range_of("cannon")
    spacing = zone_spacing(state, ship.owner, rules)
    for o in state.ships:
        if o.id == ship.id or not o.on_table:
            continue
        other = geo.Hull(geo.Pose(o.x, o.y, o.heading), o.beam, o.length).polygon
        gap = geo.distance(hull, other)
        if gap <= 1e-9:
            return f"the base would touch {o.id}"
        if not state.allied(o.owner, ship.owner) and gap <= cannon + 1e-9:
            return f"it would be within Cannon Shot ({gap:.1f}\") of the enemy {o.id}"
        if spacing is not None and o.owner == ship.owner and gap <= spacing + 1e-9:
            return f"the deployment card keeps your ships more than {spacing:g}\" apart ({o.id} is {gap:.1f}\")"
    return None


DEPLOY_HEADINGS = (0.0, 90.0, 180.0, 270.0)


def _has_room(state: Game, rules: RulesData, ship: Ship, area: Polygon) -> bool:
    """Whether the ship has a legal place wholly inside the area (a 1" grid, four headings)."""
    inside = area.buffer(1e-6)
    x0, y0, x1, y1 = (float(v) for v in area.bounds)
    for heading in DEPLOY_HEADINGS:
        for i in range(int(x1 - x0) + 1):
            for j in range(int(y1 - y0) + 1):
                hull = geo.Hull(geo.Pose(x0 + i, y0 + j, heading), ship.beam, ship.length).polygon
                if inside.contains(hull) and _placement_problem(state, rules, ship, hull) is None:
                    return True
    return False


def deployment_area(state: Game, rules: RulesData, ship_id: str) -> Polygon:
    """Where the ship may deploy: its zone, or, when the zone has no legal place left for it (ships,
    land and the Cannon Shot rule can fill a small zone), the whole strip along its own edge as deep
    as the zone or 6", whichever is deeper."""
    ship = state.ship(ship_id)
    area = zone(state, ship.owner, rules)
    if _has_room(state, rules, ship, area):
        return area
    assert state.prep is not None
    x0, y0, x1, y1 = (float(v) for v in area.bounds)
    w, h = state.table.width, state.table.height
    depth = max(DEFAULT_DEPTH, x1 - x0 if state.prep.edge_of(ship.owner) in ("E", "W") else y1 - y0)
    return {"S": box(0, 0, w, depth), "N": box(0, h - depth, w, h),
            "W": box(0, 0, depth, h), "E": box(w - depth, 0, w, h)}[state.prep.edge_of(ship.owner)]


def _begin_battle(ctx: Decision) -> None:
    """Conditions that act at the start, then step 6: each player chooses a first card."""
    state = ctx.state
    for q in state.squadrons:
        card = ctx.rules.scenario_cards.get("advantage", {}).get(q.advantage or "")
        for e in card.effects if card else ():
            if e.get("kind") == "on_start" and e.get("action") == "take_fatigue":
                for enemy in state.squadrons:
                    flag = ctx.state.flagship_of(enemy.player)
                    if not state.allied(enemy.player, q.player) and flag is not None:
                        take_fatigue(ctx, flag.id, int(e.get("amount", 1)))
    ctx.emit(ev.SetupStep("done", ""))
    ctx.emit(ev.PhaseBegan(Phase.SETUP, 0))

