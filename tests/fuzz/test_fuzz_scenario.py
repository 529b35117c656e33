"""Scenario files, fuzzed: a refusal is a ScenarioError (a rules error naming the field), an
accepted file gives a starting state with finite, bounded figures that the database can store."""

from __future__ import annotations

import json
import math
import tomllib

from hypothesis import given

from game.codec import to_data
from game.model import Game
from game.scenario import ScenarioError, builtin_scenarios, load_scenario_text
from game.schema.common import MAX_TABLE_INCHES
from tests.fuzz import MESSAGE_LIMIT, fuzz_settings, mutated_doc, mutated_text

TEXTS = builtin_scenarios()
DOCS = {name: tomllib.loads(text) for name, text in TEXTS.items()}


def _load(text: str) -> None:
    try:
        game = load_scenario_text(text, "fuzz.toml")
    except ScenarioError as exc:
        assert exc.file == "fuzz.toml" and exc.entry and exc.field and exc.text
        assert len(exc.text) < MESSAGE_LIMIT
        return
    _check_accepted(game)


def _check_accepted(game: Game) -> None:
    t = game.table
    assert 0 < t.width <= MAX_TABLE_INCHES and 0 < t.height <= MAX_TABLE_INCHES
    for s in game.ships:
        assert all(math.isfinite(v) for v in (s.x, s.y, s.heading))
        assert 0 <= s.x <= t.width and 0 <= s.y <= t.height
    assert all(q.hand for q in game.squadrons)
    json.dumps(to_data(game), allow_nan=False)  # storable as it is


@fuzz_settings(300)
@given(mutated_doc(DOCS["quickstart"]))
def test_structured_quickstart_mutations(text: str) -> None:
    _load(text)


@fuzz_settings(150)
@given(mutated_doc(DOCS["fleet_battle"]))
def test_structured_fleet_battle_mutations(text: str) -> None:
    _load(text)


@fuzz_settings(300)
@given(mutated_text(TEXTS["quickstart"]))
def test_raw_text_mutations(text: str) -> None:
    _load(text)
