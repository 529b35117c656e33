"""Game-data files, fuzzed one file at a time: a refusal is a DataError naming file, entry and field;
an accepted set either sets up the quick start or refuses it as a rules error."""

from __future__ import annotations

import contextlib
import tomllib

from hypothesis import given
from hypothesis import strategies as st

from game.errors import DataError, RulesError
from game.rules_data import DATA_FILES, default_texts, rules_from_texts
from game.scenario import builtin_scenarios, load_scenario_text
from tests.fuzz import MESSAGE_LIMIT, fuzz_settings, mutated_doc, mutated_text

TEXTS = default_texts()
DOCS = {f: tomllib.loads(t) for f, t in TEXTS.items()}
QUICKSTART = builtin_scenarios()["quickstart"]


def _load(file: str, text: str) -> None:
    try:
        rules = rules_from_texts("oak_and_iron", {**TEXTS, file: text})
    except DataError as exc:
        assert exc.file in DATA_FILES and exc.entry and exc.field and exc.text
        assert len(exc.text) < MESSAGE_LIMIT
        return
    with contextlib.suppress(RulesError):  # the quick start may not fit the new data: a rules error then
        load_scenario_text(QUICKSTART, "quickstart.toml", rules)


@st.composite
def one_file(draw: st.DrawFn, raw: bool) -> tuple[str, str]:
    file = draw(st.sampled_from(DATA_FILES))
    return file, draw(mutated_text(TEXTS[file]) if raw else mutated_doc(DOCS[file]))


@fuzz_settings(200)
@given(one_file(raw=False))
def test_structured_mutations(case: tuple[str, str]) -> None:
    _load(*case)


@fuzz_settings(200)
@given(one_file(raw=True))
def test_raw_text_mutations(case: tuple[str, str]) -> None:
    _load(*case)
