"""Attack Phase: ships activate in alternation, initiative player first; one attack choice each
(Broadside from one or both sides, Partial Fire, or Close Combat). The same attack rules serve
attacks a card allows during the Movement Phase and free attacks out of turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from shapely.geometry import LineString, Polygon
from shapely.ops import nearest_points

from game import effects
from game import events as ev
from game import geometry as geo
from game.commands import Attack, Command, Decline, Pass, Shot
from game.context import Decision
from game.errors import IllegalAction, RulesError
from game.model import Game, Phase, Ship, ShipSide, Status, TerrainKind
from game.notation import format_command
from game.phases import common as c
from game.phases.motion import make_move

BAND_KIND = {"yard_arm": "hit_yard_arm", "pistol": "hit_pistol", "musket": "hit_musket", "cannon": "hit_cannon"}
AIMS = ("hull", "rigging", "crew")


@dataclass(frozen=True)
class ShotPlan:
    side: str
    target: str
    aim: str
    band: str  # the range band the hits are read from (after fog)
    dice: int
    success: frozenset[str]
    kind: str  # the roll's kind in the dice data
    rake: str | None = None
    contact: str = ""  # close combat: the attacker's edge in contact


# ---------------------------------------------------------------- the Attack Phase activation


def begin_attack(ctx: Decision, ship_id: str, player: str) -> str:
    state = ctx.state
    c.nothing_waiting(state)
    c.require_phase(state, Phase.ATTACK)
    ship = c.get_ship(state, ship_id)
    who = c.acting_player(player, ship)
    c.require_turn(state, who)
    c.ensure_able(ship, "attack")
    if ship_id in state.activated:
        raise IllegalAction(f"{ship_id} has already had its Attack Phase activation this turn.")
    return who


def pass_attack(ctx: Decision, cmd: Pass) -> None:
    who = begin_attack(ctx, cmd.ship, cmd.player)
    finish_attack(ctx, cmd.ship, who)


def finish_attack(ctx: Decision, ship_id: str, player: str) -> None:
    if ctx.state.ship(ship_id).wake:
        ctx.emit(ev.WakeMarker(ship_id, False))
    ctx.emit(ev.ActivationEnded(ship_id, Phase.ATTACK))
    ctx.flow.next_activation(ctx, player)


def attack_command(ctx: Decision, cmd: Attack) -> None:
    """An Attack given as a command: an Attack Phase activation, or a free attack on offer."""
    if cmd.free:
        _free_attack(ctx, cmd)
        return
    who = begin_attack(ctx, cmd.ship, cmd.player)
    resolve_attack(ctx, cmd, lambda a: a)
    finish_attack(ctx, cmd.ship, who)


# ---------------------------------------------------------------- checks


def _target(ctx: Decision, ship: Ship, name: str) -> Ship:
    target = c.get_ship(ctx.state, name)
    if ctx.state.allied(target.controller, ship.controller):
        raise IllegalAction(f"{target.id} is a friendly ship.", "Choose an enemy ship as the target.")
    if not target.on_table:
        raise IllegalAction(f"{target.id} is no longer on the table.")
    if target.out_of_action or Status.CAPTURED in target.statuses:
        raise IllegalAction(f"{target.id} is out of the fight already.", "Choose an enemy still fighting.")
    return target


def _fog(state: Game, a: Ship, b: Ship) -> bool:
    """The shot goes into or through a fog bank."""
    fogs = c.terrain_polygons(state, [TerrainKind.FOG_BANK]).values()
    if not fogs:
        return False
    pa, pb = nearest_points(c.hull(a).polygon, c.hull(b).polygon)
    line = LineString([pa, pb]) if pa.distance(pb) > 1e-9 else pa
    tb = c.hull(b).polygon
    return any(f.intersects(line) or f.intersection(tb).area > 1e-9 for f in fogs)


def _hit_band(ctx: Decision, ship: Ship, target: Ship, dist: float) -> tuple[str, str, frozenset[str]]:
    """(band, kind, success faces) for a hit roll at this distance, fog and cards considered."""
    rules = ctx.rules
    band = rules.band_for(dist)
    assert band is not None
    names = [b.name for b in rules.ranges]
    i = names.index(band.name)
    shift = effects.range_shift(ctx.state, ship, rules)
    if _fog(ctx.state, ship, target) and not effects.ignores_terrain(ctx.state, ship, "fog_bank", ctx.rules):
        shift += 1
    if shift:
        if i + shift >= len(names):
            kind = "fog_beyond_cannon"
            return names[-1], kind, rules.die.success[kind]
        i += shift
    name = names[i]
    kind = BAND_KIND.get(name, "hit_cannon")
    extra = effects.extra_hit_faces(ctx.state, ship, target, name, rules)
    return name, kind, rules.die.success[kind] | extra


def _halve(n: int, aim: str) -> int:
    return max(1, n // 2) if aim in ("rigging", "crew") else n


def _aim_success(ctx: Decision, aim: str) -> tuple[str, frozenset[str]]:
    kind = "rigging" if aim == "rigging" else "crew"
    return kind, ctx.rules.die.success[kind]


def check_shot(ctx: Decision, ship: Ship, kind: str, shot: Shot, harmless: bool = False) -> ShotPlan:
    """Every rule that makes this attack illegal, checked before any die is rolled."""
    state, rules = ctx.state, ctx.rules
    if shot.aim not in AIMS:
        raise IllegalAction(f"Unknown aim {shot.aim!r}.", "Aim at hull, rigging or crew.")
    if harmless and shot.aim != "hull":
        raise IllegalAction("This free attack cannot damage or cause critical damage.", "Aim at the hull.")
    if kind == "close":
        return _check_close(ctx, ship, shot)
    target = _target(ctx, ship, shot.target)
    friends = {s.id for s in state.ships if state.allied(s.controller, ship.controller)}
    if target.entangled_with & friends:
        raise IllegalAction(
            f"{target.id} is Entangled with a friendly ship and may not be the target of Broadside or Partial Fire.",
            "Fight it in Close Combat, or choose another target.",
        )
    fh, th = c.hull(ship), c.hull(target)
    dist = geo.distance(fh.polygon, th.polygon)
    limit = "cannon" if kind == "broadside" else "musket"
    if shot.aim == "crew":
        limit = "pistol"
    reach = rules.range_of(limit)
    what = "a Broadside" if kind == "broadside" else "Partial Fire"
    if dist > reach + 1e-9:
        label = rules.band(limit).label
        raise IllegalAction(
            f"{target.id} is {dist:.2f}\" away: {what}{' at the crew' if shot.aim == 'crew' else ''} reaches "
            f"{label} ({reach:g}\").",
            "Close the range first.",
        )
    blockers = c.sight_blockers(state)
    if kind == "broadside":
        if shot.side not in ("port", "starboard"):
            raise IllegalAction("A Broadside fires from the port or the starboard side.")
        if ShipSide(shot.side) in ship.reload:
            raise IllegalAction(
                f"{ship.id}'s {shot.side} guns are not loaded (reload marker).",
                "Reload as a Crew Action, fire the other side, or use Partial Fire.",
            )
        if not geo.in_broadside_path(fh, shot.side, th):
            raise IllegalAction(
                f"{target.id} is not in {ship.id}'s {shot.side} broadside path.",
                "Fire from the side that faces it, or use Partial Fire.",
            )
        if not geo.line_of_sight(fh, th, blockers, (shot.side,)):
            raise IllegalAction(f"Land blocks the line of sight from {ship.id}'s {shot.side} side to {target.id}.")
    else:
        if shot.side:
            raise IllegalAction("Partial Fire does not name a side.", "Write `partial SHIP TARGET`.")
        if not geo.line_of_sight(fh, th, blockers):
            raise IllegalAction(f"Land blocks the line of sight from {ship.id} to {target.id}.")
    actual = rules.band_for(dist)
    for _, e in effects.effects_for(state, target, "restriction", rules):
        if actual is not None and e.get("attacks_against_at") == actual.name:
            raise IllegalAction(f"{target.id} cannot be attacked at {actual.label} this turn.", "Close the range.")
    band, hit_kind, success = _hit_band(ctx, ship, target, dist)
    if shot.aim != "hull":
        hit_kind, success = _aim_success(ctx, shot.aim)
    dice = _fire_dice(ctx, ship, kind, shot.aim, dist)
    rake = geo.rake(fh, shot.side, th) if kind == "broadside" and shot.aim != "rigging" else None
    return ShotPlan(shot.side, target.id, shot.aim, band, dice, success, hit_kind, rake)


def _fire_dice(ctx: Decision, ship: Ship, kind: str, aim: str, distance: float) -> int:
    """Broadside (never below Crew) or Crew dice less Fatigue, then bonuses, then halving."""
    fatigue = effects.fatigue_counted(ctx.state, ship, ctx.rules)
    base = max(ship.broadside - fatigue, ship.crew) if kind == "broadside" else ship.crew - fatigue
    n = max(base, 1)
    if ship.id in effects.formation(ctx.state, ship.controller, ctx.rules):
        n += 1
    n += effects.dice_bonus(ctx.state, ship, kind, ctx.rules, aim, distance) + ctx.extra_dice
    return _halve(max(1, n), aim)


def _check_close(ctx: Decision, ship: Ship, shot: Shot) -> ShotPlan:
    state, rules = ctx.state, ctx.rules
    target = c.get_ship(state, shot.target)
    if state.allied(target.controller, ship.controller):
        raise IllegalAction(f"{target.id} is a friendly ship.")
    if shot.aim != "hull":
        raise IllegalAction("Close Combat is fought crew against crew.", "Leave out the aim.")
    fatigue = effects.fatigue_counted(state, ship, rules)
    n = max(3 + ship.crew - fatigue, 1) + effects.dice_bonus(state, ship, "close", rules) + ctx.extra_dice
    side_faces = rules.die.success["close_combat_side"]
    repel = effects.first(state, target, "hit_faces", rules)
    if repel is not None and repel.get("roll") == "close_combat_against":
        only = frozenset(repel.get("only", []))
        plan = _check_close_plan(ctx, ship, target, shot, n, side_faces)
        return replace(plan, success=plan.success & only)
    return _check_close_plan(ctx, ship, target, shot, n, side_faces)


def _check_close_plan(ctx: Decision, ship: Ship, target: Ship, shot: Shot, n: int,
                      side_faces: frozenset[str]) -> ShotPlan:
    rules = ctx.rules
    if shot.side == "landing":
        mine = [p for p in ship.landing_parties if not p.on_ship]
        theirs = [p for p in target.landing_parties if not p.on_ship]
        musket = rules.range_of("musket")
        near = any(((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 <= musket + 1e-9 for a in mine for b in theirs)
        if not near:
            raise IllegalAction(
                f"{ship.id} has no Landing Party within Musket Shot of one of {target.id}'s.",
                "Landing Parties fight other Landing Parties ashore within Musket Shot.",
            )
        return ShotPlan("landing", target.id, "hull", "", n, side_faces, "close_combat_landing")
    if any(p.on_ship == target.id for p in ship.landing_parties):
        return ShotPlan("boat", target.id, "hull", "", n, side_faces, "close_combat_side", contact="boat")
    if target.id not in ship.entangled_with:
        raise IllegalAction(
            f"{ship.id} is not Entangled with {target.id}.",
            "Close Combat needs the ships Entangled (Boarding) or Landing Parties ashore.",
        )
    contact = contact_edge(c.hull(ship), c.hull(target).polygon)
    kind = "close_combat_bow_stern" if contact in ("bow", "stern") else "close_combat_side"
    return ShotPlan("", target.id, "hull", "", n, rules.die.success[kind], kind, contact=contact)


def contact_edge(attacker: geo.Hull, target: Polygon) -> str:
    """The attacker's edge that lies along the target (the longest shared stretch)."""
    best, best_len = "side", -1.0
    for e in geo.EDGES:
        seg = LineString(attacker.edge(e))
        if seg.distance(target) > 0.05:
            continue
        shared = seg.intersection(target.buffer(0.05)).length
        if shared > best_len:
            best, best_len = e, shared
    return best


