"""What a player can do now, in words and as orders: the answer every prompt gives (the bot's post, its
option menu and `/options`, the offline table's prompt).

Everything here is read from the player's own view, judged by the engine's own checks (no rule is
written twice) and rolls no die.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from game import geometry as geo
from game import option_geometry as shared
from game.commands import Activate, Advance, Command, Crew, Shot, Turn
from game.context import Decision
from game.dice import SampledDice, ScriptedDice
from game.engine import decide_and_apply
from game.errors import RulesError
from game.glossary import while_moving
from game.model import Activation, Game, Phase, PointOfSail, Ship, ShipSide, Status
from game.notation import format_command
from game.phases import attack as attack_rules
from game.phases import movement
from game.phases.common import TERRAIN_PREFIX, choice_hint, hull, owes_pick, surely_beyond
from game.phases.flow import FLOW, deciders
from game.phases.motion import collision_push
from game.phases.preparation import what_now as setup_what_now
from game.roll_text import ATTACK_LABEL, BAND_LABEL, reroll_offer
from game.rules_data import RulesData
from game.views import View

# What a player is shown of the options at each moment (docs/benchmarks.md, "options"): the board post
# gives SHOWN_CHARS of them, each line cut to SHOWN_LINE, and its menu the first SHOWN_ORDERS orders; the
# rest is one `/options` away. `shown_options` works out only the ships these can reach.
SHOWN_CHARS = 700
SHOWN_LINE = 300  # a longer line is cut to SHOWN_LINE - 3 characters and "…"
SHOWN_ORDERS = 25  # Discord's most choices in one select menu

POINT_OF_SAIL = {PointOfSail.LARGE: "Large", PointOfSail.WINDWARD: "Windward", PointOfSail.WINDS_EYE: "In the Wind's Eye"}


@dataclass(frozen=True)
class Option:
    ship: str  # the ship it concerns ("" for a decision of the whole side)
    text: str  # what it is, for a player to read
    order: str = ""  # the order in table notation that carries it out ("" when it needs more from the player)


@dataclass(frozen=True)
class Options:
    player: str
    summary: str  # one sentence: what the game waits for from this player
    items: tuple[Option, ...] = ()
    left_out: int = 0  # lines (a ship's, the card's) after `items` not worked out: never shown (shown_options)

    def lines(self, orders: bool = False) -> list[str]:
        """One line per ship (its options joined), after the summary; with `orders`, each option's
        order in table notation too (for a client where orders are typed)."""
        by_ship: dict[str, list[str]] = {}
        for o in self.items:
            shown = o.text if not orders or not o.order or f"`{o.order}`" in o.text else f"{o.text} → `{o.order}`"
            by_ship.setdefault(o.ship, []).append(shown)
        out = [self.summary] if self.summary else []
        for ship, texts in by_ship.items():
            out.append(f"{ship}: {'; '.join(texts)}" if ship else "; ".join(texts))
        return out

    def text(self, orders: bool = False) -> str:
        return "\n".join(self.lines(orders))


def options_for(seen: View, rules: RulesData, ship: str | None = None, shown_only: bool = False) -> Options:
    """The options of the player whose view this is (empty when the game does not wait for them);
    `shown_only`: as `shown_options` bounds them."""
    player = seen.viewer
    g = seen.game
    if player is None or player not in deciders(g):
        return Options(player or "", "")
    if g.pending is not None:
        p = g.pending
        items = [Option(p.ship, "keep the roll", "keep")]
        if not p.fortune_used and g.squadron(p.player).fortune > 0:
            items.append(Option(p.ship, "spend a Fortune Point to re-roll every die", "fortune"))
        if p.skill > len(p.skill_rerolled):
            items.append(Option(p.ship, "re-roll dice with Skill: `reroll N …` with their positions"))
        return Options(player, f"Decide on {p.ship}'s roll: {reroll_offer(g)}; or keep it.", tuple(items))
    if g.offer is not None:
        o = g.offer
        label = ATTACK_LABEL.get(o.attack, o.attack)
        free = tuple(Option(s, f"free {label} at {o.target}", "") for s in o.ships) + (Option("", "decline it", "decline"),)
        return Options(player, f"{o.card} offers a free {label} at {o.target}.", free)
    if g.choices:
        ch = g.choices[0]
        return Options(player, f"Decide about {ch.ship} ({ch.kind.replace('_', ' ')}): {choice_hint(ch.kind)}")
    if g.phase is Phase.PREPARATION:
        return Options(player, f"Set-up: {setup_what_now(g)}")
    if g.phase in (Phase.SETUP, Phase.INITIATIVE):
        hand = g.squadron(player).hand
        cards = ", ".join(f"{c} ({rules.cards[c].value})" if c in rules.cards else c for c in hand)
        return Options(player, f"Choose an initiative card face down: {cards or 'your hand is empty'}.")
    if g.phase is Phase.MOVEMENT:
        return _movement(g, player, rules, ship, shown_only)
    if g.phase is Phase.ATTACK:
        return _attacks(g, player, rules, ship)
    return Options(player, "")


def public_options(seen: View, rules: RulesData, shown_only: bool = False) -> Options:
    """The options that may be posted in the channel: nothing from a hand, nothing from a plan;
    `shown_only`: as `shown_options` bounds them."""
    found = options_for(seen, rules, shown_only=shown_only)
    g = seen.game
    if seen.viewer is not None and owes_pick(g, seen.viewer) and g.pending is None and g.offer is None and not g.choices:
        return Options(found.player, "Choose an initiative card face down (press the Choose initiative card button).")
    return found


def shown_options(seen: View, rules: RulesData) -> Options:
    """`public_options` as far as the board post and its menu show them, ship by ship in the same
    order: once the lines worked out are sure to overflow the post (SHOWN_CHARS, counted before the
    bot's escapes, which only lengthen a line) and hold the menu's SHOWN_ORDERS orders, the remaining
    ships are counted in `left_out` instead of tried. What is shown is then word for word the same
    (tests/bot/test_shown_options.py); a fleet's size no longer sets the cost of a moment."""
    return public_options(seen, rules, shown_only=True)


def _shown_length(ship: str, items: Sequence[Option]) -> int:
    """The least a ship's line takes of the post (Options.lines, then the post's cut)."""
    line = f"{ship}: {'; '.join(o.text for o in items)}" if ship else "; ".join(o.text for o in items)
    return min(len(line), SHOWN_LINE - 2) + 1  # and its newline


# ---------------------------------------------------------------- Movement Phase


def _movement(g: Game, player: str, rules: RulesData, only: str | None, shown_only: bool = False) -> Options:
    act = g.activation
    if act is not None:
        if act.player != player:
            return Options(player, "")
        ship = g.ship(act.ship)
        if act.step == "crew":
            loads = [_reload_option(g, ship, side, rules, "crew")[0] for side in sorted(ship.reload)]
            return Options(player, f"{ship.id} has moved: a Crew Action, or finish.", (
                *loads, Option(ship.id, "finish the activation", f"done {_q(ship.id)}"), *_card_reminders(g, player, rules, ("crew_action",))))
        moved = _trial(g, Activate(ship.id, player=ship.controller), rules)
        return Options(player, f"{ship.id}'s activation is under way: move it.", (_move_option(g, ship, rules, moved),))
    ships = [s for s in g.ships_of(player) if s.can_act and s.id not in g.activated and (only in (None, s.id))]
    items: list[Option] = []
    chars = orders = 0  # of the ships worked out: the least they take of the post, their orders
    left = 0
    for n, s in enumerate(ships):
        if shown_only and chars > SHOWN_CHARS + 1 and orders >= SHOWN_ORDERS:
            left = len(ships) - n  # the post is cut before them and the menu is full: never shown
            break
        first = len(items)
        how = "hold" if " hold" in _move_option(g, s, rules).order else "move"
        reloads: list[Option] = []
        plain: Game | None = None  # the plain move, tried once: what bears after it, and what a closing move must beat
        for side in sorted(s.reload):
            option, after = _reload_option(g, s, side, rules, how)
            reloads.append(option)
            if plain is None and how == "move":
                plain = after  # the same move, a side reloaded: no second trial (the reload set is put back below)
        if plain is None:
            plain = _plain_move(g, s, rules)
        items.append(_move_option(g, s, rules, plain))
        better = _closing_move(g, s, rules, plain)
        if better is not None:
            items.append(better)
        items += reloads
        chars += _shown_length(s.id, items[first:])
        orders += sum(1 for o in items[first:] if o.order)
    reminders = _card_reminders(g, player, rules, ("crew_action", "free_move")) if items else []
    if left:  # the card's line comes after the ships: left out with them
        return Options(player, f"Movement Phase, turn {g.turn}: activate one of your ships.", tuple(items),
                       left + (1 if reminders else 0))
    return Options(player, f"Movement Phase, turn {g.turn}: activate one of your ships.", tuple(items + reminders))


def _card_reminders(g: Game, player: str, rules: RulesData, kinds: tuple[str, ...]) -> list[Option]:
    """What the player's face-up card lets a ship do while moving (effects of these kinds), which no
    other option would show (a newcomer held Rolling Broadsides for ten turns without knowing how)."""
    q = g.squadron(player)
    card = rules.cards.get(q.borrowed or q.face_up or "")
    if card is None:
        return []
    return [Option("", f"{card.name} (face up): {line}") for line in while_moving(card, kinds)]


def _trial(g: Game, cmd: Command, rules: RulesData) -> Game | None:
    """The state after a command, tried through the engine itself (no die rolled for the game: these
    are the player's own trials), or None when the engine refuses it."""
    try:
        return decide_and_apply(g, cmd, SampledDice(random.Random(0)), rules)[1]
    except RulesError:
        return None


def _reload_option(g: Game, ship: Ship, side: ShipSide, rules: RulesData, how: str) -> tuple[Option, Game | None]:
    """Reloading a side that carries a reload marker, `how`: with the move (`move`), with a ship that
    holds (`hold`) or as the step after the move (`crew`); offered when the engine would take the
    order. A ship that may not reload is told why (a Shaken one is offered its one Crew Action, Rally).
    Also the state after the trial, None when the engine refused it."""
    name, player = _q(ship.id), ship.controller
    crew = Crew(ship.id, "reload", side=side.value, player=player)
    trial: Command = crew
    order = f"crew {name} reload {side.value}"
    if how != "crew":
        advance = Advance(ship.id, "hold", player=player) if how == "hold" else None
        trial = Activate(ship.id, advance=advance, crew=crew, player=player)
        order = f"move {name}{' hold' if how == 'hold' else ''} crew reload {side.value}"
    try:
        after = decide_and_apply(g, trial, SampledDice(random.Random(0)), rules)[1]
    except RulesError as exc:
        if ship.shaken:
            rally = order.replace(f"reload {side.value}", "rally") if ship.fatigue else ""
            return Option(ship.id, f"{side.value} guns unloaded, but a Shaken ship's only Crew Action is Rally", rally), None
        # the engine's own words: Full Sail, Entangled …
        return Option(ship.id, f"{side.value} guns unloaded: {exc.text}"), None
    return Option(ship.id, f"reload the {side.value} guns (Crew Action)", order), after


def _move_option(g: Game, ship: Ship, rules: RulesData, moved: Game | None = None) -> Option:
    t = g.table
    pos = geo.point_of_sail(hull(ship), t.weather_edge, t.width, t.height)
    if pos is None:
        pos = PointOfSail.LARGE if ship.large >= ship.windward else PointOfSail.WINDWARD
    act = Activation(ship.id, ship.controller, pos, movement.activation_speed(g, ship, pos, rules))
    speed, why = movement.rated_speed(ship, act)
    blocked = movement.why_no_forward_move(ship, act)
    where = POINT_OF_SAIL[pos]
    name = _q(ship.id)
    if blocked:
        if pos is PointOfSail.WINDS_EYE and not (ship.entangled or ship.aground or ship.anchored):
            return Option(ship.id, f"{where}: hold, or turn up to 30° in place", f"move {name} hold turn start port 30")
        if ship.entangled:
            return Option(ship.id, f"{where}, Entangled: try to Cut Free, or hold", f"move {name} cutfree")
        if ship.anchored:
            return Option(ship.id, f"{where}, Anchored: raise sail (Crew Action), or hold",
                          f"move {name} hold crew sail up")
        return Option(ship.id, f"{where}, {blocked.split(' is ', 1)[-1]}: hold", f"move {name} hold")
    held = f" ({why})" if why else ""
    # what the guns bear on once the move is made: where the ship stands now is not where it will fire from
    after = _moved(moved, ship)
    aim = _bearing_text(moved, after, rules) if moved is not None and after is not None else ""
    return Option(ship.id, f"{where}, speed {speed}{held}{'; after the move, ' + aim if aim else ''}", f"move {name}")


def _moved(moved: Game | None, ship: Ship) -> Ship | None:
    """The ship after a trial move, still on the table, with the reload markers it has now (a trial
    may have reloaded a side: the plain move does not)."""
    if moved is None or not moved.ship(ship.id).on_table:
        return None
    return replace(moved.ship(ship.id), reload=ship.reload)


def _bearings(g: Game, ship: Ship, rules: RulesData,
              among: Sequence[Ship] | None = None) -> list[tuple[str, str, float, str | None]]:
    """(side, enemy, distance, range band or None beyond Cannon Shot) for each enemy in a broadside path
    (of `among` only, when given: enemies near enough to matter, in the table's order)."""
    me = hull(ship)
    out = []
    if among is None:  # only those a side's path could hold need a shape
        among = shared.may_bear(ship, shared.enemies_of(g, ship), rules, loaded_only=False)
    for other in among:
        if g.allied(other.controller, ship.controller) or not other.on_table or not other.can_act:
            continue
        for side, d in _paths_on(me, hull(other)):
            band = rules.band_for(d)
            out.append((side, other.id, d, band.name if band else None))
    return sorted(out, key=lambda b: b[2])


@lru_cache(maxsize=65536)
def _paths_on(me: geo.Hull, them: geo.Hull) -> tuple[tuple[str, float], ...]:
    """(side, distance) for each of my broadside paths the other base is in: geometry of two bases
    alone, so asked once for the ships still to act and their sketched moves."""
    return tuple((side, float(geo.distance(me.polygon, them.polygon)))
                 for side in ("port", "starboard") if geo.in_broadside_path(me, side, them))


def _bearing_text(g: Game, ship: Ship, rules: RulesData) -> str:
    # a side with a reload marker cannot fire at what it bears on: said, so no one counts on it
    parts = [f"{side} path: {enemy} {d:.1f}\" ({BAND_LABEL.get(band, band) if band else 'beyond Cannon Shot'}"
             f"{', not loaded' if ShipSide(side) in ship.reload else ''})"
             for side, enemy, d, band in _bearings(g, ship, rules)[:2]]
    return ", ".join(parts)


def _in_reach(g: Game, ship: Ship, rules: RulesData, among: Sequence[Ship] | None = None) -> tuple[int, float]:
    """How good a position is for the next Attack Phase: loaded broadsides that bear within range,
    then how close the nearest one is (only enemies within range count: `among` may leave out any
    farther)."""
    found = [b for b in _bearings(g, ship, rules, among) if b[3] is not None and ShipSide(b[0]) not in ship.reload]
    return len({(side, enemy) for side, enemy, _, _ in found}), -min((b[2] for b in found), default=99.0)


CLOSING_TURNS = shared.CLOSING_TURNS


def _closing_move(g: Game, ship: Ship, rules: RulesData, plain: Game | None) -> Option | None:
    """A move that brings a loaded broadside to bear within range when the plain move (already tried,
    `plain`) does not. A turning move that cannot bring more to bear wherever it ends is not looked
    at (option_geometry.most_borne); the others end where their path does when the engine's sweep
    meets nothing, or where it stops them when the collision can move no enemy nor the ship
    (`_where`), else they are tried through the engine. The move offered is always played through
    the engine: one that does not end where it was judged to sends every move to it."""
    if len(ship.reload) == len(ShipSide):
        return None  # no side loaded: no move brings one to bear (a trial move reloads nothing)
    speed = _sketch_speed(g, ship, rules)
    if speed is None:
        return None  # no move ahead: the engine refuses every turning move (game/phases/movement.py advance)
    before = _moved(plain, ship)
    best = _in_reach(plain, before, rules) if plain is not None and before is not None else (0, -99.0)
    slack = rules.range_of("yard_arm")  # a collision's push moves one of the two ships by up to this
    enemies = shared.near_enemies(g, ship, shared.reach_of(ship, speed, rules) + slack, _longest_range(rules))
    unsettled = _unsettled(g)
    if unsettled:
        most = [len(ShipSide) * len(enemies)] * len(CLOSING_TURNS)
    else:
        most = shared.most_borne(ship, speed, CLOSING_TURNS, rules, enemies, slack)
    bound = dict(zip(CLOSING_TURNS, most, strict=True))
    choice: tuple[tuple[int, float], Activate, Game | None, Ship | None] | None = None
    for turn in CLOSING_TURNS:
        if not _may_win(bound[turn], best, choice):
            continue
        cmd = _closing_order(ship, turn)
        ends = shared.where_it_ends(g, ship, speed, turn, rules)
        if ends in (shared.REFUSED, shared.OFF):
            continue
        at: Ship | None = ends if isinstance(ends, Ship) and not unsettled else None
        if isinstance(ends, shared.Stop) and not unsettled:
            still = _pushes_nothing(g, ship, ends.hit)
            if not _may_win(shared.most_borne(ship, speed, [turn], rules, enemies, 0.0 if still else slack,
                                              [(ends.motion, ends.lo, ends.hi)])[0], best, choice):
                continue  # the collision stops it where it cannot bring more to bear
            if still:
                at = _where(g, ship, speed, turn, rules)
                if at is None:
                    continue  # it would leave the table at the contact
        if at is not None:
            moved, score = None, _in_reach(g, at, rules, shared.may_bear(at, enemies, rules))
        else:
            moved = _trial(g, cmd, rules)
            if moved is None or not moved.ship(ship.id).on_table:
                continue
            score = _in_reach(moved, moved.ship(ship.id), rules)
        if score[0] > best[0] and (choice is None or score > choice[0]):
            choice = (score, cmd, moved, at)
    if choice is None:
        return None
    _, cmd, moved, at = choice
    if moved is None:
        moved = _trial(g, cmd, rules)
        if moved is None or at is None or not _ends_as_judged(g, moved, at):
            return _closing_move_played(g, ship, rules, plain, bound)
    return _closing_option(cmd, moved, ship, rules)


def _unsettled(g: Game) -> bool:
    """A move may do more than move the ship: scroll the table (the Scrolling Sea) or, by a
    collision that recaptures a prize, change the sides. Every move is then tried through the engine."""
    return g.scrolling_sea or any(Status.CAPTURED in s.statuses for s in g.ships)


def _pushes_nothing(g: Game, ship: Ship, hit: str) -> bool:
    """A collision with `hit` moves neither the ship nor any enemy: it ran onto land, or the ship of
    its own side it struck is the one pushed (motion.collision_push, the engine's own rule)."""
    if hit.startswith(TERRAIN_PREFIX):
        return True
    pushed, _ = collision_push(g, ship.id, hit)
    return pushed != ship.id and g.allied(g.ship(pushed).controller, ship.controller)


def _where(g: Game, ship: Ship, speed: int, turn: Turn | None, rules: RulesData) -> Ship | None:
    """Where the engine's sweep stops a move that collides (`_pushes_nothing`), still on the table;
    None when the ship would end off it."""
    stop = shared.contact(g, ship, speed, turn, rules)
    return None if stop is None else _on_table(g, stop[0])


def _on_table(g: Game, at: Ship) -> Ship | None:
    return None if geo.off_table(hull(at).polygon, g.table.width, g.table.height) else at


def _may_win(most: int, best: tuple[int, float], choice: tuple[tuple[int, float], *tuple[object, ...]] | None) -> bool:
    """Whether a move bringing at most `most` broadsides to bear could be chosen: it must bring more than
    the plain move (`best`) and at least as many as the best turning move so far (`choice`'s score)."""
    return most > best[0] and (choice is None or most >= choice[0][0])


def _closing_order(ship: Ship, turn: Turn) -> Activate:
    return Activate(ship.id, advance=Advance(ship.id, "ahead", turn), player=ship.controller)


def _plain_move(g: Game, ship: Ship, rules: RulesData) -> Game | None:
    """The state after the ship's plain move: where its path ends when the engine's sweep meets
    nothing, or where it stops when the collision moves neither it nor any enemy (only the ship's
    place differs from the table now: all the options read of it), else tried through the engine.
    One sweep, as the engine's, tells both (`option_geometry.contact`)."""
    speed = _sketch_speed(g, ship, rules)
    if speed is not None and not _unsettled(g):
        stop = shared.contact(g, ship, speed, None, rules)
        if stop is None:
            clear = shared.path_moved(ship, speed, None, rules)
            at = _on_table(g, clear) if clear is not None else None
        else:
            at = _on_table(g, stop[0]) if _pushes_nothing(g, ship, stop[1]) else None
        if at is not None:
            return g.with_ship(at)
    return _trial(g, Activate(ship.id, player=ship.controller), rules)


def _longest_range(rules: RulesData) -> float:
    return max(b.max for b in rules.ranges) + 1e-6


def _sketch_speed(g: Game, ship: Ship, rules: RulesData) -> int | None:
    """The speed the engine would move the ship ahead at now (its own figures, as the move option
    gives them), or None when it could not move ahead."""
    if not ship.on_table:
        return None
    t = g.table
    pos = geo.point_of_sail(hull(ship), t.weather_edge, t.width, t.height)
    if pos is None:  # exactly between: the engine takes the faster, as the move option says
        pos = PointOfSail.LARGE if ship.large >= ship.windward else PointOfSail.WINDWARD
    act = Activation(ship.id, ship.controller, pos, movement.activation_speed(g, ship, pos, rules))
    if movement.why_no_forward_move(ship, act) is not None:
        return None
    return movement.speed_rating(ship, act)


def _ends_as_judged(g: Game, after: Game, at: Ship) -> bool:
    """The trial `after` left the ship where it was judged to end (`at`) and every enemy as it was."""
    if len(after.ships) != len(g.ships):
        return False
    for old, new in zip(g.ships, after.ships, strict=True):
        if old.id == at.id:
            if (new.x, new.y, new.heading, new.reload, new.on_table, new.controller) != (
                    at.x, at.y, at.heading, at.reload, at.on_table, at.controller):
                return False
        elif not g.allied(old.controller, at.controller) and new is not old and new != old:
            return False
    return True


def _closing_move_played(g: Game, ship: Ship, rules: RulesData, plain: Game | None,
                         bound: dict[Turn, int] | None = None) -> Option | None:
    """_closing_move with every turning move tried through the engine itself (but those that cannot
    bring more to bear than the plain move or the best so far: `bound`, option_geometry.most_borne)."""
    before = _moved(plain, ship)
    best = _in_reach(plain, before, rules) if plain is not None and before is not None else (0, -99.0)
    choice: tuple[tuple[int, float], Activate, Game] | None = None
    for turn in CLOSING_TURNS:
        if bound is not None and not _may_win(bound[turn], best, choice):
            continue
        cmd = _closing_order(ship, turn)
        moved = _trial(g, cmd, rules)
        if moved is None or not moved.ship(ship.id).on_table:
            continue
        score = _in_reach(moved, moved.ship(ship.id), rules)
        if score[0] > best[0] and (choice is None or score > choice[0]):
            choice = (score, cmd, moved)
    if choice is None:
        return None
    _, cmd, moved = choice
    return _closing_option(cmd, moved, ship, rules)


def _closing_option(cmd: Activate, moved: Game, ship: Ship, rules: RulesData) -> Option:
    order = format_command(replace(cmd, player=""))
    return Option(ship.id, f"to bring guns to bear: `{order}` (after it, {_bearing_text(moved, moved.ship(ship.id), rules)})", order)


# ---------------------------------------------------------------- Attack Phase


def attack_options(g: Game, player: str, rules: RulesData, only: str | None = None) -> list[tuple[Ship, list[Option]]]:
    """Every legal attack of each of the player's ships still to attack, best dice first."""
    ctx = Decision(g, ScriptedDice(), rules, FLOW)  # checks only: a roll here would be a bug, and would raise
    cannon = max(rules.range_of("cannon"), rules.range_of("musket"))
    out = []
    for ship in g.ships_of(player):
        if not ship.can_act or ship.id in g.activated or only not in (None, ship.id):
            continue
        found: list[tuple[int, Option]] = []
        for target in g.ships:
            if g.allied(target.controller, player) or not target.on_table or _out_of_reach(ship, target, cannon):
                continue
            for kind, side in (("broadside", "port"), ("broadside", "starboard"), ("partial", ""), ("close", "")):
                try:
                    plan = attack_rules.check_shot(ctx, ship, kind, Shot(side, target.id))
                except RulesError:
                    continue
                found.append((plan.dice, _attack_option(ship, kind, plan)))
        found.sort(key=lambda f: -f[0])
        out.append((ship, [o for _, o in found]))
    return out


def _out_of_reach(ship: Ship, target: Ship, cannon: float) -> bool:
    """No attack can be made: no fire reaches beyond Cannon Shot, and Close Combat needs the ships
    Entangled or a boat's Landing Party aboard the target (check_shot). Told without a shape."""
    close = target.id in ship.entangled_with or any(p.on_ship == target.id for p in ship.landing_parties)
    return not close and surely_beyond(ship, target, cannon)


def _attack_option(ship: Ship, kind: str, plan: attack_rules.ShotPlan) -> Option:
    label = ATTACK_LABEL[kind]
    side = f"{plan.side} " if plan.side else ""
    band = "in contact" if kind == "close" else BAND_LABEL.get(plan.band, plan.band)
    rake = f", {plan.rake} rake" if plan.rake else ""
    dice = f"{plan.dice} {'die' if plan.dice == 1 else 'dice'}"
    verb = {"broadside": "fire", "partial": "partial", "close": "melee"}[kind]
    order = " ".join(x for x in (verb, _q(ship.id), plan.side, _q(plan.target)) if x)
    return Option(ship.id, f"{side}{label} at {plan.target}, {band}{rake}, {dice}", order)


def _attacks(g: Game, player: str, rules: RulesData, only: str | None) -> Options:
    items: list[Option] = []
    for ship, found in attack_options(g, player, rules, only):
        items += found or [Option(ship.id, "no target", f"pass {_q(ship.id)}")]
    return Options(player, f"Attack Phase, turn {g.turn}: attack with one of your ships, or pass.", tuple(items))


def _q(name: str) -> str:
    return f'"{name}"' if " " in name else name
