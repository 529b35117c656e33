"""Movement activations per second: decide + apply on the quick-start table and on a crowded
Engagement table (48x36, 20 ships, 8 terrain pieces). Prints the figures."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace

from game.ai.legal import candidates, is_legal
from game.apply import apply_all
from game.commands import Activate
from game.dice import FairDice, seed_from_number
from game.engine import decide
from game.errors import RulesError
from game.model import Game, Phase
from game.scenario import load_scenario_text, quickstart

TERRAIN = [
    ("island", [(2, 16), (5, 16), (5, 20), (2, 20)]),
    ("rock", [(20, 4), (21, 4), (21, 5), (20, 5)]),
    ("landmass", [(40, 0), (48, 0), (48, 3), (40, 3)]),
    ("shoal", [(14, 16), (18, 16), (18, 19), (14, 19)]),
    ("fog_bank", [(28, 15), (33, 15), (33, 21), (28, 21)]),
    ("shoal", [(36, 31), (40, 31), (40, 33), (36, 33)]),
    ("rock", [(25, 31), (26, 31), (26, 32), (25, 32)]),
    ("island", [(2, 30), (5, 30), (5, 34), (2, 34)]),
]
CLASSES = ["Sloop", "Corvette", "Brigantine", "Petite Frégate", "Fluyt", "Sixth Rate", "Fifth Rate",
           "Light Galleon", "Fourth Rate", "Third Rate"]


def engagement() -> Game:
    lines = ['name = "Engagement benchmark"', "seed = 3", "", "[table]", "width = 48", "height = 36",
             'weather_edge = "W"', ""]
    for i, (kind, pts) in enumerate(TERRAIN):
        lines += ["[[table.terrain]]", f'id = "t{i}"', f'kind = "{kind}"',
                  "points = [" + ", ".join(f"[{x}, {y}]" for x, y in pts) + "]", ""]
    hands = {"A": '["Down!", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position"]',
             "B": '["Fire as She Bears", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind"]'}
    for player, y0, heading in (("A", 10, 0.0), ("B", 26, 180.0)):
        lines += ["[[squadron]]", f'player = "{player}"', f'flagship = "{player}0"', f"hand = {hands[player]}", ""]
        for i in range(10):
            lines += ["[[squadron.ship]]", f'name = "{player}{i}"', f'class = "{CLASSES[i]}"',
                      f"x = {8 + i * 3.6}", f"y = {y0 + (i % 2) * 0.5}", f"heading = {heading}", ""]
    return load_scenario_text("\n".join(lines), "engagement.toml")


def to_movement(game: Game) -> Game:
    q = {q.player: q.hand for q in game.squadrons}
    from game.commands import PickCard

    for player, idx in (("A", 0), ("B", 0), ("A", 1), ("B", 1)):
        cmd = PickCard(player, q[player][idx])
        game = apply_all(game, decide(game, cmd, FairDice(seed_from_number(game.seed), game.log_position)))
    return game


def _decide_and_apply():  # type: ignore[no-untyped-def]
    """Today's engine hands back the state it built; the start-of-issue engine (benchmarks/baseline.py)
    only the events, which the caller applied again."""
    from game import engine

    if hasattr(engine, "decide_and_apply"):
        return engine.decide_and_apply

    def both(state, cmd, dice):  # type: ignore[no-untyped-def]
        events = decide(state, cmd, dice)
        return events, apply_all(state, events)

    return both


def activations_per_second(game: Game, turns: int, rng: random.Random) -> tuple[float, int, list[float]]:
    """Play every Movement activation of several turns; time decide + apply of the chosen orders."""
    play = _decide_and_apply()
    state = to_movement(game)
    times: list[float] = []
    while state.turn <= turns and state.phase is not Phase.OVER:
        if state.phase is Phase.MOVEMENT and state.activation is None:
            ships = [s for s in state.ships_of(state.active_player or "") if s.can_act and s.id not in state.activated]
            options = [c for c in candidates(state) if isinstance(c, Activate) and c.ship == ships[0].id]
            opts = rng.sample(options, min(40, len(options))) + options
            for cmd in opts:
                t0 = time.perf_counter()
                try:
                    _, state = play(state, cmd, FairDice(seed_from_number(state.seed), state.log_position))
                except RulesError:
                    continue
                times.append(time.perf_counter() - t0)
                break
        else:
            cmd = next(c for c in candidates(state) if is_legal(state, c))
            state = apply_all(state, decide(state, cmd, FairDice(seed_from_number(state.seed), state.log_position)))
    return len(times) / sum(times), len(times), times


TABLES = {"quick start (4 ships)": 6, "Engagement (20 ships, 8 terrain)": 3}


def measure() -> dict[str, list[float]]:
    """Each table's activations per second, count, median and worst (ms): one run, in this process."""
    activations_per_second(quickstart(seed=1), 1, random.Random(1))  # warm up: imports, data files
    rng = random.Random(1)
    out = {}
    for name, game in (("quick start (4 ships)", quickstart(seed=1)), ("Engagement (20 ships, 8 terrain)", engagement())):
        rate, n, times = activations_per_second(replace(game, seed=1), TABLES[name], rng)
        out[name] = [rate, n, statistics.median(times) * 1000, max(times) * 1000]
    return out


def main(rounds: int = 3) -> None:
    """Start-of-issue engine and today's, each in its own process, taken in turns; the median round."""
    from benchmarks import baseline

    runs: dict[bool, list[dict[str, list[float]]]] = {True: [], False: []}
    for _ in range(rounds):
        for old in (True, False):
            got = baseline.run("importlib.import_module('benchmarks.engine').measure()", old)
            if got is not None:
                runs[old].append(got)  # type: ignore[arg-type]
    for name in TABLES:
        new = sorted(runs[False], key=lambda r: r[name][0])[len(runs[False]) // 2][name]
        line = (f"{name}: {new[1]:.0f} activations, {new[0]:,.0f} activations/s, "
                f"p50 {new[2]:.2f} ms, max {new[3]:.2f} ms")
        if runs[True]:
            old = sorted(runs[True], key=lambda r: r[name][0])[len(runs[True]) // 2][name]
            line += f"; start of issue {old[0]:,.0f} activations/s (x{new[0] / old[0]:.2f})"
        print(line)


if __name__ == "__main__":
    main()
