"""Event cards: drawn on an initiative tie, in force while face up, discarded when done."""

from __future__ import annotations

import pytest

from game.model import Phase
from game.rules_data import load_rules
from game.scenario import ScenarioError, load_scenario_text
from game.table_session import TableSession
from tests.helpers import S, scenario_text

RULES = load_rules()


def tie_game(events: list[str], **ship_extra: object) -> TableSession:
    ships = [S("Kestrel", "Sloop", 8, 20, 180, "A", dict(ship_extra)), S("Otter", "Corvette", 28, 20, 180, "B",
                                                                          {"fatigue": 2})]
    text = scenario_text(ships).replace("seed = 7\n", "seed = 7\nevents = [" + ", ".join(f'"{e}"' for e in events) + "]\n")
    t = TableSession(load_scenario_text(text))
    t.submit_line("pick A Down!")
    t.submit_line("dice sail skull skull skull skull skull skull skull skull skull")  # A wins the Challenge
    t.submit_line("pick B Fire as She Bears")  # 1 against 1: a tie draws the top event card
    return t


def test_the_deck_has_the_original_cards() -> None:
    decks = RULES.scenario_cards
    assert len(decks["objective"]) >= 6 and len(decks["setting"]) >= 6 and len(decks["deployment"]) >= 6
    assert len(decks["advantage"]) >= 8 and len(decks["event"]) >= 12


def test_a_turn_event_acts_while_face_up_and_is_discarded_at_the_end_of_turn() -> None:
    t = tie_game(["Wind Increases", "Becalmed"])
    assert t.state.event_face_up == "Wind Increases" and t.state.event_deck == ("Becalmed",)
    t.submit_line("pick A Careful Aim")
    t.submit_line("pick B Reload!")  # turn 2 is no tie: the next event stays in the deck
    t.submit_line("move Kestrel")  # Sloop Large 4 + 1: the speed-5 tool
    assert t.state.ship("Kestrel").y == pytest.approx(20 - RULES.tool(5).length)
    t.submit_line("move Otter")
    assert t.state.ship("Otter").y == pytest.approx(20 - RULES.tool(5).length)
    t.submit_line("pass Kestrel")
    t.submit_line("pass Otter")
    assert t.state.turn == 2 and t.state.event_face_up is None and t.state.event_deck == ("Becalmed",)


def test_an_instant_event_acts_at_once() -> None:
    t = tie_game(["Fresh Water"], fatigue=3)
    assert t.state.ship("Kestrel").fatigue == 2 and t.state.ship("Otter").fatigue == 1
    assert t.state.event_face_up is None


def test_the_wind_shifts() -> None:
    t = tie_game(["Shifting Wind"])
    assert t.state.table.weather_edge == "E"


def test_an_unknown_event_in_a_scenario_is_refused() -> None:
    text = scenario_text([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")])
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(text.replace("seed = 7\n", 'seed = 7\nevents = ["Kraken"]\n'))
    assert err.value.field == "events"


def test_no_deck_ties_go_on_to_admiral_and_challenge() -> None:
    t = tie_game([])
    assert t.state.phase is Phase.INITIATIVE and t.state.initiative == "A"
