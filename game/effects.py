"""The card-effect vocabulary and its interpreter (docs/effects.md).

A card's `effects` are data. The rules ask this module "what changes this roll / speed / fatigue
for this ship now?" and never test a card's name. Vocabulary (`kind`):

- `speed`          add to the speed rating (condition `sailing_large`)
- `dice`           add dice to a kind of attack roll (`roll`: broadside | partial | close)
- `fatigue_taken`  add to the Fatigue each attack gives the card owner's ships (minimum 0)
- `reroll`         dice of a roll that may be re-rolled (`roll`: critical; `faces`: which)
- `hit_faces`      faces that also hit in a range band (`band`, `add`, condition `target_upwind`)
- `ignore_terrain` terrain kind the squadron ignores
- `crew_action`    a Crew Action the card allows (`action`: attack | boat_assault)
- `free_move`      a free sideways shift at the start or end of the move (`tool`: its length)
- `free_attack`    an attack out of turn when `trigger` happens (enemy_moved_into_arc,
                   enemy_ended_move_within, before_boarding)
- `on_reveal`      done right after both cards are chosen (`action`: remove_fatigue,
                   remove_reload, free_turn, borrow_effect)

`scope` says which ships: own_ships (default), formation, formation_or_near_friend; effects of
upgrade cards and officers' keywords (`this_ship`) act for the ship that carries them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from game import geometry as geo
from game.model import Game, PointOfSail, Ship
from game.rules_data import RulesData

Effect = Mapping[str, Any]


def _hull(ship: Ship) -> geo.Hull:
    return geo.Hull(geo.Pose(ship.x, ship.y, ship.heading), ship.beam, ship.length)


def card_effects(state: Game, player: str, rules: RulesData) -> Iterator[tuple[str, Effect]]:
    """(card, effect) in force for a player: the face-up initiative card, an event card for all, the
    player's drafted Advantage and the Conditions an opponent's Advantage lays on it. An effect
    with `turns` acts only on those turns."""
    for card, e in _card_effects(state, player, rules):
        if "turns" not in e or state.turn in e["turns"]:
            yield card, e


def _card_effects(state: Game, player: str, rules: RulesData) -> Iterator[tuple[str, Effect]]:
    q = state.squadron(player)
    faction = rules.factions.get(q.faction)
    if faction is not None:
        yield from ((faction.name, e) for e in faction.effects)
    advantages = rules.scenario_cards.get("advantage", {})
    for other in state.squadrons:
        card = advantages.get(other.advantage or "")
        if card is None:
            continue
        for e in card.effects:
            on_enemy = e.get("scope") == "enemy_ships"
            if other.player == player and not on_enemy:
                yield card.name, e
            elif on_enemy and not state.allied(other.player, player):
                yield card.name, {**e, "scope": "own_ships"}
    if q.face_up and q.face_up in rules.cards:
        for e in rules.cards[q.face_up].effects:
            if e.get("kind") == "on_reveal" and e.get("action") == "borrow_effect" and q.borrowed:
                borrowed = rules.cards.get(q.borrowed)
                if borrowed is not None:
                    yield from ((q.borrowed, b) for b in borrowed.effects)
                continue
            yield q.face_up, e
    event = rules.events.get(state.event_face_up or "")
    if event is not None and event.duration == "turn":
        for e in event.effects:
            yield event.name, e


_FORMATIONS: OrderedDict[tuple[int, ...], tuple[tuple[object, ...], tuple[str, ...]]] = OrderedDict()
KEPT_FORMATIONS = 64


def formation(state: Game, player: str, rules: RulesData) -> tuple[str, ...]:
    """The ships of the player's squadron in Formation with its Flagship (empty if none). Asked for
    every ship a free-attack card's scope names, at the end of every trial move: kept per table
    moment (what it reads: the ships, the squadrons, the table, the turn, the event card), least
    recently used dropped first."""
    held = (state.ships, state.squadrons, state.table, state.turn, state.event_face_up, player, rules)
    key = tuple(id(x) for x in held)
    got = _FORMATIONS.get(key)
    if got is not None and all(a is b for a, b in zip(got[0], held, strict=True)):
        _FORMATIONS.move_to_end(key)
        return got[1]
    chain = _formation(state, player, rules)
    _FORMATIONS[key] = (held, chain)  # the entry holds what its key names: no id is reused meanwhile
    while len(_FORMATIONS) > KEPT_FORMATIONS:
        _FORMATIONS.popitem(last=False)
    return chain


def _formation(state: Game, player: str, rules: RulesData) -> tuple[str, ...]:
    flag = state.squadron(player).flagship
    ships = {s.id: _hull(s) for s in state.ships if s.controller == player and s.can_act}
    if flag not in ships:
        return ()
    others = tuple(_hull(s) for s in state.ships if s.on_table and s.id not in ships)
    land = tuple(t.points for t in state.table.terrain if t.kind.is_obstacle)
    chain = _formation_chain(flag, tuple(ships.items()), others, land, rules.range_of("musket"))
    flagship = state.ship(flag)
    for _, e in [*card_effects(state, player, rules), *ship_effects(state, flagship, rules)]:
        if e.get("kind") == "formation_rule":
            # a card may count ships close to a friend as in Formation too
            reach = rules.range_of(str(e.get("within", "pistol")))
            close = [
                k for k, h in ships.items()
                if any(k != o and geo.distance(h.polygon, ships[o].polygon) <= reach + 1e-9 for o in ships)
            ]
            chain = tuple(dict.fromkeys([*chain, *close]))
    return chain


@lru_cache(maxsize=2048)
def _formation_chain(flag: str, ships: tuple[tuple[str, geo.Hull], ...], others: tuple[geo.Hull, ...],
                     land: tuple[tuple[geo.Vec, ...], ...], musket: float) -> tuple[str, ...]:
    # asked again and again with the same bases (every free-attack check, every trial order of
    # the computer captain): the chain depends on nothing but these poses
    blockers = [h.polygon for h in others] + [geo.terrain_polygon(p) for p in land]
    return geo.formation_chain(flag, dict(ships), blockers, musket)


def requirement_met(state: Game, player: str, effect: Effect, rules: RulesData) -> bool:
    """`requires = "admiral:KEYWORD"` or `"ship:RULE"`: a card only some squadrons may use."""
    need = str(effect.get("requires", ""))
    if not need:
        return True
    what, _, name = need.partition(":")
    if what == "admiral":
        admiral = rules.admirals.get(state.squadron(player).admiral)
        return admiral is not None and name in admiral.keywords
    return any(name in s.upgrades or name in s.traits for s in state.ships_of(player))


def in_scope(state: Game, ship: Ship, effect: Effect, rules: RulesData) -> bool:
    scope = effect.get("scope", "own_ships")
    if scope in ("own_ships", "all_ships", "this_ship"):
        return True
    if scope == "flagship":
        return state.squadron(ship.controller).flagship == ship.id
    if scope == "near_flagship":
        flag = state.flagship_of(ship.controller)
        reach = rules.range_of(str(effect.get("range", "musket")))
        return flag is not None and geo.distance(_hull(flag).polygon, _hull(ship).polygon) <= reach + 1e-9
    in_line = ship.id in formation(state, ship.controller, rules)
    if scope == "not_formation":
        return not in_line
    if scope == "formation":
        return in_line
    if scope == "formation_or_near_friend":
        if in_line:
            return True
        reach = rules.range_of(str(effect.get("range", "pistol")))
        me = _hull(ship).polygon
        return any(
            o.id != ship.id and o.controller == ship.controller and o.on_table
            and geo.distance(me, _hull(o).polygon) <= reach + 1e-9
            for o in state.ships
        )
    return False


def effects_for(state: Game, ship: Ship, kind: str, rules: RulesData) -> Iterator[tuple[str, Effect]]:
    for card, e in card_effects(state, ship.controller, rules):
        if e.get("kind") == kind and in_scope(state, ship, e, rules):
            yield card, e
    for source, e in ship_effects(state, ship, rules):
        if e.get("kind") == kind:
            yield source, e


def ship_effects(state: Game, ship: Ship, rules: RulesData) -> Iterator[tuple[str, Effect]]:
    """Effects that belong to one ship: its upgrade cards, its captain's keywords and, on the
    Flagship, the admiral's keywords. A captured ship's officers no longer serve it."""
    if ship.controller != ship.owner:
        return
    names: list[tuple[str, str]] = []
    captain = rules.captains.get(ship.captain)
    if captain is not None:
        names += [(captain.name, k) for k in captain.keywords]
    q = next((q for q in state.squadrons if q.player == ship.owner), None)
    if q is not None and q.flagship == ship.id and not q.admiral_lost:
        admiral = rules.admirals.get(q.admiral)
        if admiral is not None:
            names += [(admiral.name, k) for k in admiral.keywords]
    for officer, k in names:
        keyword = rules.keywords.get(k)
        for e in keyword.effects if keyword else ():
            yield f"{officer} ({k})", e
    for card in ship.cards:
        found = rules.upgrade_cards.get(card)
        for e in found.effects if found else ():
            yield card, e


def test_dice(state: Game, ship: Ship, purpose: str, rules: RulesData) -> int:
    """Dice a card or keyword adds to (or takes from) the ship's Skill Tests of this purpose."""
    return sum(int(e.get("add", 0)) for _, e in effects_for(state, ship, "test_dice", rules)
               if e.get("test") in (purpose, "any"))


