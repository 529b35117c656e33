"""The referee service (game/service/referee.py): a WS&IM game played turn after turn on SQLite,
the latency of a command with the game in memory, and the time to read a game back cold (another
process, or after a restart: the log is replayed from the start, there are no snapshots), by
the length of its log. Also the commands a two-ship WS&IM turn takes (benchmarks/ceremony.py), and the
questions an Iron & Oak turn puts to the players, with the scenario's map of Grid Boxes and without it."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import ceremony
from game.dice import ScriptedDice
from game.service.authority import Actor
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import GameService
from game.service.referee import setup_doc
from game.systems.iron_and_oak import SYSTEM as IRON_AND_OAK
from game.systems.iron_and_oak.events import ProcedureChanged
from game.systems.iron_and_oak.grid import Grid

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


# Hampton Roads' four ships each given Maneuver 1 (the reveal order), and the dice of their turn:
# every maneuver succeeds, Virginia clears the Middle Ground's shoal, Jamestown passes the mine
MANEUVERS = (("Monitor", "C3"), ("Virginia", "C3"), ("Minnesota", "D2"), ("Jamestown", "E5"))
FACES = (6, 1, 3, 7, 4, 5, 2, 3, 5, 4, 8, 2, 6, 7, 2, 3)


def _listed(grid: Grid, box: str) -> str:
    """What an opponent types for a Grid Box's hazards when the game has no map (`answer shoal 3 mine`)."""
    b = grid.box(box)
    words = ([f"shoal {b.depth}"] if b.depth >= 0 else []) + ["hulk"] * b.hulks
    words += ([b.obstruction] if b.obstruction else []) + ["mine"] * b.mines
    return " ".join(words) or "none"


def _maneuver_turn(doc: dict[str, Any], with_map: bool) -> list[str]:
    """The questions (their keys) a turn of four Maneuver 1 orders asks, answered as the table would."""
    grid = IRON_AND_OAK.initial_state(setup_doc("iron_and_oak", "hampton_roads")).grid
    state = IRON_AND_OAK.initial_state(doc)
    dice = ScriptedDice(str(f) for f in FACES)  # no fallback: a die more or less than scripted is a fault
    asked: list[str] = []
    moves = dict(MANEUVERS)

    def do(line: str) -> None:
        nonlocal state
        for e in IRON_AND_OAK.decide(state, IRON_AND_OAK.parse(line, state), dice):
            state = IRON_AND_OAK.apply(state, e)
            if isinstance(e, ProcedureChanged) and e.procedure is not None and e.procedure.question is not None:
                asked.append(e.procedure.question.key)

    do("Umpire: next")
    do("Umpire: next")
    for ship, box in MANEUVERS:
        do(f"{state.ship(ship).player}: order {ship} m1{' ' + box if with_map else ''}")
    do("Umpire: next")
    for ship, _ in MANEUVERS:
        do(f"{state.ship(ship).player}: reveal {ship}")
        while state.procedure is not None and state.procedure.question is not None:
            q = state.procedure.question
            answer = _listed(grid, moves[state.procedure.ship]) if q.key == "hazards" else "d10 drm 0"
            do(f"{q.who[0]}: answer {answer}")
    assert dice.remaining == (), f"dice left over: {dice.remaining}"
    return asked


def grid_box_questions() -> None:
    """Issue 24 item 5: a turn of four Maneuver 1 orders on Hampton Roads asks only what the state cannot
    know (rule 5.1's Response); the baseline is the same turn without the map, the old behaviour."""
    doc = setup_doc("iron_and_oak", "hampton_roads")
    bare = {k: v for k, v in doc.items() if k not in ("grid", "box")}
    bare["ship"] = [{k: v for k, v in s.items() if k != "box"} for s in doc["ship"]]
    mapped, baseline = _maneuver_turn(doc, True), _maneuver_turn(bare, False)
    print(f"Iron & Oak, four Maneuver 1 orders on Hampton Roads: {len(mapped)} questions with the map "
          f"({mapped.count('hazards')} about hazards), {len(baseline)} without it (baseline, "
          f"{baseline.count('hazards')} about hazards)")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        asyncio.run(upgrade_to_head(url))
        for turns, events, p50, p99, cold in asyncio.run(run(url)):
            print(f"after {turns:3d} turns ({events:5d} events): command p50 {p50:6.1f} ms, p99 {p99:6.1f} ms; "
                  f"cold read {cold:6.1f} ms")
    ceremony.report()
    grid_box_questions()


if __name__ == "__main__":
    main()
