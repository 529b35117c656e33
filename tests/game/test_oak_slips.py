"""Oak & Iron's last rule slips (issue 24, part 0), each played with scripted dice from the words of
the card or the rulebook it broke (the card texts in game/data, the rulebook's own words)."""

from __future__ import annotations

from dataclasses import replace

from game.table_session import TableSession
from tests.helpers import S, session

FILLER_A = ["Down!", "Careful Aim", "Effective Fire", "Adjust Position"]
FILLER_B = ["Take Courage", "Reload!", "Favorable Wind", "Fleet Maneuver"]


# ---------------------------------------------------------------- 1. borrowed on-reveal effects

# Await New Orders: "On reveal, place another card from your hand on this one: use that card's effect
# with this card's value." Take Courage: "On reveal, each ship in Formation removes 1 Fatigue."
# Adaptive Tactics: "use the effect of one of the opponent's discarded initiative cards". Raise the
# Black: "enemy ships within Musket Shot of yours take a Skill Test with 3 fewer dice; each failure
# takes 1 Fatigue."


def await_new_orders() -> TableSession:
    # Galleon (the Flagship) and Tender in Formation, Sloop far off and out of it; all at Fatigue 2
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"fatigue": 2}),
             S("Tender", "Sloop", 10, 24, 0, "A", {"fatigue": 2}),
             S("Straggler", "Sloop", 32, 4, 0, "A", {"fatigue": 2}),
             S("Frigate", "Sixth Rate", 25, 30, 0, "B")]
    hands = {"A": ["Await New Orders", "Take Courage", *FILLER_A],
             "B": ["Favorable Wind", "Fire as She Bears", "Reload!", "Fleet Maneuver", "Careful Aim"]}
    t = session(ships, hands=hands, flagships={"A": "Galleon"})
    for line in ("pick A Await New Orders", "pick B Favorable Wind", "pick A Down!", "pick B Fire as She Bears"):
        t.submit_line(line)
    assert [(c.kind, c.player) for c in t.state.choices] == [("borrow", "A")]
    return t


def test_await_new_orders_borrowing_take_courage_removes_the_formations_fatigue() -> None:
    t = await_new_orders()
    t.submit_line("borrow Take Courage")
    fatigue = {s.id: s.fatigue for s in t.state.ships_of("A")}
    assert fatigue == {"Galleon": 1, "Tender": 1, "Straggler": 2}  # only the Formation; it used to stay 2
    assert t.state.squadron("A").borrowed == "Take Courage" and t.state.initiative == "B"  # its own value, 1
    assert not t.state.choices and t.state.phase.value == "movement"


def test_await_new_orders_borrowing_a_card_without_a_reveal_effect_removes_nothing() -> None:
    t = await_new_orders()
    t.submit_line("borrow Effective Fire")
    assert {s.fatigue for s in t.state.ships_of("A")} == {2}


def test_await_new_orders_borrowing_fleet_maneuver_offers_the_formations_free_turns() -> None:
    """Fleet Maneuver: "On reveal, each ship in Formation that is not Entangled or Aground makes a free
    speed-1 turn." Borrowed, its turns wait as the card's own do, and the Movement Phase follows them."""
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Tender", "Sloop", 10, 24, 0, "A"),
             S("Straggler", "Sloop", 32, 4, 0, "A"), S("Frigate", "Sixth Rate", 25, 30, 0, "B")]
    hands = {"A": ["Await New Orders", "Fleet Maneuver", *FILLER_A],
             "B": ["Favorable Wind", "Fire as She Bears", "Reload!", "Take Courage", "Careful Aim"]}
    t = session(ships, hands=hands, flagships={"A": "Galleon"})
    for line in ("pick A Await New Orders", "pick B Favorable Wind", "pick A Down!", "pick B Fire as She Bears"):
        t.submit_line(line)
    t.submit_line("borrow Fleet Maneuver")
    assert [(c.kind, c.ship) for c in t.state.choices] == [("free_turn", "Galleon"), ("free_turn", "Tender")]
    t.submit_line("freeturn Galleon starboard 20")
    t.submit_line("freeturn Tender skip")
    assert t.state.ship("Galleon").heading == 20 and t.state.ship("Tender").heading == 0
    assert not t.state.choices and t.state.phase.value == "movement"


