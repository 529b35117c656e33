"""Upgrade cards and officers' keywords: each one changes what the engine computes for the ship
that carries it (and only that ship), and several are shown in play with scripted dice."""

from __future__ import annotations

import pytest

from game import effects
from game.model import Game, PointOfSail, Ship
from game.rules_data import load_rules
from game.setup import game_from_squadrons
from game.squadron import ShipEntry, SquadronList
from game.table_session import TableSession
from tests.helpers import S, session, to_movement

RULES = load_rules()
HAND = ("Down!", "Careful Aim", "Take Courage", "Effective Fire", "Reload!")


def with_card(card: str = "", captain: str = "", admiral: str = "Untested", faction: str = "Pirate") -> Game:
    """A's Swallow (a Fifth Rate, not the Flagship) carries the card or captain, A's Flagship the
    admiral; B has neither."""
    def squadron(cards: tuple[str, ...], cap: str, adm: str) -> SquadronList:
        return SquadronList("S", "skirmish", faction, adm, "Flag",
                            (ShipEntry("Flag", "Fifth Rate"), ShipEntry("Swallow", "Fifth Rate", 0, (), cap, cards)),
                            HAND)
    return game_from_squadrons(squadron((card,) if card else (), captain, admiral), squadron((), "", "Untested"), RULES)


def measures(game: Game, ship: Ship) -> dict[str, object]:
    """Everything an upgrade card or keyword may change, as the engine computes it for the ship."""
    return {
        "stats": (ship.fortitude, ship.broadside, ship.crew, ship.skill),
        "dice": tuple(effects.dice_bonus(game, ship, r, RULES, aim="rigging" if r == "rigging" else "hull")
                      for r in ("broadside", "partial", "close", "rigging")),
        "tests": tuple(effects.test_dice(game, ship, t, RULES) for t in ("boarding", "seamanship", "rally")),
        "speed": effects.speed_bonus(game, ship, PointOfSail.LARGE, RULES),
        "rally": effects.extra(game, ship, "rally", RULES), "repair": effects.extra(game, ship, "repair", RULES),
        "other": tuple(sorted(str(e.get("kind")) for _, e in effects.ship_effects(game, ship, RULES)
                              if e.get("kind") in ("damage_taken", "reload_all", "hit_faces", "fatigue_given",
                                                   "free_reroll", "admiral_value", "formation_rule"))),
    }


@pytest.mark.parametrize("card", sorted(RULES.upgrade_cards))
def test_each_upgrade_card_changes_its_own_ship_only(card: str) -> None:
    game = with_card(card)
    mine, flag = game.ship("Swallow-A"), game.ship("Flag-A")
    plain = with_card().ship("Swallow-A")
    assert measures(game, mine) != measures(game, plain), f"{card} changes nothing"
    assert measures(game, flag) == measures(with_card(), with_card().ship("Flag-A"))  # not the other ships
    assert RULES.upgrade_cards[card].text


@pytest.mark.parametrize("keyword", sorted(k for k, v in RULES.keywords.items() if v.effects or v.stats or v.fortune))
def test_each_keyword_acts_for_its_officers_ship(keyword: str) -> None:
    captain = next((c.name for c in RULES.captains.values() if c.keywords == (keyword,)), None)
    faction = "Pirate"
    if captain is not None:  # a captain's keyword acts for its ship
        game, ship_id = with_card(captain=captain), "Swallow-A"
    else:  # an admiral's keyword acts for the Flagship
        admiral = next(a for a in RULES.admirals.values() if keyword in a.keywords)
        faction = admiral.nation or faction
        game, ship_id = with_card(admiral=admiral.name, faction=faction), "Flag-A"
    plain = with_card(faction=faction)
    assert (measures(game, game.ship(ship_id)), game.squadron("A").fortune) != \
        (measures(plain, plain.ship(ship_id)), plain.squadron("A").fortune), f"{keyword} changes nothing"
    assert measures(game, game.ship("Flag-B")) == measures(plain, plain.ship("Flag-B"))  # not the enemy's


def test_skilled_carpenter_repairs_two_and_efficient_loader_reloads_both_sides() -> None:
    t = session([S("Kestrel", "Fifth Rate", 8, 20, 180, "A", {"damage": 3, "reload": ["port", "starboard"],
                                                              "cards": ["Skilled Carpenter"]}),
                 S("Otter", "Fifth Rate", 28, 20, 180, "B", {"reload": ["port", "starboard"],
                                                            "cards": ["Efficient Loader"]})])
    to_movement(t)
    t.submit_line("move Otter crew reload port")
    assert t.state.ship("Otter").reload == frozenset()
    t.submit_line("move Kestrel crew repair")
    assert t.state.ship("Kestrel").damage == 1


