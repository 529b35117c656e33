"""Fleet battles (the rulebook's Fleet Battles): sides of several squadrons, summed initiative, whole-squadron
activations in the Movement Phase, side-by-side alternation in the Attack Phase, fleet withdrawal."""

from __future__ import annotations

from game.ai.match import ai_game
from game.apply import apply
from game.model import Phase
from game.scenario import builtin_scenarios, load_scenario_text
from game.table_session import TableSession
from tests.game.test_replay_and_properties import check_invariants
from tests.helpers import plain

FLEET = builtin_scenarios()["fleet_battle"]


def fleet(text: str = FLEET) -> TableSession:
    return TableSession(load_scenario_text(text, "fleet_battle.toml"))


def picks(t: TableSession, first: dict[str, str], second: dict[str, str]) -> None:
    for cards in (first, second):
        for player, card in cards.items():
            t.submit_line(f"pick {player} {card}")


def test_sides_add_up_their_cards_for_the_initiative() -> None:
    t = fleet()
    # Allies 3 + 2 = 5 against Crown 4 + 4 = 8, though A1's card alone beats either of Crown's
    picks(t, {"A1": "Effective Fire", "A2": "Take Courage", "B1": "Lee Gauge Fire", "B2": "Shoals Ahead"},
          {"A1": "Down!", "A2": "Reload!", "B1": "Down!", "B2": "Reload!"})
    assert t.state.initiative == "Crown"
    assert t.state.phase is Phase.MOVEMENT and t.state.active_player == "B1"


def test_a_whole_squadron_activates_then_the_other_side() -> None:
    t = fleet()
    picks(t, {"A1": "Effective Fire", "A2": "Take Courage", "B1": "Lee Gauge Fire", "B2": "Shoals Ahead"},
          {"A1": "Down!", "A2": "Reload!", "B1": "Down!", "B2": "Reload!"})
    order = []
    while t.state.phase is Phase.MOVEMENT:
        player = t.state.active_player
        assert player is not None
        ship = next(s for s in t.state.ships_of(player) if s.id not in t.state.activated)
        order.append(player)
        t.submit_line(plain(t, f"move {ship.id}"))
    assert order == ["B1", "B1", "A1", "A1", "B2", "B2", "A2", "A2"]
    # Attack Phase: sides alternate ship by ship, any squadron of the side
    assert t.state.active_player == "Crown"
    t.submit_line("pass Neptune")  # B2's ship, though B1 moved first
    assert t.state.active_player == "Allies"
    t.submit_line("pass Pelican")
    assert t.state.active_player == "Crown"


def test_a_squadron_wholly_out_of_action_plays_no_card() -> None:
    text = FLEET.replace('name = "Neptune"\nclass = "Fourth Rate"', 'name = "Neptune"\nclass = "Fourth Rate"\ndamage = 7\nfatigue = 7')
    text = text.replace('name = "Dolphin"\nclass = "Brigantine"', 'name = "Dolphin"\nclass = "Brigantine"\ndamage = 7\nfatigue = 7')
    t = fleet(text)
    for line in ("pick A1 Effective Fire", "pick A2 Take Courage", "pick B1 Lee Gauge Fire"):
        t.submit_line(line)
    # B2 has no ship left to fight: it plays no card, and turn 1 begins without it
    assert t.state.turn == 1 and t.state.squadron("B2").face_up is None
    assert t.state.initiative == "Allies"  # 3 + 2 against 4 + nothing


def test_withdrawal_counts_the_whole_fleet() -> None:
    # one Allied squadron badly hurt: 2 Crippled ships (2 Strike Points) but the fleet has 4 ships
    text = FLEET.replace('name = "Resolution"\nclass = "Fifth Rate"', 'name = "Resolution"\nclass = "Fifth Rate"\ndamage = 7')
    text = text.replace('name = "Swallow"\nclass = "Sloop"', 'name = "Swallow"\nclass = "Sloop"\ndamage = 7')
    t = fleet(text)
    picks(t, {"A1": "Effective Fire", "A2": "Take Courage", "B1": "Lee Gauge Fire", "B2": "Shoals Ahead"},
          {"A1": "Down!", "A2": "Reload!", "B1": "Down!", "B2": "Reload!"})
    from tests.helpers import default_orders

    default_orders(t, ("movement", "attack"))
    assert t.state.phase is not Phase.OVER  # 2 Strike Points against 4 ships: the Allies fight on
    assert dict(t.state.strike_points)["A1"] == 2


def test_two_against_two_played_to_the_end_by_computer_captains() -> None:
    game = load_scenario_text(FLEET, "fleet_battle.toml")
    for seed in (1, 2):
        t = ai_game(seed, game=game)
        state = t.initial
        for e in t.events:
            state = apply(state, e)
            check_invariants(state)
        assert state == t.state and t.state.phase is Phase.OVER
        assert t.state.winner in ("Allies", "Crown")
