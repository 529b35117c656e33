"""The options in words are worked out from shared, sketched geometry (issue 29) and must read word for
word as they did when every turning move was played through the engine.

tests/game/data/option_words.jsonl holds the words of 200 seeded moments (tests/game/option_positions.py
says how they are made: captain games on the quick start, random orders on the 20-ship Engagement
and on fleets of 16, 32 and 64 ships a side), recorded with main's code at 58b9578 before any change:
`git archive 58b9578 game | tar -x -C OLD` and `PYTHONPATH=OLD:. python -m tests.game.option_positions`.
Recorded again the same way when the fleets' rows were set 4.5" apart (benchmarks/fleets.py): at 3"
a back row's bows lay inside the sterns of the row ahead, bases overlapping as no table allows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.rules_data import load_rules
from tests.game.option_positions import WORDS, moments, words

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def recorded() -> list[dict[str, object]]:
    return [json.loads(line) for line in (ROOT / WORDS).read_text(encoding="utf-8").splitlines()]


def test_two_hundred_moments_of_every_size(recorded: list[dict[str, object]]) -> None:
    labels = [str(r["moment"]) for r in recorded]
    assert len(labels) == len(set(labels)) == 200
    for table in ("quick start", "engagement 10", "fleet 16", "fleet 32", "fleet 64"):
        assert any(label.startswith(table) for label in labels), table
    closing = sum("to bring guns to bear" in json.dumps(r["words"]) for r in recorded)
    assert closing >= 40  # the closing moves are what changed: about a quarter of the moments offer some


def test_the_words_are_those_recorded(recorded: list[dict[str, object]]) -> None:
    rules = load_rules()
    made = list(moments())
    assert [label for label, _ in made] == [r["moment"] for r in recorded]
    for (label, state), old in zip(made, recorded, strict=True):
        now = json.loads(json.dumps(words(state, rules), ensure_ascii=False))
        assert now == old["words"], label
