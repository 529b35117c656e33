"""Standing orders (game/standing.py): what a player's orders do at each kind of decision, on states
of a seeded quick start (its dice are the seed's; the rolls below are set exactly)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from game import standing as so
from game.ai.captain import Captain
from game.commands import Activate, Advance, Attack, KeepRoll, Pass, Reroll, Turn, UseFortune
from game.model import Game, Phase
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.scenario import quickstart
from game.table_session import TableSession
from game.views import view_of

RULES = load_rules()


def reach(until: Callable[[Game], bool], seed: int = 3) -> Game:
    """The first state of a captains' quick start (seeded dice) that fits."""
    game = replace(quickstart(), seed=seed)
    session = TableSession(game, RULES)
    captains = {p: Captain(p, seed, RULES) for p in game.players}
    for _ in range(2000):
        state = session.state
        if until(state):
            return state
        player = sorted(deciders(state))[0]
        session.submit(captains[player].act(state))
    raise AssertionError("never reached")


def attack_turn(state: Game) -> bool:
    return (state.phase is Phase.ATTACK and state.pending is None and state.offer is None
            and deciders(state) == {"A"} and not state.activated)


def movement_turn(state: Game) -> bool:
    return (state.phase is Phase.MOVEMENT and state.activation is None and deciders(state) == {"A"}
            and not any(s.id in state.activated for s in state.ships_of("A")))


@pytest.fixture(scope="module")
def first_roll() -> Game:
    return reach(lambda s: s.pending is not None)


@pytest.fixture(scope="module")
def attack() -> Game:
    return reach(attack_turn)


@pytest.fixture(scope="module")
def movement() -> Game:
    return reach(movement_turn)


def orders(state: Game, *ships: so.ShipOrders, **kw: object) -> so.Standing:
    return so.Standing("A", state.turn, ships, **kw)  # type: ignore[arg-type]


def test_orders_survive_storage() -> None:
    move = Activate("Kestrel", None, Advance("Kestrel", "ahead", Turn("end", "port", 30.0), player="A"), player="A")
    o = so.Standing("A", 2, (so.ShipOrders("Kestrel", move, "ship", "Otter", "nearest"),
                             so.ShipOrders("Amazone", None, "rake", discretion=True)), "fortune", False, "skip")
    assert so.decode(so.encode(o)) == o


def test_without_orders_the_player_is_asked(first_roll: Game, movement: Game) -> None:
    assert so.step(view_of(first_roll, "A"), None, RULES) is None
    assert so.step(view_of(movement, "A"), None, RULES) is None


def test_the_initiative_pick_is_always_the_players(movement: Game) -> None:
    picking = reach(lambda s: s.phase is Phase.INITIATIVE)
    everything = so.Standing("A", picking.turn, (), "fortune", True, "discretion")
    assert so.step(view_of(picking, "A"), everything, RULES) is None


def test_orders_lapse_with_their_turn(first_roll: Game) -> None:
    old = so.Standing("A", first_roll.turn - 1, (), "never")
    assert so.step(view_of(first_roll, "A"), old, RULES) is None


@pytest.mark.parametrize(("policy", "faces", "skill", "expected"), [
    ("never", ("musket", "musket", "cannon"), 2, KeepRoll("A")),
    ("skill", ("musket", "cannon", "musket"), 2, Reroll((1, 3), "A")),
    ("skill", ("musket", "cannon", "musket"), 1, Reroll((1,), "A")),
    ("skill", ("musket", "musket", "musket"), 0, KeepRoll("A")),
    ("fortune", ("musket", "musket", "musket"), 0, UseFortune("A")),
    ("fortune", ("musket", "cannon", "musket"), 0, KeepRoll("A")),  # a hit: not a failed roll
])
def test_the_reroll_policy_answers_the_roll(first_roll: Game, policy: str, faces: tuple[str, ...], skill: int,
                                            expected: object) -> None:
    assert first_roll.pending is not None
    state = replace(first_roll, pending=replace(first_roll.pending, faces=faces, skill=skill))
    found = so.step(view_of(state, "A"), orders(state, reroll=policy), RULES)
    assert found is not None and found.command == expected


def test_ask_means_the_roll_waits(first_roll: Game) -> None:
    assert so.step(view_of(first_roll, "A"), orders(first_roll, reroll="ask"), RULES) is None


def test_hold_fire_passes(attack: Game) -> None:
    ships = [s.id for s in attack.ships_of("A") if s.can_act]
    held = orders(attack, *(so.ShipOrders(s, attack="hold") for s in ships))
    found = so.step(view_of(attack, "A"), held, RULES)
    assert found is not None and found.command == Pass(ships[0], "A")


def test_a_ship_that_cannot_fire_waits_while_another_has_no_orders(attack: Game) -> None:
    """Which ship acts first is the player's choice: a ship with nothing to fire at is passed for
    them only once every ship that could fire has its orders."""
    view = view_of(attack, "A")
    judge = so._Judge(view, RULES, 0)
    ready = [s for s in attack.ships_of("A") if s.can_act]
    idle = [s.id for s in ready if not so._shots(judge, s)]
    able = [s.id for s in ready if so._shots(judge, s)]
    if not idle or not able:
        pytest.skip("this state has no idle ship beside an able one")
    assert so.step(view, orders(attack, so.ShipOrders(idle[0], attack="best")), RULES) is None
    both = so.step(view, orders(attack, so.ShipOrders(idle[0], attack="best"), so.ShipOrders(able[0], attack="hold")),
                   RULES)
    assert both is not None and both.command == Pass(idle[0], "A") and both.reason == "only"