def test_inspiring_captain_rallies_two_and_brilliant_captain_adds_skill() -> None:
    t = session([S("Kestrel", "Fifth Rate", 8, 20, 180, "A", {"fatigue": 3}),
                 S("Hawk", "Sixth Rate", 14, 20, 180, "A", {"fatigue": 3, "captain": "Inspiring Captain"}),
                 S("Otter", "Fifth Rate", 28, 20, 180, "B", {"captain": "Brilliant Captain"})])
    assert t.state.ship("Otter").skill == 1
    to_movement(t)
    t.submit_line("move Otter")
    t.submit_line("move Hawk crew rally")
    assert t.state.ship("Hawk").fatigue == 1
    t.submit_line("move Kestrel crew rally")
    assert t.state.ship("Kestrel").fatigue == 2


def test_persistent_rerolls_a_failed_skill_test_once_per_turn_and_bold_adds_a_die() -> None:
    ships = [S("Kestrel", "Fifth Rate", 8, 20, 180, "A", {"captain": "Captain Stede Bonnet"}),
             S("Otter", "Fifth Rate", 28, 20, 180, "B")]
    t: TableSession = session(ships, hands={"A": list(HAND), "B": list(HAND)})
    t.submit_line("pick A Down!")
    t.submit_line("pick B Careful Aim")
    t.submit_line("pick A Careful Aim")
    t.submit_line("pick B Reload!")
    # Change Heading: a Skill Test of 5 dice, all misses; Persistent rolls all five again for free
    t.submit_line("dice " + " ".join(["skull"] * 5 + ["skull"] * 4 + ["sail"]))
    if t.state.active_player == "B":  # B holds the initiative: its ship moves first
        t.submit_line("move Otter")
    t.submit_line("move Kestrel heading port 20")
    rolls = [e for e in t.events if type(e).__name__ == "DiceRolled" and e.ship == "Kestrel"]
    assert len(rolls) == 2 and "free re-roll" in rolls[1].purpose and rolls[1].successes == 1
    assert t.state.ship("Kestrel").heading == pytest.approx(160)
    assert effects.test_dice(t.state, t.state.ship("Kestrel"), "boarding", RULES) == 1  # Bold


@pytest.mark.parametrize("faction", sorted(f for f, v in RULES.factions.items() if v.effects))
def test_each_faction_rule_acts_for_its_squadrons_ships(faction: str) -> None:
    game = with_card(faction=faction)
    plain = with_card(faction="Spanish")  # the Spanish rule is the Stout discount: no effect in play
    changed = [s for s in ("Flag-A", "Swallow-A") if measures(game, game.ship(s)) != measures(plain, plain.ship(s))]
    scope = RULES.factions[faction].effects[0].get("scope")
    assert changed == (["Flag-A"] if scope == "flagship" else ["Flag-A", "Swallow-A"])
    assert RULES.factions[faction].rule.startswith("Provisional")


def tactician_tie(answer: str) -> TableSession:
    """A tie on turn 1 with Jean Hamlin (a Tactician) commanding A's Flagship."""
    from game.scenario import load_scenario_text
    from tests.helpers import scenario_text

    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")]
    text = scenario_text(ships).replace("seed = 7\n", 'seed = 7\nevents = ["Boats Adrift", "Wind Increases"]\n')
    text = text.replace('[[squadron]]\nplayer = "A"\n', '[[squadron]]\nplayer = "A"\nadmiral = "Jean Hamlin"\n')
    t = TableSession(load_scenario_text(text))
    t.submit_line("pick A Down!")
    t.submit_line("pick B Fire as She Bears")  # 1 against 1: the top event is drawn
    choice = t.state.choices[0]
    assert (choice.player, choice.kind, choice.ship) == ("A", "event_draw", "Boats Adrift")
    with pytest.raises(Exception, match="must first decide about Boats Adrift"):
        t.submit_line("pick A Careful Aim")
    t.submit_line(f"A: event {answer}")
    return t


def test_a_tactician_discards_the_event_for_the_next() -> None:
    t = tactician_tie("discard")
    assert t.state.event_face_up == "Wind Increases" and t.state.event_deck == ()
    assert t.state.initiative is not None and not t.state.choices


def test_a_tactician_may_keep_the_event() -> None:
    t = tactician_tie("keep")
    assert t.state.event_face_up == "Boats Adrift" and t.state.event_deck == ("Wind Increases",)
