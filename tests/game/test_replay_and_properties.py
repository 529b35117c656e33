"""Replay determinism and invariants over random legal play (hypothesis)."""

from __future__ import annotations

import json
import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.legal import candidates
from game.apply import replay
from game.codec import from_data, to_data
from game.errors import RulesError
from game.events import EVENTS
from game.model import MAX_TRACK, Game, Phase
from game.phases.common import hull
from game.scenario import quickstart
from game.table_session import TableSession
from tests.helpers import S, make_game


def random_play(game: Game, seed: int, max_commands: int, stop_at: Phase | None = None) -> TableSession:
    rng = random.Random(seed)
    t = TableSession(game)
    for _ in range(max_commands):
        if t.state.phase is Phase.OVER or (stop_at is not None and t.state.phase is stop_at):
            break
        ordered = list(candidates(t.state, t.rules))  # simplest orders first
        options = rng.sample(ordered, min(200, len(ordered))) + ordered
        for cmd in options:
            try:
                t.submit(cmd)
                break
            except RulesError:
                continue
        else:
            raise AssertionError(f"no legal command found in {t.state.phase} for {t.state.active_player}")
        check_invariants(t.state)
    return t


def check_invariants(state: Game) -> None:
    on_table = [s for s in state.ships if s.on_table]
    for s in state.ships:
        assert 0 <= s.fatigue <= MAX_TRACK
        assert 0 <= s.damage <= MAX_TRACK
        for o in s.entangled_with:
            assert s.id in state.ship(o).entangled_with
    for i, a in enumerate(on_table):
        for b in on_table[i + 1 :]:
            reach = (math.hypot(a.beam, a.length) + math.hypot(b.beam, b.length)) / 2
            if math.hypot(a.x - b.x, a.y - b.y) > reach:
                continue  # the bases' circumscribed circles do not meet: no overlap possible
            overlap = hull(a).polygon.intersection(hull(b).polygon).area
            assert overlap < 1e-6, f"{a.id} overlaps {b.id} by {overlap}"


CROWDED = [
    S("Kestrel", "Sloop", 12, 20, 180, "A"),
    S("Amazone", "Petite Frégate", 14, 14, 160, "A"),
    S("Otter", "Corvette", 18, 20, 200, "B"),
    S("Hoorn", "Fluyt", 16, 26, 90, "B"),
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_random_legal_play_keeps_invariants_and_replays(seed: int) -> None:
    game = make_game(CROWDED, terrain=[("rock", [(20, 12), (22, 12), (22, 14), (20, 14)]),
                                       ("shoal", [(8, 8), (12, 8), (12, 12), (8, 12)])], test_dice=False)
    t = random_play(game, seed, max_commands=60)
    assert replay(t.initial, t.events) == t.state


def test_events_round_trip_through_json_and_replay_exactly() -> None:
    t = random_play(quickstart(seed=3), 11, max_commands=40)
    blob = json.dumps([EVENTS.encode(e) for e in t.events])
    decoded = [EVENTS.decode(d) for d in json.loads(blob)]
    assert decoded == t.events
    assert replay(t.initial, decoded) == t.state


def test_state_round_trips_through_json() -> None:
    t = random_play(quickstart(seed=5), 2, max_commands=30)
    data = json.loads(json.dumps(to_data(t.state)))
    assert from_data(Game, data) == t.state


def test_same_seed_same_game() -> None:
    a = random_play(quickstart(seed=9), 4, max_commands=30)
    b = random_play(quickstart(seed=9), 4, max_commands=30)
    assert a.events == b.events