# ---------------------------------------------------------------- resolution


def resolve_attack(ctx: Decision, cmd: Attack, wrap: Callable[[Attack], Command], harmless: bool = False) -> None:
    """Check every shot, then roll and resolve them in order. `wrap` turns the rest of the attack
    back into the step command that carries it, so a re-roll prompt can resume it."""
    ship = ctx.state.ship(cmd.ship)
    if cmd.kind not in ("broadside", "partial", "close"):
        raise IllegalAction(f"Unknown attack {cmd.kind!r}.", "Attack with a Broadside, Partial Fire or Close Combat.")
    if not cmd.shots:
        raise IllegalAction("An attack names a target.")
    if cmd.kind != "broadside" and len(cmd.shots) > 1:
        raise IllegalAction("Only a Broadside may fire twice, once from each side.")
    sides = [s.side for s in cmd.shots]
    if len(set(sides)) != len(sides):
        raise IllegalAction("Each side fires once.", "Fire port and starboard, one shot each.")
    if cmd.helm and cmd.helm not in ("port", "starboard"):
        raise IllegalAction("The helm turn goes to port or starboard.")
    plans = [check_shot(ctx, ship, cmd.kind, shot, harmless) for shot in cmd.shots]
    rest = ctx.remaining[1:]
    for i, plan in enumerate(plans):
        ctx.remaining = (format_command(wrap(replace(cmd, shots=cmd.shots[i:]))), *rest)
        if i > 0:
            plan = check_shot(ctx, ctx.state.ship(cmd.ship), cmd.kind, cmd.shots[i], harmless)
        _resolve_shot(ctx, cmd, plan, harmless)


