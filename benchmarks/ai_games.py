"""Full AI-against-AI quick-start games: time for one game, the median and the worst over N, today's
captain and engine beside the start of issue 15's (benchmarks/baseline.py), in the same run."""

from __future__ import annotations

import statistics
import sys
import time

GAMES = 100


def measure(games: int) -> list[list[float]]:
    """(seconds, turns) of games 1..N, in this process."""
    from game.ai.match import ai_game

    ai_game(0)  # warm the caches (data files, imports)
    out = []
    for seed in range(1, games + 1):
        t0 = time.perf_counter()
        session = ai_game(seed)
        out.append([time.perf_counter() - t0, session.state.turn])
    return out


def _line(label: str, runs: list[list[float]]) -> tuple[str, float]:
    times = [t for t, _ in runs]
    med = statistics.median(times)
    return (f"{label}: median {med * 1000:.0f} ms, max {max(times) * 1000:.0f} ms, "
            f"mean length {statistics.mean(t for _, t in runs):.1f} turns, {len(times) / sum(times):.2f} games/s", med)


def main(games: int = GAMES) -> None:
    from benchmarks import baseline

    new = baseline.run(f"importlib.import_module('benchmarks.ai_games').measure({games})", old=False)
    old = baseline.run(f"importlib.import_module('benchmarks.ai_games').measure({games})", old=True)
    text, med = _line(f"today, {games} games", new)  # type: ignore[arg-type]
    print(text)
    if old is not None:
        text, old_med = _line("start of issue", old)  # type: ignore[arg-type]
        print(f"{text}  (median x{old_med / med:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
