"""Computer captains play whole games: every game ends legally with a winner, every invariant holds
after every event, and every event log replays to the same final state."""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import pytest

from game.ai.captain import Captain
from game.ai.match import ai_game
from game.apply import apply
from game.commands import Attack, PickCard
from game.dice import FairDice, seed_from_number
from game.model import Phase
from game.phases.flow import deciders
from game.rules_data import load_rules
from tests.game.test_replay_and_properties import check_invariants

# 300 games take two minutes of the suite's time on two cores; the normal run plays a fifth of them
GAMES = 300 if os.environ.get("QD_LONG") else 60


def _play_and_check(seeds: list[int]) -> list[tuple[int, str | None, int, str]]:
    out = []
    for seed in seeds:
        t = ai_game(seed)
        state = t.initial
        for e in t.events:
            state = apply(state, e)
            check_invariants(state)
        assert state == t.state, f"seed {seed}: the replay differs from the played state"
        assert t.state.phase is Phase.OVER, f"seed {seed}: the game did not end"
        out.append((seed, t.state.winner, t.state.turn, t.state.result))
    return out


CHUNKS = 6  # the pytest workers share the chunks out between the machine's cores


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_ai_games_end_legally_and_replay(chunk: int) -> None:
    """Seeds 1..60 (1..300 with QD_LONG=1) in six chunks: each game ends legally with a winner, every
    invariant holds after every event, and the log replays to the same state."""
    seeds = list(range(1, GAMES + 1))[chunk::CHUNKS]
    results = _play_and_check(seeds)
    assert len(results) == GAMES // CHUNKS
    for seed, winner, turn, result in results:
        assert winner in ("A", "B"), f"seed {seed}: no winner ({result})"
        assert 1 <= turn <= 10, f"seed {seed}: ended on turn {turn}"
        assert "withdraw" in result or "end of turn 10" in result
    reasons = Counter("withdrawal" if "withdraw" in r[3] else "turn 10" for r in results)
    assert reasons["withdrawal"] > 0

def test_same_seed_same_game() -> None:
    a, b = ai_game(17), ai_game(17)
    assert a.events == b.events


def test_dice_match_the_configured_faces() -> None:
    """Chi-square goodness of fit of 80,000 seeded rolls against the die in dice.toml."""
    rules = load_rules()
    sides = rules.die.sides
    counts: Counter[str] = Counter()
    for position in range(2000):
        counts.update(FairDice(seed_from_number(12345), position).roll(40, sides))
    total = sum(counts.values())
    expected = {f: total * sides.count(f) / len(sides) for f in set(sides)}
    chi2 = sum((counts[f] - e) ** 2 / e for f, e in expected.items())
    # 5 degrees of freedom: the 99.9th percentile is 20.5
    assert chi2 < 20.5, (chi2, counts)
    assert math.isclose(counts["sail"] / total, 2 / 8, abs_tol=0.01)
    assert math.isclose(counts["skull"] / total, 1 / 8, abs_tol=0.01)


def test_captain_fires_when_an_enemy_is_in_its_broadside_path() -> None:
    from tests.game.test_attack import duel

    t = duel()
    cmd = Captain("A", 1).act(t.state)
    assert isinstance(cmd, Attack) and cmd.kind == "broadside" and cmd.shots[0].target == "Frigate"


def test_captain_answers_for_its_own_player_only() -> None:
    from game.scenario import quickstart

    state = quickstart()
    assert deciders(state) == {"A", "B"}
    cmd = Captain("B", 3).act(state)
    assert isinstance(cmd, PickCard) and cmd.player == "B"


def test_captain_closes_the_range() -> None:
    from game.scenario import quickstart
    from game.table_session import TableSession

    t = TableSession(quickstart(seed=4))
    captains = {p: Captain(p, 4) for p in ("A", "B")}
    rng = random.Random(0)
    del rng
    start_gap = 12.5
    while t.state.phase is not Phase.ATTACK:
        who = sorted(deciders(t.state))[0]
        t.submit(captains[who].act(t.state))
    from game.phases.common import hull

    a = [hull(s).polygon for s in t.state.ships_of("A")]
    b = [hull(s).polygon for s in t.state.ships_of("B")]
    assert min(x.distance(y) for x in a for y in b) < start_gap
