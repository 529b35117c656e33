"""Nation and keyword initiative cards through the same effect engine, one test each."""

from __future__ import annotations

import pytest

from game import events as ev
from game.errors import RulesError
from game.model import Sail
from game.table_session import TableSession
from tests.helpers import S, default_orders, plain, session, win_challenge

FILLER_A = ["Down!", "Careful Aim", "Effective Fire", "Adjust Position"]
FILLER_B = ["Take Courage", "Reload!", "Favorable Wind", "Fleet Maneuver"]


def play(a_card: str, b_card: str = "Take Courage", ships: list[S] | None = None, a_first: bool = True,
         **kw: object) -> TableSession:
    """A and B reveal these cards on turn 1 (A's card must beat B's to give A the initiative)."""
    ships = ships or [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    hand_a = [a_card] + [c for c in FILLER_A if c != a_card]
    hand_b = [b_card] + [c for c in FILLER_B if c != b_card]
    t = session(ships, hands={"A": hand_a, "B": hand_b}, **kw)
    t.submit_line(f"pick A {a_card}")
    if t.rules.cards[a_card].value == t.rules.cards[b_card].value:
        win_challenge(t, "A" if a_first else "B")
    for line in (f"pick B {b_card}", f"pick A {hand_a[1]}", f"pick B {hand_b[1]}"):
        t.submit_line(line)
    return t


def broadside_dice(t: TableSession) -> int:
    return len([e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "broadside"][-1].faces)


def test_superior_firepower_adds_two_broadside_dice() -> None:
    t = play("Superior Firepower", "Take Courage")
    default_orders(t)
    t.submit_line("dice " + " ".join(["musket"] * 7))
    t.submit_line("fire Galleon starboard Frigate")
    assert broadside_dice(t) == 7


def test_target_rigging_adds_a_die_against_rigging() -> None:
    t = play("Target Rigging", "Take Courage")
    default_orders(t)
    t.submit_line("dice sail sail sail")
    t.submit_line("fire Galleon starboard Frigate aim rigging")
    assert broadside_dice(t) == 3  # 5 // 2 = 2, +1 with the card


def test_seize_the_opportunity_two_dice_out_of_formation() -> None:
    t = play("Seize the Opportunity", "Take Courage")
    default_orders(t)
    t.submit_line("dice " + " ".join(["musket"] * 7))
    t.submit_line("fire Galleon starboard Frigate")
    assert broadside_dice(t) == 7


def test_engage_more_closely_two_dice_within_pistol_shot_only() -> None:
    near = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 10.8 + 0.7 + 3, 18, 0, "B")]
    t = play("Engage More Closely", "Take Courage", ships=near)
    default_orders(t)
    t.submit_line("dice " + " ".join(["musket"] * 7))
    t.submit_line("fire Galleon starboard Frigate")
    assert broadside_dice(t) == 7
    far = play("Engage More Closely", "Take Courage")
    default_orders(far)
    far.submit_line("dice " + " ".join(["musket"] * 5))
    far.submit_line("fire Galleon starboard Frigate")
    assert broadside_dice(far) == 5


def test_aggression_one_more_fatigue_within_musket_shot() -> None:
    t = play("Aggression", "Take Courage")
    default_orders(t)
    t.submit_line("dice musket sail sail sail sail")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").fatigue == 2


def test_resilient_takes_one_off_the_damage_of_each_attack() -> None:
    t = play("Superior Firepower", "Resilient")  # B has the initiative
    default_orders(t)
    t.submit_line("pass Frigate")
    t.submit_line("dice " + " ".join(["musket"] * 6) + " pistol")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").damage == 2  # 6 hits on Fortitude 2 = 3, less 1


def test_bravado_ignores_fatigue_while_not_shaken() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"fatigue": 4}), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    t = play("Bravado", "Take Courage", ships=ships)
    default_orders(t)
    t.submit_line("dice " + " ".join(["musket"] * 5))
    t.submit_line("fire Galleon starboard Frigate")
    assert broadside_dice(t) == 5  # not 3 (Crew): the Fatigue is ignored