def test_adaptive_tactics_borrowing_raise_the_black_makes_the_enemies_take_the_test() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B"),
             S("Cutter", "Corvette", 30, 30, 0, "B")]
    t = session(ships, hands={"A": ["Adaptive Tactics", *FILLER_A], "B": FILLER_B})
    t.state = t.state.with_squadron(replace(t.state.squadron("B"), discards=("Raise the Black",)))
    for line in ("pick A Adaptive Tactics", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    assert t.state.choices[0].options == ("Raise the Black",)
    t.submit_line("dice skull skull")  # Frigate's test: 5 - 3 = 2 dice, no sail or sword
    t.submit_line("borrow Raise the Black")
    # Frigate is within Musket Shot of Galleon and fails; Cutter is too far to be tested
    assert t.state.ship("Frigate").fatigue == 1 and t.state.ship("Cutter").fatigue == 0
    rolled = [e for e in t.events if type(e).__name__ == "DiceRolled"][-1]
    assert (rolled.purpose, rolled.ship, rolled.faces) == ("card_test", "Frigate", ("skull", "skull"))


# ---------------------------------------------------------------- 2. a scenario's named admiral

# An admiral card gives its value (a tie of cards: "the player with the higher admiral value has the
# initiative. If there is a still a tie, both players perform a Challenge Test", the rulebook's
# Initiative Phase) and its keywords: Brilliant "+1 Skill for the officer's ship (Skill re-rolls)",
# Lucky "+1 Fortune Point for the squadron" (keywords.toml). Experienced Brilliant is value 1,
# Seasoned Lucky value 2.


def admirals(a: str, b: str) -> TableSession:
    from game.scenario import load_scenario_text
    from tests.helpers import scenario_text

    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    text = scenario_text(ships)  # `fortune = 3` for both, no admiral_value
    text = text.replace('player = "A"\n', f'player = "A"\nadmiral = "{a}"\n')
    text = text.replace('player = "B"\n', f'player = "B"\nadmiral = "{b}"\n')
    return TableSession(load_scenario_text(text))


def test_a_scenarios_admirals_break_a_card_tie_by_their_values() -> None:
    t = admirals("Experienced Brilliant", "Seasoned Lucky")
    assert [(q.admiral_value, q.fortune) for q in t.state.squadrons] == [(1, 3), (2, 4)]  # Lucky: 3 + 1
    t.submit_line("pick A Down!")
    t.submit_line("pick B Fire as She Bears")  # 1 against 1, no event deck: admiral values, 1 against 2
    won = [e for e in t.events if type(e).__name__ == "InitiativeWon"][0]
    assert (won.player, won.reason) == ("B", "admiral")  # it went to a Challenge Test


def test_a_scenarios_brilliant_admiral_gives_the_flagship_a_skill_reroll() -> None:
    from tests.helpers import plain, to_movement

    t = admirals("Experienced Brilliant", "Untested")
    assert (t.state.ship("Kestrel").skill, t.state.ship("Otter").skill) == (1, 0)
    to_movement(t)  # B moves first
    t.submit_line(plain(t, "move Otter"))
    t.submit_line("dice skull cannon musket pistol skull")  # the Adjust Speed test fails
    t.submit_line("move Kestrel adjust +1")
    t.submit_line("dice sail")
    t.submit_line("reroll 1")  # refused before: "Skill 0"
    again = [e for e in t.events if type(e).__name__ == "DiceRerolled"][-1]
    assert (again.ship, again.means, again.positions, again.faces) == (
        "Kestrel", "skill", (0,), ("sail", "cannon", "musket", "pistol", "skull"))
    assert t.state.pending is None and t.state.squadron("A").fortune == 3  # passed without Fortune


def test_an_admiral_value_written_in_the_scenario_still_stands() -> None:
    from game.scenario import load_scenario_text
    from tests.helpers import scenario_text

    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    text = scenario_text(ships).replace('player = "B"\n', 'player = "B"\nadmiral = "Seasoned Lucky"\nadmiral_value = 0\n')
    assert load_scenario_text(text).squadron("B").admiral_value == 0


# ---------------------------------------------------------------- 3. a beaten squadron plays no card

# "If an entire Squadron is Captured or Out of Action, that Squadron may not play an initiative card
# this round." (the rulebook's Fleet Battles, Initiative Phase). A2 (Tonnant, Pelican) picks first,
# at the pick of turn 3, with a full hand: Tonnant Captured by B1, Pelican Out of Action.


def beaten_a2(pelican_out: bool = True):  # type: ignore[no-untyped-def]
    from game.model import Phase, Status, evolve
    from game.scenario import builtin_scenarios, load_scenario_text

    state = load_scenario_text(builtin_scenarios()["fleet_battle"], "fleet_battle.toml")
    tonnant, pelican = state.ship("Tonnant"), state.ship("Pelican")
    state = state.with_ship(evolve(tonnant, controller="B1", statuses=tonnant.statuses | {Status.CAPTURED}))
    if pelican_out:
        state = state.with_ship(evolve(pelican, statuses=pelican.statuses | {Status.OUT_OF_ACTION}))
    return evolve(state, phase=Phase.INITIATIVE, turn=3)


def test_a_squadron_wholly_captured_or_out_of_action_may_not_play_a_card_even_first() -> None:
    import pytest

    from game.commands import PickCard
    from game.dice import ScriptedDice
    from game.engine import decide_and_apply
    from game.errors import IllegalAction
    from game.rules_data import load_rules

    rules = load_rules()
    state = beaten_a2()
    assert not any(q.picked for q in state.squadrons)  # nobody has picked: A2 would be first
    with pytest.raises(IllegalAction, match="wholly Captured or Out of Action"):
        decide_and_apply(state, PickCard("A2", "Take Courage"), ScriptedDice([]), rules)
    _, after = decide_and_apply(state, PickCard("B1", "Down!"), ScriptedDice([]), rules)
    a2 = after.squadron("A2")
    assert a2.picked and a2.face_down is None and "Take Courage" in a2.hand  # no card, made for it
    # with one ship still in play (Pelican afloat) the same pick is A2's to make
    _, fine = decide_and_apply(beaten_a2(pelican_out=False), PickCard("A2", "Take Courage"), ScriptedDice([]), rules)
    assert fine.squadron("A2").face_down == "Take Courage"


# ---------------------------------------------------------------- 4. re-capture by boarding

# "A ship may be re-captured by having a ship from its original squadron become Entangled with it.
# Once Entangled, remove the Captured token. Re-captured ships remain Shaken, but will otherwise
# operate normally." (the rulebook's Captured). Prize, B's Corvette, lies Captured by A, Shaken at
# Fatigue 7, 0.8" off the port side of B's Cutter; both at anchor.


def prize_alongside() -> TableSession:
    from game.model import Status, evolve
    from tests.helpers import to_movement

    ships = [S("Galleon", "Light Galleon", 30, 30, 0, "A"),
             S("Cutter", "Sloop", 10, 10, 90, "B", {"sail": "anchored"}),
             S("Prize", "Corvette", 10, 12, 90, "B", {"sail": "anchored", "fatigue": 7})]
    t = session(ships, fortune=0, flagships={"B": "Cutter"})
    prize = t.state.ship("Prize")
    t.state = t.state.with_ship(evolve(prize, controller="A", statuses=prize.statuses | {Status.CAPTURED}))
    to_movement(t)  # B's Take Courage beats A's Down!: B moves first
    assert t.state.active_player == "B"
    return t


def test_a_ship_of_its_own_squadron_recaptures_a_prize_by_boarding_it() -> None:
    from game.model import Status

    t = prize_alongside()
    t.submit_line("dice sail cannon musket pistol skull")  # the Boarding Skill Test: one sail passes
    t.submit_line("move Cutter crew board Prize")
    p = t.state.ship("Prize")
    assert Status.CAPTURED not in p.statuses and (p.owner, p.controller) == ("B", "B")
    assert p.shaken and p.fatigue == 7 and p.entangled_with == {"Cutter"}
    changed = [e for e in t.events if type(e).__name__ == "ControlChanged"][-1]
    assert (changed.ship, changed.reason) == ("Prize", "recaptured")


def test_a_failed_boarding_test_leaves_the_prize_captured() -> None:
    from game.model import Status

    t = prize_alongside()
    t.submit_line("dice skull cannon musket pistol skull")  # no sail: failed (Skill 0, no Fortune)
    t.submit_line("move Cutter crew board Prize")
    p = t.state.ship("Prize")
    assert Status.CAPTURED in p.statuses and p.controller == "A" and not p.entangled


FLEET = """
name = "prize"
seed = 7
test_dice = true
defender = "Crown"
[table]
width = 36
height = 36
weather_edge = "N"
[[squadron]]
player = "A1"
team = "Allies"
fortune = 0
hand = ["Down!", "Careful Aim"]
[[squadron.ship]]
name = "Galleon"
class = "Corvette"
x = 30
y = 30
heading = 0
[[squadron]]
# fleet building wants 2-4 squadrons a side of equal points (14 each): A2 is out of the fight
player = "A2"
team = "Allies"
fortune = 0
hand = ["Down!", "Careful Aim"]
[[squadron.ship]]
name = "Hulk"
class = "Sloop"
x = 30
y = 5
heading = 0
damage = 7
fatigue = 7
[[squadron]]
player = "B1"
team = "Crown"
fortune = 0
hand = ["Down!", "Careful Aim"]
[[squadron.ship]]
name = "Prize"
class = "Corvette"
x = 10
y = 12
heading = 90
sail = "anchored"
fatigue = 7
[[squadron]]
player = "B2"
team = "Crown"
fortune = 0
hand = ["Favorable Wind", "Fleet Maneuver"]
[[squadron.ship]]
name = "Cutter"
class = "Sloop"
x = 10
y = 10
heading = 90
sail = "anchored"
"""


def test_only_its_own_squadron_may_board_a_prize() -> None:
    """B2's Cutter is of the prize's side but not of its squadron (B1): its Boarding is refused before
    any test is rolled or Crew Action spent, where it used to be taken and do nothing."""
    import pytest

    from game.errors import IllegalAction
    from game.model import Status, evolve
    from game.scenario import load_scenario_text

    t = TableSession(load_scenario_text(FLEET))
    prize = t.state.ship("Prize")
    t.state = t.state.with_ship(evolve(prize, controller="A1", statuses=prize.statuses | {Status.CAPTURED}))
    for line in ("pick A1 Down!", "pick B2 Favorable Wind", "pick A1 Careful Aim", "pick B2 Fleet Maneuver"):
        t.submit_line(line)
    for ch in t.state.choices:  # Fleet Maneuver's free turn, not taken
        t.submit_line(f"freeturn {ch.ship} skip")
    assert t.state.active_player == "B2"
    before = t.state
    with pytest.raises(IllegalAction, match="only a ship of its own squadron"):
        t.submit_line("move Cutter crew board Prize")
    assert t.state == before
