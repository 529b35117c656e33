"""Full AI-against-AI quick-start games: time for one game and games per second over 100."""

from __future__ import annotations

import statistics
import time

from game.ai.match import ai_game

GAMES = 100


def main(games: int | str = GAMES) -> None:
    games = int(games)  # from the command line
    ai_game(0)  # warm the caches (data files, imports)
    times = []
    turns = []
    t_all = time.perf_counter()
    for seed in range(1, games + 1):
        t0 = time.perf_counter()
        session = ai_game(seed)
        times.append(time.perf_counter() - t0)
        turns.append(session.state.turn)
    total = time.perf_counter() - t_all
    print(f"one game (seed 1): {times[0] * 1000:.0f} ms; median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms; mean length {statistics.mean(turns):.1f} turns")
    print(f"{games} games in {total:.1f} s: {games / total:.2f} games/s")


if __name__ == "__main__":
    main()
