"""`python -m benchmarks [SUITE [ARG …]] …` runs the benchmarks and prints the figures; numbers after a
suite's name are its arguments (`python -m benchmarks chat 20 200`, `python -m benchmarks captain 200`).
Options after a suite's name go to it too (`python -m benchmarks soak --minutes 1`). Without names it
runs them all but the captain match (200 games) and the soak (5 minutes): run those by name."""

import sys

from benchmarks import (
    ai_games,
    async_play,
    bounds,
    captain,
    chat,
    engine,
    league,
    looplag,
    memory,
    options,
    outbox,
    referee,
    render,
    same_games,
    service,
    setup,
    soak,
    startup,
    web,
)

SUITES = {
    "engine": ("engine: Movement activations (decide + apply), today and at the start of issue 15", engine.main),
    "ai": ("AI against AI, quick start, today and at the start of issue 15", ai_games.main),
    "captain": ("the computer captain against the start-of-issue captain", captain.main),
    "same": ("the same games, event for event, as at the start of issue 15", same_games.main),
    "render": ("board renderer", render.main),
    "setup": ("drafted set-up: two lists to the first pick, computer captains", setup.main),
    "service": ("game service: commands through the database", service.main),
    "chat": ("game service at a chat's pace: open-loop arrivals across 1,000 live games", chat.main),
    "async": ("play by chat: wake-ups per player per turn, with and without standing orders", async_play.main),
    "bounds": ("upload bombs refused, and the trial game of an imported data set", bounds.main),
    "league": ("leagues: Swiss pairing and standings, a league of computer captains", league.main),
    "looplag": ("event-loop lag: 20 games with computer captains and their boards, inline vs worker pool", looplag.main),
    "memory": ("memory: the bot process with 1,000 live games and after 50 distinct tables rendered", memory.main),
    "outbox": ("the outbox: commands with and without their posts written, and a row's claim", outbox.main),
    "options": ("the options in words per interaction, quick start to 64 ships a side, beside main's of issue 29",
                options.main),
    "startup": ("start-up with 10,000 stored games: the first command answered, before and now", startup.main),
    "soak": ("SIGKILL every minute at 20 commands/s: acknowledged, lost, undelivered, duplicated, catch-up "
             "(--minutes N for a shorter run)", soak.main),
    "referee": ("referee service: a WS&IM game, command latency and cold reads by log length; commands per turn",
                referee.main),
    "web": ("the web pages: time to first byte and update latency, 100 live games and 50 open pages", web.main),
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
    return runs or [(name, []) for name in SUITES if name not in ("captain", "soak")]


if __name__ == "__main__":
    for name, args in plan(sys.argv[1:]):
        title, run = SUITES[name]
        print(f"== {title} ==", flush=True)
        run(*(int(a) if a.isdigit() else a for a in args))  # type: ignore[operator]
