"""Squadron lists, fuzzed: a refusal is a SquadronError naming each entry and field; an accepted
list is checked against the building rules without a fault, and a legal one enlists in a game."""

from __future__ import annotations

import tomllib
from importlib import resources

from hypothesis import given

from game.commands import Enlist
from game.errors import RulesError
from game.phases.preparation import drafted_game
from game.rules_data import load_rules
from game.squadron import SquadronError, parse_squadron, squadron_points, validate
from game.table_session import TableSession
from tests.fuzz import MESSAGE_LIMIT, fuzz_settings, mutated_doc, mutated_text

RULES = load_rules()
TEXT = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text(encoding="utf-8")
DOC = tomllib.loads(TEXT)


def _read(text: str) -> None:
    try:
        sq = parse_squadron(text)
    except SquadronError as exc:
        assert exc.problems and all(p.entry and p.field and p.message for p in exc.problems)
        assert len(exc.text) < MESSAGE_LIMIT
        return
    squadron_points(sq, RULES)
    if validate(sq, RULES):
        return
    session = TableSession(drafted_game(sq.size, 1), RULES)
    try:
        session.submit(Enlist("A", sq))
    except RulesError:
        assert session.state == drafted_game(sq.size, 1)


@fuzz_settings(300)
@given(mutated_doc(DOC))
def test_structured_mutations(text: str) -> None:
    _read(text)


@fuzz_settings(300)
@given(mutated_text(TEXT))
def test_raw_text_mutations(text: str) -> None:
    _read(text)