def extra(state: Game, ship: Ship, kind: str, rules: RulesData) -> int:
    """What `rally` or `repair` effects add to the Fatigue or Damage the action removes."""
    return sum(int(e.get("add", 0)) for _, e in effects_for(state, ship, kind, rules))


def speed_bonus(state: Game, ship: Ship, pos: PointOfSail, rules: RulesData) -> int:
    total = 0
    for _, e in effects_for(state, ship, "speed", rules):
        if e.get("condition") == "sailing_large" and (
            pos is not PointOfSail.LARGE or ship.entangled or ship.aground
        ):
            continue
        if e.get("condition") == "small" and "Small" not in ship.traits:
            continue
        total += int(e.get("add", 0))
    return total


def speed_floor(state: Game, ship: Ship, rules: RulesData) -> int | None:
    """The least speed a card's penalty may leave (`minimum`), or None."""
    floors = [int(e["minimum"]) for _, e in effects_for(state, ship, "speed", rules) if "minimum" in e]
    return max(floors) if floors else None


def range_shift(state: Game, ship: Ship, rules: RulesData) -> int:
    """Bands a card moves every shot of this ship farther, as a fog bank would."""
    return sum(int(e.get("bands", 0)) for _, e in effects_for(state, ship, "range_shift", rules))


def forbidden(state: Game, ship: Ship, action: str, rules: RulesData) -> str | None:
    """The card that forbids this action to the ship now, or None."""
    for card, e in effects_for(state, ship, "restriction", rules):
        if e.get("forbid") == action:
            return card
    return None


