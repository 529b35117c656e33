"""Random legal squadrons of each game size, deployed and fought to the end by computer captains;
every game ends legally and its log replays exactly. Odd seeds go through the drafted chapter-7
set-up (the captains choose roles, cards, terrain and deployment); even seeds deploy in lines.
QD_LONG=1 runs the issue's 100 games per size."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from game.ai.match import ai_game, drafted_ai_game
from game.apply import replay
from game.geometry import distance
from game.model import Phase, Status
from game.phases.common import hull
from game.rules_data import load_rules
from game.setup import game_from_squadrons
from game.squadron import SIZES, random_squadron, validate

GAMES = 100 if os.environ.get("QD_LONG") else 2  # seed 1 drafted, seed 2 in lines


def _play(size: str, seeds: list[int]) -> list[tuple[int, str | None, int]]:
    rules = load_rules()
    out = []
    for seed in seeds:
        a, b = random_squadron(seed, size, rules), random_squadron(seed + 10_000, size, rules)
        if seed % 2:
            t = drafted_ai_game(seed, a, b, rules)
            assert t.initial.phase is Phase.PREPARATION and t.state.prep is not None
            assert t.state.prep.step == "done"
            assert not any(Status.UNDEPLOYED in s.statuses for s in t.state.ships)
        else:
            t = ai_game(seed, game=game_from_squadrons(a, b, rules, seed))
        assert replay(t.initial, t.events) == t.state, (size, seed)
        assert t.state.phase is Phase.OVER and 1 <= t.state.turn <= 10
        out.append((seed, t.state.winner, t.state.turn))
    return out


@pytest.mark.parametrize("size", list(SIZES))
def test_random_legal_squadrons_are_legal_and_deploy_apart(size: str) -> None:
    rules = load_rules()
    for seed in range(20):
        a, b = random_squadron(seed, size, rules), random_squadron(seed + 10_000, size, rules)
        assert validate(a, rules) == [] and validate(b, rules) == []
        game = game_from_squadrons(a, b, rules, seed)
        cannon = rules.range_of("cannon")
        for s in game.ships_of("A"):
            for o in game.ships_of("B"):
                assert distance(hull(s).polygon, hull(o).polygon) > cannon  # never within Cannon Shot


@pytest.mark.parametrize("size", list(SIZES))
def test_ai_games_on_random_squadrons_end_legally_and_replay(size: str) -> None:
    seeds = list(range(1, GAMES + 1))
    workers = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = [r for part in pool.map(_play, [size] * workers, [seeds[i::workers] for i in range(workers)])
                   for r in part]
    assert len(results) == GAMES and all(winner in ("A", "B") for _, winner, _ in results)