def test_deception_forbids_attacks_at_cannon_shot() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 10.8 + 0.7 + 10, 18, 0, "B")]
    t = play("Adjust Position", "Deception", ships=ships)
    default_orders(t)
    from game.errors import IllegalAction

    with pytest.raises(IllegalAction) as err:
        t.submit_line("fire Galleon starboard Frigate")
    assert "cannot be attacked at Cannon Shot" in err.value.text


def test_repel_boarders_close_combat_hits_only_on_skull() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"),
             S("Frigate", "Sixth Rate", 11.5, 18, 0, "B", {"entangled_with": ["Galleon"]})]
    t = play("Effective Fire", "Repel Boarders", ships=ships)
    default_orders(t)
    t.submit_line("dice skull pistol sword sword sword sword")
    t.submit_line("melee Galleon Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").fatigue == 1


def test_long_range_gunnery_cannons_roll_again_at_cannon_shot() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 10.8 + 0.7 + 10, 18, 0, "B")]
    t = play("Long Range Gunnery", "Take Courage", ships=ships)
    default_orders(t)
    t.submit_line("dice cannon cannon sail sail sail cannon sail sail")  # 2 cannons: 2 more, 1 more cannon: 1 more
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    hits = [e for e in t.events if isinstance(e, ev.AttackResolved)][-1].hits
    assert hits == 3


def test_adjust_formation_counts_ships_near_a_friend() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Tender", "Sloop", 8, 18, 0, "A"),
             S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    t = play("Adjust Formation", "Take Courage", ships=ships, flagships={"A": "Galleon"})
    default_orders(t)
    t.submit_line("dice " + " ".join(["musket"] * 6))
    t.submit_line("fire Galleon starboard Frigate")
    assert broadside_dice(t) == 6  # side by side is no line ahead, but the card counts it as Formation


def test_elan_a_crew_action_partial_fire_with_a_die_more() -> None:
    t = play("Elan", "Take Courage")  # B has the initiative and moves first
    t.submit_line(plain(t, "move Frigate"))
    from game.errors import IllegalAction

    with pytest.raises(IllegalAction):
        t.submit_line("move Galleon crew fire starboard Frigate")  # Elan allows Partial Fire or Close Combat
    t.submit_line("dice musket musket musket musket")
    t.submit_line("move Galleon crew partial Frigate")
    rolled = [e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "partial"][-1]
    assert len(rolled.faces) == 4  # Crew 3 + 1


def test_heavy_musket_volley_cannot_damage() -> None:
    t = play("Heavy Musket Volley", "Take Courage")
    t.submit_line("dice skull skull skull skull skull")
    t.submit_line("move Galleon crew partial Frigate")
    f = t.state.ship("Frigate")
    assert f.damage == 0 and f.fatigue == 1


def test_boarders_away_boarding_passes_against_an_anchored_ship() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"),
             S("Frigate", "Sixth Rate", 10.8 + 0.7 + 0.6, 18, 0, "B", {"sail": "anchored"})]
    t = play("Boarders Away", "Take Courage", ships=ships)
    t.submit_line("move Galleon crew board Frigate")
    assert t.state.ship("Galleon").entangled_with == {"Frigate"}
    assert not any(isinstance(e, ev.DiceRolled) and e.purpose == "boarding" for e in t.events)
    assert t.state.ship("Frigate").sail is Sail.ANCHORED


def test_fast_loaders_every_ship_reloads_on_reveal() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"reload": ["port", "starboard"]}),
             S("Tender", "Sloop", 4, 30, 0, "A", {"reload": ["port"]}), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    t = play("Fast Loaders", "Take Courage", ships=ships)
    assert len(t.state.ship("Galleon").reload) == 1 and not t.state.ship("Tender").reload