def fatigue_after_move(state: Game, ship: Ship, rules: RulesData) -> int:
    """Fatigue a card gives a ship when it finishes its move (Squall: at Full Sail)."""
    total = 0
    for _, e in effects_for(state, ship, "after_move", rules):
        if e.get("condition") == "full_sail" and ship.sail.value != "full":
            continue
        total += int(e.get("fatigue", 0))
    return total


def ignores_terrain(state: Game, ship: Ship, terrain_kind: str, rules: RulesData) -> bool:
    return any(e.get("terrain") == terrain_kind for _, e in effects_for(state, ship, "ignore_terrain", rules))


def dice_bonus(state: Game, ship: Ship, roll: str, rules: RulesData, aim: str = "hull",
               distance: float | None = None) -> int:
    """Dice a card adds to an attack: by the attack's kind, any attack, or one at the rigging;
    `within` limits it to targets inside a range band."""
    total = 0
    for _, e in effects_for(state, ship, "dice", rules):
        kind = e.get("roll")
        if kind not in (roll, "any_attack") and not (kind == "rigging" and aim == "rigging"):
            continue
        if "within" in e and (distance is None or distance > rules.range_of(str(e["within"])) + 1e-9):
            continue
        total += int(e.get("add", 0))
    return total


def fatigue_counted(state: Game, ship: Ship, rules: RulesData) -> int:
    """Fatigue that takes dice away: none while a card lets unshaken ships ignore it."""
    if not ship.shaken and any(True for _ in effects_for(state, ship, "ignore_fatigue", rules)):
        return 0
    return ship.fatigue


