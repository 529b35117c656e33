"""Issue 11's upload bombs: how long each loader takes to refuse each one (tests/bombs.py), and how
long the trial game an imported data set must pass takes."""

from __future__ import annotations

import time

from game.data_trial import trial_game
from game.errors import DataError
from game.rules_data import default_texts, load_rules, rules_from_texts
from game.scenario import load_scenario_text
from game.squadron import parse_squadron
from tests.bombs import DATA_BOMBS, SCENARIO_BOMBS, SQUADRON_BOMBS, Bomb


def _refuse(bomb: Bomb) -> float:
    text = bomb.text()
    load = {"scenario": lambda: load_scenario_text(text),
            "squadron": lambda: parse_squadron(text),
            "data": lambda: rules_from_texts("oak_and_iron", {**default_texts(), bomb.file: text})}[bomb.kind]
    t0 = time.perf_counter()
    try:
        load()
    except DataError:
        return time.perf_counter() - t0
    raise AssertionError(f"{bomb.name} was accepted")


def main() -> None:
    load_rules()
    for kind, bombs in (("scenario", SCENARIO_BOMBS), ("data", DATA_BOMBS), ("squadron", SQUADRON_BOMBS)):
        times = sorted((_refuse(b), b.name) for b in bombs)
        slowest = ", ".join(f"{name} {t * 1000:.0f} ms" for t, name in times[-3:][::-1])
        print(f"{kind}: {len(bombs)} bombs refused, median {times[len(times) // 2][0] * 1000:.1f} ms; "
              f"slowest: {slowest}")
    t0 = time.perf_counter()
    trial_game(load_rules())
    print(f"trial game for an imported data set (built-in data): {(time.perf_counter() - t0) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
