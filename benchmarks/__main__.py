"""`python -m benchmarks [engine|ai|render|setup|service|bounds|looplag|memory]…` runs the benchmarks (all by default) and prints the figures."""

import sys

from benchmarks import ai_games, bounds, engine, looplag, memory, render, service, setup

SUITES = {
    "engine": ("engine: Movement activations (decide + apply)", engine.main),
    "ai": ("AI against AI, quick start", ai_games.main),
    "render": ("board renderer", render.main),
    "setup": ("drafted set-up: two lists to the first pick, computer captains", setup.main),
    "service": ("game service: commands through the database", service.main),
    "bounds": ("upload bombs refused, and the trial game of an imported data set", bounds.main),
    "looplag": ("event-loop lag: 20 games with computer captains and their boards, inline vs worker pool", looplag.main),
    "memory": ("memory: the bot process with 1,000 live games and after 50 distinct tables rendered", memory.main),
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SUITES):
        title, run = SUITES[name]
        print(f"== {title} ==")
        run()