def _resolve_shot(ctx: Decision, cmd: Attack, plan: ShotPlan, harmless: bool) -> None:
    rules = ctx.rules
    success = plan.success
    faces = c.rerollable_roll(
        ctx, cmd.ship, plan.dice, cmd.kind, plan.kind, success, lambda fs: any(f not in success for f in fs),
        target=plan.target,
    )
    ship, target = ctx.state.ship(cmd.ship), ctx.state.ship(plan.target)
    faces = _exploding(ctx, ship, plan, faces)
    hits = sum(1 for f in faces if f in success)
    fatigue_before, damage_before = target.fatigue, target.damage
    budget = _FatigueBudget(-effects.fatigue_taken_modifier(ctx.state, target, rules))
    if cmd.kind == "close":
        victim = plan.target
        budget.take(ctx, victim, hits)
    elif plan.aim == "rigging":
        _critical_effects(ctx, cmd, plan.target, {"sail": hits}, budget)
    elif plan.aim == "crew":
        if hits and plan.rake:
            budget.take(ctx, plan.target, 1)
        _critical_effects(ctx, cmd, plan.target, {"sword": hits}, budget)
    else:
        if hits:
            budget.take(ctx, plan.target, 2 if plan.rake else 1)
            if _aggressive(ctx, ship, target):
                budget.take(ctx, plan.target, 1)
        if not harmless:
            damage = hits // _fortitude(target, plan)
            resilient = effects.first(ctx.state, target, "damage_taken", ctx.rules)
            if damage and resilient is not None:
                damage = max(int(resilient.get("minimum", 1)), damage + int(resilient.get("add", 0)))
            if damage:
                c.take_damage(ctx, plan.target, damage)
            crit_faces = ["skull"] + (["cannon"] if plan.rake else [])
            checks = sum(1 for f in faces if f in crit_faces)
            if checks:
                _critical_check(ctx, cmd, plan.target, checks, budget)
    after = ctx.state.ship(plan.target)
    ctx.emit(
        ev.AttackResolved(
            cmd.ship, plan.target, cmd.kind, plan.side, plan.aim, plan.band, hits,
            max(0, after.damage - damage_before), max(0, after.fatigue - fatigue_before), plan.rake or "",
            contact=plan.contact,
        )
    )
    if cmd.kind == "broadside" and ctx.state.ship(cmd.ship).on_table:
        ctx.emit(ev.ReloadMarker(cmd.ship, ShipSide(plan.side), True))
    del ship