def test_intrepid_needs_an_intrepid_admiral() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"fatigue": 2}),
             S("Tender", "Sloop", 10, 24, 0, "A", {"fatigue": 2}), S("Frigate", "Sixth Rate", 20, 18, 0, "B")]
    t = play("Intrepid", "Take Courage", ships=ships, flagships={"A": "Galleon"})
    assert t.state.ship("Galleon").fatigue == 2  # an Untested admiral has no Intrepid keyword
    from game.scenario import load_scenario_text
    from tests.helpers import scenario_text

    text = scenario_text(ships, hands={"A": ["Intrepid", *FILLER_A], "B": FILLER_B}, flagships={"A": "Galleon"})
    text = text.replace('player = "A"\n', 'player = "A"\nadmiral = "Bartholomew \\"Black Bart\\" Roberts"\n', 1)
    t2 = TableSession(load_scenario_text(text))
    for line in ("pick A Intrepid", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t2.submit_line(line)
    # Black Bart is Intrepid; Tender is 2.05" from the Flagship: within Musket Shot
    assert t2.state.ship("Galleon").fatigue == 1 and t2.state.ship("Tender").fatigue == 1


def test_swift_vessels_every_ship_makes_a_free_speed_1_move() -> None:
    ships = [S("Kestrel", "Sloop", 10, 18, 180, "A"), S("Tender", "Sloop", 4, 18, 0, "A"),
             S("Frigate", "Sixth Rate", 25, 18, 0, "B")]
    t = play("Swift Vessels", "Take Courage", ships=ships)
    assert t.state.ship("Kestrel").y == pytest.approx(18 - 0.86)
    assert t.state.ship("Tender").y == 18  # In the Wind's Eye: no free move


def test_raise_the_black_tests_enemies_within_musket_shot() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B"),
             S("Cutter", "Corvette", 30, 30, 0, "B")]
    hand_a = ["Raise the Black", *FILLER_A]
    t = session(ships, hands={"A": hand_a, "B": FILLER_B})
    t.submit_line("dice skull skull")  # Frigate's test: 5 - 3 = 2 dice, no sail or sword
    for line in ("pick A Raise the Black", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    assert t.state.ship("Frigate").fatigue == 1 and t.state.ship("Cutter").fatigue == 0


def test_zeal_the_flagship_rally_heartens_friends_nearby() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"fatigue": 2}),
             S("Tender", "Sloop", 10, 24, 0, "A", {"fatigue": 2}), S("Frigate", "Sixth Rate", 25, 18, 0, "B")]
    t = play("Zeal", "Take Courage", ships=ships, flagships={"A": "Galleon"})
    t.submit_line(plain(t, "move Frigate"))
    t.submit_line("dice sail")
    t.submit_line("move Galleon crew rally")
    assert t.state.ship("Galleon").fatigue == 1 and t.state.ship("Tender").fatigue == 1


def test_an_objective_feeds_strike_points() -> None:
    from game.phases.end import strike_points
    from game.rules_data import load_rules
    from game.scenario import load_scenario_text
    from tests.helpers import scenario_text

    ships = [S("Galleon", "Light Galleon", 18, 18, 0, "A"), S("Frigate", "Sixth Rate", 30, 30, 0, "B")]
    state = load_scenario_text(scenario_text(ships).replace("seed = 7\n", 'seed = 7\nobjective = "Hold the Anchorage"\n'))
    rules = load_rules()
    assert strike_points(state, "A", rules) == 0  # Galleon sits on the centre
    assert strike_points(state, "B", rules) == 1  # nobody of B's within Musket Shot of it


def test_expert_boarding_a_free_close_combat_after_a_boarding() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"),
             S("Frigate", "Sixth Rate", 10.8 + 0.7 + 0.6, 18, 0, "B", {"sail": "anchored"})]
    t = play("Expert Boarding", "Take Courage", ships=ships)
    t.submit_line("dice sail")  # the Boarding test passes
    t.submit_line("move Galleon crew board Frigate")
    offer = t.state.offer
    assert offer is not None and offer.player == "A" and offer.attack == "close" and offer.target == "Frigate"
    t.submit_line("dice skull pistol sword musket cannon sail")  # 3 + Crew 3
    t.submit_line("free melee Galleon Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").fatigue >= 1 and t.state.offer is None
    assert t.state.active_player == "B"


