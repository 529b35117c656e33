"""`python -m benchmarks [engine|ai|render|setup|service|bounds|referee]…` runs the benchmarks (all by default) and prints the figures."""

import sys

from benchmarks import ai_games, bounds, engine, referee, render, service, setup

SUITES = {
    "engine": ("engine: Movement activations (decide + apply)", engine.main),
    "ai": ("AI against AI, quick start", ai_games.main),
    "render": ("board renderer", render.main),
    "setup": ("drafted set-up: two lists to the first pick, computer captains", setup.main),
    "service": ("game service: commands through the database", service.main),
    "bounds": ("upload bombs refused, and the trial game of an imported data set", bounds.main),
    "referee": ("referee service: a WS&IM game, command latency and cold reads by log length", referee.main),
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SUITES):
        title, run = SUITES[name]
        print(f"== {title} ==")
        run()
