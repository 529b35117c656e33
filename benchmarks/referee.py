"""The referee service (game/service/referee.py): a WS&IM game played turn after turn on SQLite,
the latency of a command with the game in memory, and the time to read a game back cold (another
process, or after a restart: the log is replayed from the start, there are no snapshots), by
the length of its log. Then the commands a two-ship WS&IM turn takes (issue 24 item 4), today and
at the commit before the empty phases were skipped (benchmarks/baseline.py gives that code)."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import baseline
from game.service.authority import Actor
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import GameService

TURNS = (10, 40)  # measured after this many turns
PLOTS = {"French": ("p2", "plot Redoutable 0"), "British": ("p1", "plot Victory 0")}


async def run(url: str) -> list[tuple[int, int, float, float, float]]:
    engine = make_engine(url)
    service = GameService(engine)
    actors = {"p1": Actor("1", "bench"), "p2": Actor("2", "bench"), "ref": Actor("3", "bench")}
    ref = service.referee
    gid = (await ref.create_game(actors["p1"], "chan", "wsim")).id
    for key, seat in (("p1", "British"), ("p2", "French"), ("ref", "Umpire")):
        info = await ref.join(actors[key], gid, seat)
    out = []
    played = 0
    for turns in TURNS:
        latencies = []
        while played < turns:
            who, line = PLOTS.get(info.waiting[0], ("ref", "next"))
            t0 = time.perf_counter()
            info = (await ref.submit(actors[who], gid, line)).info
            latencies.append(time.perf_counter() - t0)
            played = info.turn - 1
        cold = []
        for _ in range(5):
            t0 = time.perf_counter()
            game = await GameService(engine).referee._load(gid)
            cold.append(time.perf_counter() - t0)
        out.append((turns, game.record.last_seq, statistics.median(latencies) * 1000,
                    sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000, statistics.median(cold) * 1000))
    await engine.dispose()
    return out


CEREMONY_BASE = "3bc9e87"  # main before issue 24 item 4: the referee's `next` walked every phase
TURN_TARGET = 8  # issue 24 item 4: a two-ship turn (plots, one broadside each, reload) in at most 8 commands
TURN = (("British", "plot Victory 1"), ("French", "plot Redoutable 1"),
        ("British", "fire Victory right Redoutable range 7"), ("French", "fire Redoutable left Victory range 7"),
        ("British", "load Victory right R"), ("French", "load Redoutable left R"))


class _Threes:
    """Every die shows 3: the wind holds (6 against WSN 5), and the old and the new code, which roll in
    a different order, see the same faces."""

    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        return ("3",) * max(0, n)


def turn_commands() -> int:
    """The commands of turn 2 of the built-in WS&IM setup (each side's plot, one broadside and its reload),
    counted from the command that begins turn 2 to the one that begins turn 3: the referee's `next` is
    given whenever a player's line is out of its phase. The referee has entered the Fire Results Table's
    garbled rows first, so no fire waits for hits. Runs against whichever `game` package is imported."""
    import tomllib

    from game.errors import RulesError
    from game.service.referee import builtin_setups
    from game.systems import SYSTEMS

    wsim = SYSTEMS["wsim"]
    state = wsim.initial_state(tomllib.loads(builtin_setups("wsim")["trafalgar"]))
    counts: dict[int, int] = {}

    def play(who: str, line: str) -> bool:
        nonlocal state
        try:
            events = wsim.decide(state, wsim.parse(f"{who}: {line}", state), _Threes())
        except RulesError:
            return False
        counts[state.turn] = counts.get(state.turn, 0) + 1
        for e in events:
            state = wsim.apply(state, e)
        return True

    for row in [str(n) for n in range(8, 57)] + ["57+"]:
        for column, hits in (("hull", "1H"), ("rigging", "1R")):
            play("Umpire", f"printed fire_results {row} {column} = {hits}")
    counts.clear()
    for turn in (1, 2):
        for who, line in TURN:
            while not play(who, line):
                if not play("Umpire", "next"):
                    raise RuntimeError(f"neither {line!r} nor `next` is accepted in phase {state.phase}")
        while state.turn == turn:
            if not play("Umpire", "next"):
                raise RuntimeError(f"`next` is refused in phase {state.phase}")
    return counts[2]


def ceremony() -> None:
    """Commands per two-ship WS&IM turn, today, beside the code before the empty phases were skipped."""
    now = turn_commands()
    before = baseline.run("importlib.import_module('benchmarks.referee').turn_commands()", old=True,
                          commit=CEREMONY_BASE)
    was = f"; at {CEREMONY_BASE}, before the empty phases were skipped: {before}" if before is not None else ""
    print(f"a two-ship WS&IM turn (plots, one broadside each, reload): {now} commands (target <= {TURN_TARGET}){was}")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        asyncio.run(upgrade_to_head(url))
        for turns, events, p50, p99, cold in asyncio.run(run(url)):
            print(f"after {turns:3d} turns ({events:5d} events): command p50 {p50:6.1f} ms, p99 {p99:6.1f} ms; "
                  f"cold read {cold:6.1f} ms")
    ceremony()


if __name__ == "__main__":
    main()
