"""`python -m benchmarks [engine|ai [N]|captain [N]|same [N]|render|setup|service|bounds]…` runs the benchmarks
and prints the figures; a number after ai or captain is how many games. Without names it runs them
all but the captain match (200 games: run it by name)."""

import sys

from benchmarks import ai_games, bounds, captain, engine, render, same_games, service, setup

SUITES = {
    "engine": ("engine: Movement activations (decide + apply), today and at the start of issue 15", engine.main),
    "ai": ("AI against AI, quick start, today and at the start of issue 15", ai_games.main),
    "captain": ("the computer captain against the start-of-issue captain", captain.main),
    "same": ("the same games, event for event, as at the start of issue 15", same_games.main),
    "render": ("board renderer", render.main),
    "setup": ("drafted set-up: two lists to the first pick, computer captains", setup.main),
    "service": ("game service: commands through the database", service.main),
    "bounds": ("upload bombs refused, and the trial game of an imported data set", bounds.main),
}

if __name__ == "__main__":
    args = sys.argv[1:] or [name for name in SUITES if name != "captain"]
    for i, name in enumerate(args):
        if name.isdigit():
            continue
        title, run = SUITES[name]
        print(f"== {title} ==")
        if i + 1 < len(args) and args[i + 1].isdigit():
            run(int(args[i + 1]))  # type: ignore[operator]
        else:
            run()