def _exploding(ctx: Decision, ship: Ship, plan: ShotPlan, faces: tuple[str, ...]) -> tuple[str, ...]:
    """A card may let a face roll another die in a range band, again while it keeps coming up."""
    effect = effects.first(ctx.state, ship, "exploding_dice", ctx.rules)
    if effect is None or effect.get("band") != plan.band or plan.aim != "hull":
        return faces
    face = str(effect.get("face", "cannon"))
    extra = sum(1 for f in faces if f == face)
    out = list(faces)
    for _ in range(50):  # dice do not explode forever, but a bound keeps a test die from looping
        if not extra:
            break
        more = ctx.roll(extra, "exploding", plan.kind, ship.controller, ship.id, plan.success, target=plan.target)
        out += more
        extra = sum(1 for f in more if f == face)
    return tuple(out)


def _aggressive(ctx: Decision, ship: Ship, target: Ship) -> bool:
    effect = effects.first(ctx.state, ship, "fatigue_given", ctx.rules)
    if effect is None:
        return False
    reach = ctx.rules.range_of(str(effect.get("within", "musket")))
    return geo.distance(c.hull(ship).polygon, c.hull(target).polygon) <= reach + 1e-9


class _FatigueBudget:
    """Fatigue this attack gives, less what a card takes off the first points."""

    def __init__(self, reduction: int) -> None:
        self.reduction = max(0, reduction)

    def take(self, ctx: Decision, ship_id: str, amount: int) -> None:
        cut = min(self.reduction, amount)
        self.reduction -= cut
        if amount - cut > 0:
            c.take_fatigue(ctx, ship_id, amount - cut)