def first(state: Game, ship: Ship, kind: str, rules: RulesData) -> Effect | None:
    for _, e in effects_for(state, ship, kind, rules):
        return e
    return None


def fatigue_taken_modifier(state: Game, target: Ship, rules: RulesData) -> int:
    return sum(int(e.get("add", 0)) for _, e in effects_for(state, target, "fatigue_taken", rules))


def rerollable_faces(state: Game, ship: Ship, roll: str, rules: RulesData) -> frozenset[str]:
    faces: set[str] = set()
    for _, e in effects_for(state, ship, "reroll", rules):
        if e.get("roll") == roll:
            faces.update(e.get("faces", []))
    return frozenset(faces)


def extra_hit_faces(state: Game, firer: Ship, target: Ship, band: str, rules: RulesData) -> frozenset[str]:
    faces: set[str] = set()
    for _, e in effects_for(state, firer, "hit_faces", rules):
        if e.get("band") != band:
            continue
        if e.get("condition") == "target_upwind" and (
            firer.anchored or firer.aground or not completely_upwind(state, target, firer)
        ):
            continue
        faces.update(e.get("add", []))
    return frozenset(faces)


def completely_upwind(state: Game, ship: Ship, of: Ship) -> bool:
    """Every point of `ship` is nearer the Weather Edge than every point of `of`."""
    t = state.table

    def wd(p: geo.Vec) -> float:
        return geo.weather_distance(p, t.weather_edge, t.width, t.height)

    return max(wd(p) for p in _hull(ship).corners) < min(wd(p) for p in _hull(of).corners)


def crew_action_allowed(state: Game, ship: Ship, action: str, rules: RulesData) -> Effect | None:
    for _, e in effects_for(state, ship, "crew_action", rules):
        if e.get("action") == action:
            return e
    return None


def free_move(state: Game, ship: Ship, rules: RulesData) -> Effect | None:
    if ship.entangled or ship.aground:
        return None
    for _, e in effects_for(state, ship, "free_move", rules):
        return e
    return None


def on_reveal(state: Game, player: str, rules: RulesData) -> list[tuple[str, Effect]]:
    return [
        (c, e) for c, e in card_effects(state, player, rules)
        if e.get("kind") == "on_reveal" and requirement_met(state, player, e, rules)
    ]


def free_attacks(state: Game, player: str, trigger: str, rules: RulesData) -> list[tuple[str, Effect]]:
    return [
        (c, e)
        for c, e in card_effects(state, player, rules)
        if e.get("kind") == "free_attack" and e.get("trigger") == trigger
    ]


def admiral_bonus(state: Game, player: str, rules: RulesData) -> int:
    """What a card adds to the player's admiral value when ties are broken."""
    cards = [e for _, e in card_effects(state, player, rules)]
    cards += [e for s in state.ships_of(player) if s.can_act for _, e in ship_effects(state, s, rules)]
    return sum(int(e.get("add", 0)) for e in cards if e.get("kind") == "admiral_value")


def event_on_draw(state: Game, rules: RulesData) -> list[Effect]:
    """The instant effects of the event card just drawn."""
    event = rules.events.get(state.event_face_up or "")
    if event is None or event.duration != "instant":
        return []
    return [e for e in event.effects if e.get("kind") == "on_reveal"]
