"""Every command worth trying in a state, and the ones the rules accept.

Turn angles are sampled at useful steps (a third, two thirds and the whole of the tool's turn);
the rules engine itself is the judge of legality, so this module cannot disagree with it.
"""

from __future__ import annotations

from collections.abc import Iterator

from game.commands import (
    Activate,
    Advance,
    Command,
    Crew,
    KeepRoll,
    Pass,
    PickCard,
    Reroll,
    Seamanship,
    Turn,
    UseFortune,
)
from game.dice import SeededDice
from game.engine import decide
from game.errors import RulesError
from game.model import Game, Phase
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
        ship = state.ship(p.ship)
        for i in range(len(p.faces)):
            if ship.skill > len(p.skill_rerolled) and i not in p.skill_rerolled:
                yield Reroll((i + 1,), p.player)
        return
    if state.phase in (Phase.SETUP, Phase.INITIATIVE):
        for q in state.squadrons:
            if not q.picked:
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
        return
    if state.phase is not Phase.MOVEMENT:
        return
    enemies = [s.id for s in state.ships if s.controller != player and s.on_table]
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
    if step != "seamanship":
        seams = [None]
    if step == "crew":
        advances = [None]
    for seam in seams:
        for adv in advances:
            for crew in crews:
                yield Activate(ship, seam, adv, crew, player=player)


def is_legal(state: Game, command: Command, rules: RulesData | None = None) -> bool:
    try:
        decide(state, command, SeededDice(state.seed, state.log_position), rules)
    except RulesError:
        return False
    return True


def legal_commands(state: Game, rules: RulesData | None = None) -> list[Command]:
    rules = rules or load_rules(state.system)
    return [c for c in candidates(state, rules) if is_legal(state, c, rules)]