def _fortitude(target: Ship, plan: ShotPlan) -> int:
    fortitude = target.fortitude
    if "Small" in target.traits and plan.band == "cannon":
        fortitude = max(fortitude, 2)
    if plan.rake == "stern":
        fortitude = 1
    return max(1, fortitude)


def _critical_check(ctx: Decision, cmd: Attack, target_id: str, n: int, budget: _FatigueBudget) -> None:
    attacker = ctx.state.ship(cmd.ship)
    faces = list(ctx.roll(n, "critical", "critical_damage", attacker.controller, cmd.ship, target=target_id))
    again = effects.rerollable_faces(ctx.state, attacker, "critical", ctx.rules)
    redo = [i for i, f in enumerate(faces) if f in again]
    if redo:
        kept = tuple(f for i, f in enumerate(faces) if i not in redo)
        new = ctx.roll(len(redo), "critical_reroll", "critical_damage", attacker.controller, cmd.ship,
                       target=target_id, kept=kept)
        for i, f in zip(redo, new, strict=True):
            faces[i] = f
    counts = {k: sum(1 for f in faces if f == k) for k in ("skull", "sail", "sword")}
    _critical_effects(ctx, cmd, target_id, counts, budget)


def _critical_effects(ctx: Decision, cmd: Attack, target_id: str, counts: dict[str, int], budget: _FatigueBudget) -> None:
    """Skull: 1 damage, two or more Crippled (or Out of Action); sail: Sail Setting down, two or
    more Aground (masts lost); sword: 1 Fatigue, two or more the helm is struck."""
    skulls, sails, swords = counts.get("skull", 0), counts.get("sail", 0), counts.get("sword", 0)
    if skulls:
        was_crippled = ctx.state.ship(target_id).crippled
        c.take_damage(ctx, target_id, 1)
        if skulls >= 2:
            target = ctx.state.ship(target_id)
            if was_crippled:
                c.knock_out(ctx, target_id)
            elif not target.crippled:
                ctx.emit(ev.TrackChanged(target_id, "damage", 7 - target.damage, 7))
                ctx.emit(ev.StatusGained(target_id, Status.CRIPPLED))
                c.check_out_of_action(ctx, target_id)
    if sails:
        target = ctx.state.ship(target_id)
        lower = target.sail.step(-1)
        if lower is not None:
            ctx.emit(ev.SailChanged(target_id, lower))
        if sails >= 2 and not ctx.state.ship(target_id).aground:
            ctx.emit(ev.StatusGained(target_id, Status.AGROUND))
    if swords:
        budget.take(ctx, target_id, 1)
        if swords >= 2 and ctx.state.ship(target_id).on_table:
            helm_struck(ctx, cmd, target_id)


