"""Two hundred seeded table moments for the options in words (issue 29): where they came from, and
the words each player waiting there was shown when they were recorded.

Each moment is a recipe, not a stored state: a table (the quick start, the 20-ship Engagement, a fleet
battle of 16, 32 or 64 ships a side: benchmarks/fleets.py), a seed, and how many decisions were
played from the start (the quick start by two computer captains, the others by random legal orders).
`python -m tests.game.option_positions` prints every moment's words as JSON lines; the file
tests/game/data/option_words.jsonl is that output, made with the options code of commit 58b9578
(main before issue 29's options work), before game/options.py was changed."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from dataclasses import replace

from benchmarks.engine import engagement
from benchmarks.fleets import fleet, random_play
from game.ai.captain import Captain
from game.ai.match import play
from game.model import Game
from game.options import public_options
from game.phases.flow import deciders
from game.rules_data import RulesData, load_rules
from game.scenario import quickstart
from game.views import view_of

WORDS = "tests/game/data/option_words.jsonl"

# (table, ships a side, seeds, decisions played from the start at each recorded moment)
RANDOM_TABLES = (
    ("engagement", 10, range(1, 8), (1, 4, 9, 14, 19, 24, 30, 37, 45, 55)),
    ("fleet", 16, range(1, 6), (1, 6, 15, 25, 33, 40, 50)),
    ("fleet", 32, range(1, 5), (1, 20, 45, 70, 90)),
    ("fleet", 64, range(1, 2), (1, 40, 90, 130, 170)),
)
CAPTAIN_SEEDS = range(1, 11)
CAPTAIN_MOMENTS = 7


def _table(name: str, per_side: int, seed: int) -> Game:
    return replace(engagement() if name == "engagement" else fleet(per_side), seed=seed)


def moments() -> Iterator[tuple[str, Game]]:
    """(label, state) for each of the 200 moments, always in the same order."""
    rules = load_rules()
    for seed in CAPTAIN_SEEDS:
        base = replace(quickstart(), seed=seed)
        states: list[Game] = []
        play(base, {p: Captain(p, seed, rules) for p in base.players}, rules,
             after_each=lambda session, kept=states: kept.append(session.state))
        picked = sorted(random.Random(seed).sample(range(len(states) - 1), CAPTAIN_MOMENTS))
        for n in picked:
            yield f"quick start {seed} @{n + 1}", states[n]
    for name, per_side, seeds, steps in RANDOM_TABLES:
        for seed in seeds:
            rng = random.Random(seed)
            state = _table(name, per_side, seed)
            done = 0
            for n in steps:
                state = random_play(state, rng, n - done) if done else random_play(state, rng, n, start=True)
                done = n
                yield f"{name} {per_side} {seed} @{n}", state


def words(state: Game, rules: RulesData) -> dict[str, list[object]]:
    """For each player the game waits on: the summary and every option (ship, text, order)."""
    out: dict[str, list[object]] = {}
    for player in sorted(deciders(state)):
        found = public_options(view_of(state, player), rules)
        out[player] = [found.summary, [[o.ship, o.text, o.order] for o in found.items]]
    return out


def main() -> None:
    rules = load_rules()
    for label, state in moments():
        print(json.dumps({"moment": label, "words": words(state, rules)}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
    sys.exit(0)
