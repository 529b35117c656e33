"""`python -m benchmarks [SUITE [ARG …]] …` runs the benchmarks (all by default) and prints the figures;
numbers after a suite's name are its arguments (`python -m benchmarks chat 20 200`)."""

import sys

from benchmarks import (
    ai_games,
    bounds,
    chat,
    engine,
    league,
    looplag,
    memory,
    referee,
    render,
    service,
    setup,
)

SUITES = {
    "engine": ("engine: Movement activations (decide + apply)", engine.main),
    "ai": ("AI against AI, quick start", ai_games.main),
    "render": ("board renderer", render.main),
    "setup": ("drafted set-up: two lists to the first pick, computer captains", setup.main),
    "service": ("game service: commands through the database", service.main),
    "chat": ("game service at a chat's pace: open-loop arrivals across 1,000 live games", chat.main),
    "bounds": ("upload bombs refused, and the trial game of an imported data set", bounds.main),
    "league": ("leagues: Swiss pairing and standings, a league of computer captains", league.main),
    "looplag": ("event-loop lag: 20 games with computer captains and their boards, inline vs worker pool", looplag.main),
    "memory": ("memory: the bot process with 1,000 live games and after 50 distinct tables rendered", memory.main),
    "referee": ("referee service: a WS&IM game, command latency and cold reads by log length", referee.main),
}


def plan(argv: list[str]) -> list[tuple[str, list[str]]]:
    runs: list[tuple[str, list[str]]] = []
    for arg in argv:
        if arg in SUITES:
            runs.append((arg, []))
        elif runs:
            runs[-1][1].append(arg)
        else:
            raise SystemExit(f"unknown benchmark {arg!r}; choose from {', '.join(SUITES)}")
    return runs or [(name, []) for name in SUITES]


if __name__ == "__main__":
    for name, args in plan(sys.argv[1:]):
        title, run = SUITES[name]
        print(f"== {title} ==", flush=True)
        run(*args)  # type: ignore[operator]
