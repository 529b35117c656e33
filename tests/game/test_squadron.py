"""Squadron building: points and every building rule, each broken rule with its entry and field."""

from __future__ import annotations

from importlib import resources

import pytest

from game.rules_data import load_rules
from game.squadron import SquadronError, parse_squadron, squadron_points, validate

RULES = load_rules()
LEGAL = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text(encoding="utf-8")


def problems(text: str) -> list[tuple[str, str]]:
    return [(p.entry, p.field) for p in validate(parse_squadron(text), RULES)]


def test_the_sample_squadron_is_legal_and_costs_what_the_cards_say() -> None:
    sq = parse_squadron(LEGAL)
    assert validate(sq, RULES) == []
    # Fifth Rate 16 + Skill 1 (2) + Stout 4; Sixth Rate 13 + Bold Captain 1 + Boarding Party 1;
    # Fluyt 13 + Additional Guns 2; Sloop 7 + Kapers -1; Brigantine 8 + Skill 1 (2); admiral 5
    assert squadron_points(sq, RULES) == 22 + 15 + 15 + 6 + 10 + 5


def test_spanish_stout_at_half_price() -> None:
    text = LEGAL.replace('faction = "Dutch"', 'faction = "Spanish"')
    assert squadron_points(parse_squadron(text), RULES) == squadron_points(parse_squadron(LEGAL), RULES) - 2


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        ('size = "skirmish"', 'size = "brawl"', "(squadron)", "size"),
        ('size = "skirmish"', 'size = "patrol"', "(squadron)", "ship"),  # 5 ships: patrol allows 2-4
        ('class = "Fluyt"', 'class = "Third Rate"', "(squadron)", "points"),
        ('class = "Fluyt"', 'class = "Galleon of Doom"', "Brak", "class"),
        ('options = ["Additional Guns"]', 'options = ["Weatherly"]', "Brak", "options"),
        ('cards = ["Boarding Party"]', 'cards = ["Boarding Party", "Marines", "Vice Flag"]', "Vlissingen", "cards"),
        ('cards = ["Kapers"]', 'cards = ["Buccaneers"]', "Hazewind", "cards"),  # not Dutch
        ('options = ["Stout"]', 'options = ["Stout"]\ncaptain = "Bold Captain"', "Zeelandia", "captain"),
        ('admiral = "Cornelis Evertsen the Youngest"', 'admiral = "John Benbow"', "(squadron)", "admiral"),
        ('flagship = "Zeelandia"', 'flagship = "Nobody"', "(squadron)", "flagship"),
        ('"Take Courage"]', '"Take Courage", "Reload!"]', "(squadron)", "hand"),  # 8 cards, value 2 admiral: 7
        ('"Take Courage"]', '"Resilient"]', "(squadron)", "hand"),  # a Spanish card
        ('"Favorable Wind", "Take Courage"]', '"Favorable Wind", "Effective Fire"]', "(squadron)", "hand"),  # duplicate
    ],
)
def test_each_broken_rule_names_entry_and_field(old: str, new: str, entry: str, field: str) -> None:
    assert old in LEGAL
    assert (entry, field) in problems(LEGAL.replace(old, new, 1))


def test_no_ships_of_the_line_in_a_patrol() -> None:
    text = """name = "p"\nsize = "patrol"\nfaction = "English"\nadmiral = "Untested"\nflagship = "A"
hand = ["Down!", "Careful Aim", "Effective Fire", "Adjust Position", "Favorable Wind"]
[[ship]]\nname = "A"\nclass = "Fourth Rate"\n[[ship]]\nname = "B"\nclass = "Sloop"\n"""
    found = validate(parse_squadron(text), RULES)
    assert any(p.entry == "A" and "Ship of the Line" in p.message for p in found)


def test_hand_needs_three_returning_cards_and_two_per_value_at_most() -> None:
    base = LEGAL.replace('faction = "Dutch"', 'faction = "English"').replace('"Expert Boarding"', '"Reload!"')
    base = base.replace('cards = ["Kapers"]', "")
    # Reload!, Small Arms and Rolling Broadsides: three cards of initiative value 3
    bad_values = base.replace('"Effective Fire"', '"Small Arms"').replace('"Down!"', '"Rolling Broadsides"')
    assert any("at most 2 of one value" in p.message for p in validate(parse_squadron(bad_values), RULES))
    discards = base.replace('"Down!", "Careful Aim"', '"Fast Loaders", "Engage More Closely"').replace(
        '"Adjust Position"', '"Fire as She Bears"').replace('"Favorable Wind"', '"Intrepid"').replace(
        '"Take Courage"', '"Double Rations"')
    assert any("at least 3 must" in p.message for p in validate(parse_squadron(discards), RULES))


def test_a_malformed_file_names_the_field() -> None:
    with pytest.raises(SquadronError) as err:
        parse_squadron('name = "x"\nsize = 3\n[[ship]]\nclass = "Sloop"\n')
    fields = {(p.entry, p.field) for p in err.value.problems}
    assert ("(squadron)", "size") in fields and ("ship #1", "name") in fields
