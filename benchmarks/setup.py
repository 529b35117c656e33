"""The drafted chapter-7 set-up: time for the engine and the computer captains to go from two
squadron lists to the first initiative pick (drafting, terrain, deployment), per game size."""

from __future__ import annotations

import statistics
import time

from game.ai.captain import Captain
from game.commands import Enlist
from game.model import Phase
from game.phases.flow import deciders
from game.phases.preparation import drafted_game
from game.rules_data import load_rules
from game.squadron import SIZES, random_squadron
from game.table_session import TableSession

GAMES = 10


def set_up(seed: int, size: str) -> tuple[float, int]:
    rules = load_rules()
    t0 = time.perf_counter()
    session = TableSession(drafted_game(size, seed), rules)
    session.submit(Enlist("A", random_squadron(seed, size, rules)))
    session.submit(Enlist("B", random_squadron(seed + 1000, size, rules)))
    captains = {p: Captain(p, seed, rules) for p in "AB"}
    commands = 0
    while session.state.phase is Phase.PREPARATION:
        player = sorted(deciders(session.state))[0]
        session.submit(captains[player].act(session.state))
        commands += 1
    return time.perf_counter() - t0, commands


def main(games: int | str = GAMES) -> None:
    games = int(games)  # from the command line
    set_up(0, "patrol")  # warm the caches
    for size in SIZES:
        runs = [set_up(seed, size) for seed in range(1, games + 1)]
        times = [t for t, _ in runs]
        print(f"{size}: {games} set-ups, median {statistics.median(times) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms, {statistics.mean(n for _, n in runs):.0f} set-up commands each")


if __name__ == "__main__":
    main()
