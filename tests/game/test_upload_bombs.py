"""Issue 11's upload bombs, each refused by its loader with a rules error naming file, entry and
field, before anything costly is built (the refusal times are in `python -m benchmarks bounds`)."""

from __future__ import annotations

import pytest

from game.errors import DataError, RulesError
from game.rules_data import default_texts, rules_from_texts
from game.scenario import ScenarioError, load_scenario_text
from game.squadron import SquadronError, parse_squadron
from tests.bombs import DATA_BOMBS, SCENARIO_BOMBS, SQUADRON_BOMBS, Bomb


def _ids(bombs: list[Bomb]) -> list[str]:
    return [b.name for b in bombs]


@pytest.mark.parametrize("bomb", SCENARIO_BOMBS, ids=_ids(SCENARIO_BOMBS))
def test_scenario_bombs_are_refused_naming_the_field(bomb: Bomb) -> None:
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(bomb.text(), "bomb.toml")
    assert isinstance(err.value, RulesError)
    assert (err.value.file, err.value.entry, err.value.field) == ("bomb.toml", bomb.entry, bomb.field)
    assert bomb.field in err.value.text


@pytest.mark.parametrize("bomb", DATA_BOMBS, ids=_ids(DATA_BOMBS))
def test_data_bombs_are_refused_naming_the_field(bomb: Bomb) -> None:
    with pytest.raises(DataError) as err:
        rules_from_texts("oak_and_iron", {**default_texts(), bomb.file: bomb.text()})
    assert isinstance(err.value, RulesError)
    assert (err.value.file, err.value.entry, err.value.field) == (bomb.file, bomb.entry, bomb.field)


@pytest.mark.parametrize("bomb", SQUADRON_BOMBS, ids=_ids(SQUADRON_BOMBS))
def test_squadron_bombs_are_refused_naming_the_field(bomb: Bomb) -> None:
    with pytest.raises(SquadronError) as err:
        parse_squadron(bomb.text())
    assert isinstance(err.value, RulesError)
    assert (bomb.entry, bomb.field) in {(p.entry, p.field) for p in err.value.problems}


def test_the_messages_say_what_is_wrong() -> None:
    texts = {b.name: b for b in [*SCENARIO_BOMBS, *DATA_BOMBS]}
    with pytest.raises(ScenarioError, match="less than or equal to 120"):
        load_scenario_text(texts["width 1e308"].text())
    with pytest.raises(ScenarioError, match=r"finite number \(not nan or inf\)"):
        load_scenario_text(texts["heading nan"].text())
    with pytest.raises(ScenarioError, match="needs at least 1 entries, found 0"):
        load_scenario_text(texts["hand = []"].text())
    with pytest.raises(ScenarioError, match="nests brackets more than 16 deep"):
        load_scenario_text(texts["1000 nested arrays"].text())
    with pytest.raises(DataError, match="less than or equal to 12"):
        rules_from_texts("oak_and_iron", {**default_texts(), "dice.toml": texts["sword = 0x7fffffff"].text()})
    with pytest.raises(DataError, match="the engine rolls it"):
        rules_from_texts("oak_and_iron", {**default_texts(), "dice.toml": texts["collision_damage deleted"].text()})
