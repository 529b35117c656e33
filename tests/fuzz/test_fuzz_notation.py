"""Notation lines, fuzzed against games in every kind of moment (the first pick, a Movement
activation, an Attack Phase, a roll awaiting a re-roll, a drafted set-up): parse + decide either
returns events that apply, or raises a RulesError and leaves the state exactly as it was."""

from __future__ import annotations

import contextlib
import copy
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from game.ai.captain import Captain
from game.ai.legal import candidates
from game.ai.match import play
from game.apply import apply_all
from game.commands import Enlist
from game.errors import RulesError
from game.model import Game
from game.notation import VERBS, format_command
from game.phases.preparation import drafted_game
from game.rules_data import load_rules
from game.scenario import quickstart
from game.squadron import random_squadron
from game.table_session import TableSession
from tests.fuzz import FRAGMENTS, SPECIAL_FLOATS, SPECIAL_INTS, SPECIAL_TEXTS, fuzz_settings

RULES = load_rules()
WORDS = ["adjust", "turn", "start", "end", "port", "starboard", "ahead", "back", "hold", "crew", "reload", "repair",
         "aground", "sail", "full", "battle", "minimal", "anchored", "board", "edge", "flag", "landing", "boat",
         "helm", "aim", "rigging", "hull", "as", "large", "skip", "drop", "heading", "rot", "shift", "keep",
         "discard", "attacker", "defender", "island", "rock", "shoal", "fog_bank", "Fair Wind", "A:", "B:", "C:"]
NUMBERS = ["nan", "-nan", "inf", "-inf", "1e308", "-1e308", "1e-320", "-0", "0", "+1", "-1", "30°", "360", "-720",
           "1_000", "0x10", "٣", "1" * 400, "9" * 5000, "12.5", "0.0001"]


class _Enough(Exception):
    pass


def _states() -> list[Game]:
    """Games at every kind of moment, reached by two computer captains: each new kind (phase, a roll
    awaiting a re-roll, a choice, an offer, an activation under way) and every 40th command."""
    found: dict[object, Game] = {}

    def keep(session: TableSession) -> None:
        s = session.state
        kind = (s.phase, s.pending is not None, bool(s.choices), s.offer is not None, s.active_player,
                s.prep.step if s.prep else None)
        found.setdefault(kind, s)
        if len(session.events) % 40 == 0:
            found.setdefault(len(session.events), s)
        if s.turn > 3:
            raise _Enough

    for session in (TableSession(replace(quickstart(seed=5), test_dice=True), RULES), _drafted()):
        found.setdefault(id(session), session.state)
        captains = {p: Captain(p, 5, RULES) for p in session.state.players}
        with contextlib.suppress(_Enough):
            play(session.state, captains, RULES, after_each=keep, session=session)
    return list(found.values())


def _drafted() -> TableSession:
    session = TableSession(drafted_game("patrol", 5), RULES)
    for i, p in enumerate("AB"):
        session.submit(Enlist(p, random_squadron(5 + i, "patrol", RULES)))
    return session


STATES = _states()
LEGAL = [[format_command(c) for c in list(candidates(s, RULES))[:300]] for s in STATES]


def _names(state: Game) -> list[str]:
    ships = [s.id for s in state.ships]
    return ships + [n.upper() for n in ships] + [n[:2] for n in ships] + list(RULES.cards)[:12] + list(state.players)


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


TOKENS = [st.one_of(st.sampled_from(VERBS), st.sampled_from(WORDS), st.sampled_from(NUMBERS),
                    st.sampled_from(_names(state)), st.sampled_from(FRAGMENTS + SPECIAL_TEXTS),
                    st.sampled_from(SPECIAL_INTS).map(str), st.sampled_from(SPECIAL_FLOATS).map(str),
                    st.text(max_size=12)) for state in STATES]


@st.composite
def lines(draw: st.DrawFn, index: int) -> str:
    token = TOKENS[index]
    how = draw(st.sampled_from(["legal-mutated", "legal-mutated", "legal-mutated", "tokens", "raw"]))
    if how == "raw":
        return draw(st.text(max_size=200))
    if how == "tokens" or not LEGAL[index]:
        return " ".join(draw(st.lists(token, min_size=1, max_size=12)))
    words = draw(st.sampled_from(LEGAL[index])).split(" ")
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        at = draw(st.integers(min_value=0, max_value=len(words)))
        op = draw(st.sampled_from(["number", "number", "replace", "insert", "delete"]))
        numbers = [i for i, w in enumerate(words) if _is_number(w)]
        if op == "number" and numbers:  # the figures of a legal order are where the engine computes
            words[draw(st.sampled_from(numbers))] = draw(st.sampled_from(NUMBERS[:6] + NUMBERS))
        elif op in ("insert", "number") or not words:
            words.insert(at, draw(token))
        elif op == "replace":
            words[min(at, len(words) - 1)] = draw(token)
        else:
            del words[min(at, len(words) - 1)]
    return " ".join(words)


@fuzz_settings(400)
@given(st.integers(min_value=0, max_value=len(STATES) - 1).flatmap(lambda i: st.tuples(st.just(i), lines(i))))
def test_a_line_is_applied_or_refused_leaving_the_state_unchanged(case: tuple[int, str]) -> None:
    index, line = case
    state = STATES[index]
    before = copy.deepcopy(state)
    session = TableSession(state, RULES)
    try:
        events = session.submit_line(line)
    except RulesError as exc:
        assert exc.text
        assert session.state is state and state == before and session.events == []
        return
    assert session.state == apply_all(before, events)