def test_a_named_target_that_cannot_be_attacked_falls_back_to_the_rule(attack: Game) -> None:
    view = view_of(attack, "A")
    ready = [s.id for s in attack.ships_of("A") if s.can_act]
    shots = {sid: so._shots(so._Judge(view, RULES, 0), attack.ship(sid)) for sid in ready}
    shooter = next(sid for sid in ready if shots[sid])
    reachable = set(shots[shooter])
    named = so.ShipOrders(shooter, attack="ship", target="Nowhere", then="nearest")
    found = so.step(view, orders(attack, named), RULES)
    assert found is not None and isinstance(found.command, Attack) and found.command.ship == shooter
    assert found.command.shots[0].target in reachable
    assert found.note.startswith("Nowhere could not be attacked, so nearest")
    first = next(iter(sorted(reachable)))
    aimed = so.step(view, orders(attack, so.ShipOrders(shooter, attack="ship", target=first)), RULES)
    assert aimed is not None and isinstance(aimed.command, Attack)
    assert {s.target for s in aimed.command.shots} == {first}


def test_nearest_picks_the_nearest_target(attack: Game) -> None:
    from game.phases.common import hull

    view = view_of(attack, "A")
    ready = [s for s in attack.ships_of("A") if s.can_act]
    judge = so._Judge(view, RULES, 0)
    shooter = next(s for s in ready if so._shots(judge, s))
    reachable = so._shots(judge, shooter)
    nearest = min(reachable, key=lambda t: hull(shooter).polygon.distance(hull(attack.ship(t)).polygon))
    found = so.step(view, orders(attack, so.ShipOrders(shooter.id, attack="nearest")), RULES)
    assert found is not None and isinstance(found.command, Attack)
    assert {s.target for s in found.command.shots} == {nearest}


def test_a_ship_with_nothing_to_fire_at_passes_without_orders() -> None:
    def nobody_in_reach(state: Game) -> bool:
        if state.phase is not Phase.ATTACK or state.pending or state.offer or len(deciders(state)) != 1:
            return False
        player = next(iter(deciders(state)))
        judge = so._Judge(view_of(state, player), RULES, 0)
        return not any(so._shots(judge, s) for s in state.ships_of(player) if s.can_act)

    state = reach(nobody_in_reach)
    player = next(iter(deciders(state)))
    found = so.step(view_of(state, player), None, RULES)
    assert found is not None and isinstance(found.command, Pass) and found.reason == "only"
    assert found.note.endswith("had nothing to fire at")


def test_a_queued_move_is_made_and_used_up(movement: Game) -> None:
    ship = movement.ships_of("A")[0].id
    move = Activate(ship, None, Advance(ship, "ahead", None, player="A"), None, player="A")
    found = so.step(view_of(movement, "A"), orders(movement, so.ShipOrders(ship, move)), RULES)
    assert found is not None and found.command == move
    assert found.orders.of(ship) == so.ShipOrders(ship, None)
    assert found.note == f"moved {ship} as ordered"


@pytest.mark.parametrize("fallback", ["wait", "skip", "discretion"])
def test_an_illegal_move_falls_back_as_the_player_said(movement: Game, fallback: str) -> None:
    ship, other = (s.id for s in movement.ships_of("A")[:2])
    bad = Activate(ship, None, Advance(ship, "ahead", Turn("end", "port", 170.0), player="A"), None, player="A")
    good = Activate(other, None, Advance(other, "ahead", None, player="A"), None, player="A")
    given = orders(movement, so.ShipOrders(ship, bad), so.ShipOrders(other, good), fallback=fallback)
    found = so.step(view_of(movement, "A"), given, RULES)
    assert found is not None
    if fallback == "wait":
        assert found.command is None and found.reason == "wait"
        assert found.note == f"{ship}'s move is no longer legal: waiting for you"
    elif fallback == "skip":
        assert found.command == good  # the next order goes ahead
        assert found.note == f"{ship}'s move is no longer legal: skipped; moved {other} as ordered"
    else:
        assert isinstance(found.command, Activate) and found.command.ship == ship and found.reason == "fallback"
        assert found.command != bad


def test_discretion_lets_the_captain_play(movement: Game) -> None:
    found = so.step(view_of(movement, "A"), orders(movement, discretion=True), RULES)
    assert found is not None and isinstance(found.command, Activate) and found.reason == "discretion"


def test_the_captains_orders_cover_every_ship(movement: Game) -> None:
    given = so.captain_orders(view_of(movement, "A"), RULES, 1)
    ships = [s.id for s in movement.ships_of("A") if s.can_act]
    assert [o.ship for o in given.ships] == ships
    assert all(isinstance(o.move, Activate) and o.attack == "best" for o in given.ships)
    assert (given.reroll, given.fallback) == ("fortune", "discretion")