def test_lured_into_the_shoals_places_a_shoal_near_a_friend_and_clear_of_ships() -> None:
    t = play("Lured into the Shoals", "Fire as She Bears")
    choice = t.state.choices[0]
    assert (choice.player, choice.kind) == ("A", "place_terrain")
    with pytest.raises(RulesError, match='within 1" of Galleon'):
        t.submit_line("A: shoal 10 21.5")
    with pytest.raises(RulesError, match='within 8" of one of your ships'):
        t.submit_line("A: shoal 10 33")
    t.submit_line("A: shoal 10 26")
    shoal = t.state.table.terrain[-1]
    assert shoal.kind.value == "shoal" and not t.state.choices
    assert min(p[1] for p in shoal.points) == pytest.approx(24.25, abs=0.01)
    assert t.state.phase.value == "movement"


def test_boarding_through_the_smoke_fires_a_partial_volley_before_the_boarding() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"),
             S("Frigate", "Sixth Rate", 10.8 + 0.7 + 0.6, 18, 0, "B", {"sail": "anchored"})]
    t = play("Boarding Through the Smoke", "Take Courage", ships=ships)
    t.submit_line("move Galleon crew board Frigate")
    kinds = [(e.purpose, e.ship) for e in t.events if isinstance(e, ev.DiceRolled)][-2:]
    assert kinds[0] == ("partial", "Galleon")  # the volley first, with no re-roll prompt in between
    assert kinds[1][0] == "boarding"
    assert any(isinstance(e, ev.AttackResolved) and e.kind == "partial" and e.target == "Frigate" for e in t.events)
    plain = play("Effective Fire", "Take Courage", ships=ships)
    plain.submit_line("move Galleon crew board Frigate")
    assert not any(isinstance(e, ev.DiceRolled) and e.purpose == "partial" for e in plain.events)


def test_adaptive_tactics_borrows_an_effect_from_the_opponents_discards() -> None:
    from dataclasses import replace

    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    hand_a = ["Adaptive Tactics", *FILLER_A]
    t = session(ships, hands={"A": hand_a, "B": FILLER_B})
    t.state = t.state.with_squadron(replace(t.state.squadron("B"), discards=("Fire as She Bears", "Small Arms")))
    for line in ("pick A Adaptive Tactics", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    choice = t.state.choices[0]
    assert (choice.kind, choice.player, choice.options) == ("borrow", "A", ("Fire as She Bears", "Small Arms"))
    with pytest.raises(RulesError):
        t.submit_line("borrow Effective Fire")  # in A's hand, not among B's discards
    t.submit_line("borrow Small Arms")
    assert t.state.squadron("A").borrowed == "Small Arms" and t.state.initiative == "A"  # its own value, 4


def test_doughty_removes_fatigue_after_a_turn_that_earned_strike_points() -> None:
    from dataclasses import replace

    from game.scenario import load_scenario_text
    from tests.helpers import scenario_text

    def reveal(earned: int) -> TableSession:
        ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"fatigue": 2}),
                 S("Tender", "Sloop", 4, 18, 0, "A", {"fatigue": 1}), S("Frigate", "Sixth Rate", 20, 18, 0, "B")]
        text = scenario_text(ships, hands={"A": ["Doughty", *FILLER_A], "B": FILLER_B}, flagships={"A": "Galleon"})
        text = text.replace('player = "A"\n', 'player = "A"\nadmiral = "John Benbow"\n', 1)  # Doughty
        t = TableSession(load_scenario_text(text))
        t.submit_line("pick A Doughty")
        t.submit_line("pick B Take Courage")
        t.state = replace(t.state, strike_points=(("A", earned), ("B", 0)))
        t.submit_line("pick A Down!")
        t.submit_line("pick B Reload!")
        return t

    quiet, hurt = reveal(0), reveal(1)
    assert [s.fatigue for s in quiet.state.ships_of("A")] == [2, 1]
    assert [s.fatigue for s in hurt.state.ships_of("A")] == [1, 0]
