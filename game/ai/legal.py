"""Every command worth trying in a state, and the ones the rules accept.

Turn angles are sampled at useful steps (a third, two thirds and the whole of the tool's turn);
the rules engine itself is the judge of legality, so this module cannot disagree with it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from game.ai.setup_choices import setup_candidates
from game.commands import (
    Activate,
    Advance,
    Attack,
    Command,
    Crew,
    Decide,
    Decline,
    KeepRoll,
    Pass,
    PickCard,
    Reroll,
    Seamanship,
    Shift,
    Shot,
    Turn,
    UseFortune,
)
from game.dice import DiceSource, SampledDice
from game.engine import decide
from game.errors import RulesError
from game.model import Game, Phase
from game.phases.common import owes_pick
from game.rules_data import RulesData, load_rules

TURN_FRACTIONS = (1 / 3, 2 / 3, 1.0)


def candidates(state: Game, rules: RulesData | None = None) -> Iterator[Command]:
    rules = rules or load_rules(state.system)
    if state.phase is Phase.OVER:
        return
    if state.pending is not None:
        p = state.pending
        yield KeepRoll(p.player)
        yield UseFortune(p.player)
        for i in range(len(p.faces)):
            if p.skill > len(p.skill_rerolled) and i not in p.skill_rerolled:
                yield Reroll((i + 1,), p.player)
        return
    if state.offer is not None:
        o = state.offer
        yield Decline(o.player)
        for sid in o.ships:
            sides = ("port", "starboard") if o.attack == "broadside" else ("",)
            for side in sides:
                yield Attack(sid, o.attack, (Shot(side, o.target),), free=True, player=o.player)
        return
    if state.choices:
        yield from _choice_answers(state)
        return
    if state.phase is Phase.PREPARATION:
        if state.prep is not None and state.prep.to_act:
            yield from _first_legal_per_kind(state, setup_candidates(state, state.prep.to_act, rules), rules)
        return
    if state.phase in (Phase.SETUP, Phase.INITIATIVE):
        for q in state.squadrons:
            if owes_pick(state, q.player):
                for card in q.hand:
                    yield PickCard(q.player, card)
        return
    player = state.active_player
    if player is None:
        return
    ships = [s for s in state.ships_of(player) if s.can_act and s.id not in state.activated]
    if state.activation is not None:
        ships = [state.ship(state.activation.ship)]
    if state.phase is Phase.ATTACK:
        for s in ships:
            yield Pass(s.id, player)
            yield from attacks(state, s.id, player)
        return
    if state.phase is not Phase.MOVEMENT:
        return
    enemies = [s.id for s in state.ships if not state.allied(s.controller, player) and s.on_table]
    step = state.activation.step if state.activation is not None else "seamanship"
    for s in ships:
        yield from _activations(s.id, player, rules, enemies, step)


def _turns(rules: RulesData, speed_tools: tuple[int, ...]) -> list[Turn | None]:
    turns: list[Turn | None] = [None]
    max_turn = max(rules.tool(sp).max_turn for sp in speed_tools)
    for when in ("start", "end"):
        for side in ("port", "starboard"):
            for f in TURN_FRACTIONS:
                turns.append(Turn(when, side, round(max_turn * f, 1)))
    return turns


def _activations(ship: str, player: str, rules: RulesData, enemies: list[str], step: str) -> Iterator[Command]:
    """Whole-activation orders, from the step the activation has reached."""
    seams: list[Seamanship | None] = [None]
    seams += [Seamanship(ship, "heading", side=side, degrees=d, player=player)
              for side in ("port", "starboard") for d in (15.0, 30.0)]
    seams += [Seamanship(ship, "adjust", delta=d, player=player) for d in (1, -1)]
    seams.append(Seamanship(ship, "cutfree", player=player))
    advances: list[Advance | None] = [None]
    advances += [Advance(ship, "ahead", t, player=player) for t in _turns(rules, (1, 2, 3, 4, 5)) if t]
    advances += [Advance(ship, d, player=player) for d in ("back", "port", "starboard", "hold")]
    advances += [Advance(ship, "hold", Turn("start", side, deg), player=player)
                 for side in ("port", "starboard") for deg in (15.0, 30.0)]
    crews: list[Crew | None] = [None]
    crews += [Crew(ship, "reload", side=side, player=player) for side in ("port", "starboard")]
    crews += [Crew(ship, a, player=player) for a in ("rally", "repair", "repair_aground", "row")]
    crews += [Crew(ship, "sail", delta=d, player=player) for d in (1, -1)]
    crews += [Crew(ship, "board", target=e, player=player) for e in enemies]
    crews += [Crew(ship, "attack", attack=Attack(ship, "broadside", (Shot(side, e),), player=player), player=player)
              for e in enemies for side in ("port", "starboard")]
    crews += [Crew(ship, "boat", target=e, player=player) for e in enemies]
    advances += [Advance(ship, "", None, player=player, shift=Shift(w, side, 0.86))
                 for w in ("start", "end") for side in ("port", "starboard")]
    if step != "seamanship":
        seams = [None]
    if step == "crew":
        advances = [None]
    for seam in seams:
        for adv in advances:
            for crew in crews:
                yield Activate(ship, seam, adv, crew, player=player)


def attacks(state: Game, ship: str, player: str) -> Iterator[Attack]:
    """Every attack worth trying for one ship: each side or both at each enemy, with each aim;
    Partial Fire; Close Combat."""
    enemies = [s.id for s in state.ships if not state.allied(s.controller, player) and s.on_table and s.can_act]
    for e in enemies:
        for aim in ("hull", "rigging", "crew"):
            for side in ("port", "starboard"):
                yield Attack(ship, "broadside", (Shot(side, e, aim),), player=player)
            yield Attack(ship, "partial", (Shot("", e, aim),), player=player)
        yield Attack(ship, "close", (Shot("", e),), player=player)
        yield Attack(ship, "close", (Shot("landing", e),), player=player)
        yield Attack(ship, "close", (Shot("boat", e),), player=player)
    for a in enemies:
        for b in enemies:
            yield Attack(ship, "broadside", (Shot("port", a), Shot("starboard", b)), player=player)


def _choice_answers(state: Game) -> Iterator[Command]:
    for ch in state.choices:
        if ch.kind == "free_turn":
            yield Decide(ch.ship, "skip", player=ch.player)
            for side in ("port", "starboard"):
                for deg in (10.0, 20.0, 30.0):
                    yield Decide(ch.ship, side, degrees=deg, player=ch.player)
        elif ch.kind == "capture":
            for answer in ("capture", "destroy", "spare"):
                yield Decide(ch.ship, answer, player=ch.player)
        elif ch.kind == "borrow":
            for card in ch.options:
                yield Decide("", "borrow", target=card, player=ch.player)
        elif ch.kind == "event_draw":
            yield Decide("", "keep", player=ch.player)
            yield Decide("", "discard", player=ch.player)
        elif ch.kind == "place_terrain":
            yield from terrain_spots(state, ch.player)
            yield Decide("", "skip", player=ch.player)
        elif ch.kind == "lost_admiral":
            hand = state.squadron(ch.player).hand
            drop = tuple(hand[5:])
            for target in ch.options:
                yield Decide(ch.ship, "transfer", target=target, player=ch.player)
                yield Decide(ch.ship, "assign", target=target, cards=drop, player=ch.player)


def terrain_spots(state: Game, player: str) -> Iterator[Decide]:
    """Where a card's terrain piece might go: rings around the player's ships, nearest first."""
    import math

    for radius in (5.0, 7.0):
        for ship in state.ships_of(player):
            if not ship.on_table:
                continue
            for k in range(8):
                a = math.radians(ship.heading + 45 * k)
                yield Decide("", "place", player=player, x=round(ship.x + radius * math.sin(a), 1),
                             y=round(ship.y + radius * math.cos(a), 1))


def _first_legal_per_kind(state: Game, cmds: Iterator[Command], rules: RulesData) -> Iterator[Command]:
    """Set-up positions are endless: offer each other choice, but only the first legal spot for a
    piece or a ship (a hint of where it fits, not a list of every inch)."""
    placed: set[str] = set()
    for cmd in cmds:
        key = getattr(cmd, "piece", "") or getattr(cmd, "ship", "")
        if not key or not hasattr(cmd, "x"):
            yield cmd
        elif key not in placed and is_legal(state, cmd, rules):
            placed.add(key)
            yield cmd


def is_legal(state: Game, command: Command, rules: RulesData | None = None, dice: DiceSource | None = None) -> bool:
    """Whether the engine accepts the command. The dice only serve the trial: a command that rolls is
    legal whatever the faces (a failed test halts it, it does not refuse it)."""
    try:
        decide(state, command, dice or SampledDice(random.Random(0)), rules)
    except RulesError:
        return False
    return True


def legal_commands(state: Game, rules: RulesData | None = None) -> list[Command]:
    rules = rules or load_rules(state.system)
    return [c for c in candidates(state, rules) if is_legal(state, c, rules)]
