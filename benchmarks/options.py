"""The options in words per interaction (issue 29): what the board read works out for every player the
game waits on (`public_options_job`, game/service/jobs.py: as far as the board post and its menu show
them), timed in CPU ms at each decision of seeded games: the quick start, the 20-ship Engagement and fleets of 16, 32 and 64
ships a side (benchmarks/fleets.py). Main's code when the work began (BASE, from git at run time:
benchmarks/baseline.py) runs the same interactions in a child process beside today's.

`python -m benchmarks options [SCALE]`: SCALE (default 1) multiplies the interactions timed."""

from __future__ import annotations

import random
import time
from dataclasses import replace

BASE = "58b9578"  # main when issue 29 was taken up
# (name, ships a side or 0 for the quick start, 10 for the Engagement, interactions timed)
TABLES = (("quick start", 0, 60), ("20-ship Engagement", 10, 60), ("16 a side", 16, 24), ("32 a side", 32, 6),
          ("64 a side", 64, 3))
TARGETS = {"20-ship Engagement": 30.0, "32 a side": 100.0}


def interactions(per_side: int, count: int) -> list[object]:
    """The states a player is asked to act in: consecutive decisions of a seeded game, from the first
    activation of the Movement Phase (the dearest: every ship still to act)."""
    from benchmarks.engine import engagement
    from benchmarks.fleets import fleet, random_play
    from game.ai.captain import Captain
    from game.ai.match import play
    from game.scenario import quickstart

    if per_side == 0:
        states: list[object] = []
        for seed in range(1, 100):
            if len(states) >= count:
                break
            base = replace(quickstart(), seed=seed)
            play(base, {p: Captain(p, seed) for p in base.players}, after_each=lambda s: states.append(s.state))
        return states[:count]
    game = replace(engagement() if per_side == 10 else fleet(per_side), seed=1)
    rng = random.Random(1)
    state = random_play(game, rng, 0, start=True)
    out = [state]
    while len(out) < count:
        state = random_play(state, rng, 1)
        out.append(state)
    return out


def measure(per_side: int, count: int) -> list[float]:
    """CPU ms of each interaction's options, for every player the game waits on."""
    from game.phases.flow import deciders
    from game.rules_data import load_rules
    from game.service.jobs import public_options_job

    rules = load_rules()
    states = interactions(per_side, count)
    from game.service import jobs

    warm = getattr(jobs, "warm_worker", None)  # the bot's workers start so (main's code had no such start)
    if warm is not None:
        warm()
    public_options_job(states[0], sorted(deciders(states[0]))[:1], rules)  # type: ignore[arg-type]  # warm: imports, data
    out = []
    for state in states:
        t0 = time.process_time()
        public_options_job(state, sorted(deciders(state)), rules)  # type: ignore[arg-type]  # the board read's job
        out.append((time.process_time() - t0) * 1000)
    return out


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def _summary(xs: list[float]) -> str:
    return f"p50 {_quantile(xs, 0.5):7.1f}  p99 {_quantile(xs, 0.99):7.1f}  max {max(xs):7.1f}"


def main(scale: int = 1) -> None:
    from benchmarks import baseline

    p99: dict[str, tuple[float, float | None]] = {}
    print(f"CPU ms per interaction (the options of every player the game waits on); baseline: {BASE} from git")
    for name, per_side, count in TABLES:
        n = count * scale
        call = f"importlib.import_module('benchmarks.options').measure({per_side}, {n})"
        new = baseline.run(call, old=False)
        old = baseline.run(call, old=True, commit=BASE)
        assert isinstance(new, list)
        line = f"{name:20} {n:4} interactions  today {_summary(new)}"
        if isinstance(old, list):
            line += f"  | baseline {_summary(old)}  (p99 x{_quantile(old, 0.99) / max(_quantile(new, 0.99), 1e-9):.1f} quicker)"
        target = TARGETS.get(name)
        if target is not None:
            line += f"  target p99 <= {target:g} ms: {'met' if _quantile(new, 0.99) <= target else 'MISSED'}"
        print(line, flush=True)
        p99[name] = (_quantile(new, 0.99), _quantile(old, 0.99) if isinstance(old, list) else None)
    for small, big in (("16 a side", "32 a side"), ("32 a side", "64 a side")):
        growth = p99[big][0] / p99[small][0]
        old_growth = (f", baseline x{p99[big][1] / p99[small][1]:.1f}"  # type: ignore[operator]
                      if p99[big][1] and p99[small][1] else "")
        print(f"growth of p99 per doubling, {small} -> {big}: x{growth:.2f} (target <= x2.5: "
              f"{'met' if growth <= 2.5 else 'MISSED'}){old_growth}")