def helm_struck(ctx: Decision, cmd: Attack, target_id: str) -> None:
    """A Full Turn with the speed-2 tool to the side the attacker chooses, collisions at speed 2,
    then a die for the admiral or captain aboard."""
    target = ctx.state.ship(target_id)
    side = cmd.helm or _worse_side(ctx.state, target)
    tool = ctx.rules.tool(2)
    if not (target.entangled or target.aground or target.anchored):
        make_move(ctx, target_id, [geo.pivot_motion(c.hull(target), side, tool.max_turn)], "helm", 2)
    target = ctx.state.ship(target_id)
    q = ctx.state.squadron(target.controller)
    aboard = []
    if q.flagship == target_id and q.admiral:
        aboard.append("admiral")
    if target.captain:
        aboard.append("captain")
    if not aboard:
        return
    faces = ctx.roll(1, "officer_hit", "officer_hit", ctx.state.ship(cmd.ship).controller, cmd.ship, target=target_id)
    if ctx.successes("officer_hit", faces):
        officer = aboard[0]
        ctx.emit(ev.OfficerLost(target_id, officer, target.controller))


def _worse_side(state: Game, ship: Ship) -> str:
    """Without the attacker's word, the helm turns the target's bow toward the wind."""
    wind_from = (geo.wind_heading(state.table.weather_edge) + 180) % 360
    diff = (wind_from - ship.heading + 540) % 360 - 180
    return "starboard" if diff >= 0 else "port"


# ---------------------------------------------------------------- free attacks


def _free_attack(ctx: Decision, cmd: Attack) -> None:
    state = ctx.state
    offer = state.offer
    if offer is None:
        raise IllegalAction("No free attack is on offer.", "Free attacks come from initiative cards.")
    ship = c.get_ship(state, cmd.ship)
    c.acting_player(cmd.player, ship)
    if ship.controller != offer.player:
        raise IllegalAction(f"The free attack belongs to player {offer.player}.")
    if cmd.ship not in offer.ships:
        raise IllegalAction(f"{cmd.ship} may not take this free attack.", f"Ships that may: {', '.join(offer.ships)}.")
    if cmd.kind != offer.attack or any(s.target != offer.target for s in cmd.shots) or len(cmd.shots) != 1:
        raise IllegalAction(
            f"The free attack is one {offer.attack.replace('partial', 'Partial Fire')} at {offer.target}."
        )
    resolve_attack(ctx, cmd, lambda a: a, harmless=offer.harmless)
    close_offer(ctx, taken=True)


def decline(ctx: Decision, cmd: Decline) -> None:
    offer = ctx.state.offer
    if offer is None:
        raise IllegalAction("No free attack is on offer.")
    if cmd.player and cmd.player != offer.player:
        raise IllegalAction(f"The free attack belongs to player {offer.player}.")
    close_offer(ctx, taken=False)


def close_offer(ctx: Decision, taken: bool) -> None:
    offer = ctx.state.offer
    assert offer is not None
    ctx.emit(ev.OfferClosed(offer.player, taken))
    ctx.flow.next_activation(ctx, offer.resume_player)


def broadside_legal(ctx: Decision, ship: Ship, side: str, target_id: str) -> bool:
    try:
        check_shot(ctx, ship, "broadside", Shot(side, target_id))
    except RulesError:
        return False
    return True


def partial_legal(ctx: Decision, ship: Ship, target_id: str) -> bool:
    try:
        check_shot(ctx, ship, "partial", Shot("", target_id))
    except RulesError:
        return False
    return True

