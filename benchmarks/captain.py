"""The computer captain against the captain of the start of issue 15 (game/ai/captain.py at that
commit, from git: benchmarks.baseline): seeded quick-start games, the new captain taking each side in turn. Prints the new
captain's win rate with a 95% interval, and how long each captain thought per decision."""

from __future__ import annotations

import math
import sys
import time
from dataclasses import replace
from typing import Any

from benchmarks import baseline
from game.ai.captain import Captain
from game.ai.match import play
from game.rules_data import load_rules
from game.scenario import quickstart

GAMES = 200


class _Timed:
    """A captain whose thinking time is added up."""

    def __init__(self, captain: Any, clock: list[float]) -> None:
        self.captain, self.clock = captain, clock

    def act(self, state):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return self.captain.act(state)
        finally:
            self.clock.append(time.perf_counter() - t0)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% score interval of a proportion (it stays inside 0..1, unlike the normal one)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(games: int = GAMES) -> None:
    old_captain = baseline.old_module("game/ai/captain.py", "baseline_captain")
    if old_captain is None:
        print("the start-of-issue captain is not available (no git): nothing compared")
        return
    rules = load_rules()
    new_clock: list[float] = []
    old_clock: list[float] = []
    wins = draws = 0.0
    for g in range(games):
        seed = g + 1
        base = replace(quickstart(), seed=seed)
        new_side = base.players[g % 2]
        captains = {p: _Timed(Captain(p, seed, rules), new_clock) if p == new_side
                    else _Timed(old_captain.Captain(p, seed, rules), old_clock) for p in base.players}
        state = play(base, captains, rules).state  # type: ignore[arg-type]
        if state.winner == new_side:
            wins += 1
        elif state.winner is None:
            draws += 1
    score = wins + draws / 2
    lo, hi = wilson(score, games)
    print(f"new captain against the old over {games} seeded games (sides alternate): won {wins:.0f}, "
          f"drew {draws:.0f}, lost {games - wins - draws:.0f}; win rate {score / games:.1%} "
          f"(95% interval {lo:.1%}-{hi:.1%})")
    new_ms = 1000 * sum(new_clock) / len(new_clock)
    old_ms = 1000 * sum(old_clock) / len(old_clock)
    print(f"thinking per decision: new {new_ms:.1f} ms, old {old_ms:.1f} ms (x{old_ms / new_ms:.2f} faster)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
