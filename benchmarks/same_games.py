"""Not a timing: the rules must not change while the engine gets quicker. Seeded games are played
by today's engine and by the start of issue 15's (benchmarks/baseline.py), each in its own process,
and their event logs compared by digest: computer-captain quick-start games (the frozen old captain,
so both sides of the comparison make the same choices) and random legal orders on the quick start
and the crowded 20-ship Engagement (collisions, pushes, shoals, Cut Free)."""

from __future__ import annotations

import hashlib
import random
import sys
from dataclasses import replace

GAMES = 20
RANDOM_ROUNDS = 3


def _digest(events: object) -> str:
    return hashlib.sha256(repr(events).encode()).hexdigest()[:16]


def _random_orders(game, turns: int, rng: random.Random) -> list[object]:  # type: ignore[no-untyped-def]
    """Random Movement orders (the first the engine accepts), other decisions the first legal one;
    refusals are recorded too, with their messages."""
    from benchmarks.engine import to_movement
    from game.ai.legal import candidates, is_legal
    from game.apply import apply_all
    from game.commands import Activate
    from game.dice import FairDice, seed_from_number
    from game.engine import decide
    from game.errors import RulesError
    from game.model import Phase

    state = to_movement(game)
    log: list[object] = []
    while state.turn <= turns and state.phase is not Phase.OVER:
        if state.phase is Phase.MOVEMENT and state.activation is None:
            ships = [s for s in state.ships_of(state.active_player or "") if s.can_act and s.id not in state.activated]
            options = [c for c in candidates(state) if isinstance(c, Activate) and c.ship == ships[0].id]
            for cmd in rng.sample(options, min(40, len(options))) + options:
                try:
                    events = decide(state, cmd, FairDice(seed_from_number(state.seed), state.log_position))
                except RulesError as e:
                    log.append(("refused", type(e).__name__, str(e)))
                    continue
                state = apply_all(state, events)
                log.extend(events)
                break
        else:
            cmd = next(c for c in candidates(state) if is_legal(state, c))
            events = decide(state, cmd, FairDice(seed_from_number(state.seed), state.log_position))
            state = apply_all(state, events)
            log.extend(events)
    return log


def digests(games: int, rounds: int, captain_module: str) -> list[str]:
    import importlib

    from benchmarks import baseline
    from benchmarks.engine import engagement
    from game.ai.match import play
    from game.rules_data import load_rules
    from game.scenario import quickstart

    # "baseline": the start-of-issue captain (from git) with this checkout's engine
    captain = (baseline.old_module("game/ai/captain.py", "baseline_captain") if captain_module == "baseline"
               else importlib.import_module(captain_module))
    assert captain is not None, "the start-of-issue captain needs git"
    rules = load_rules()
    out = []
    for seed in range(1, games + 1):
        base = replace(quickstart(), seed=seed)
        session = play(base, {p: captain.Captain(p, seed, rules) for p in base.players}, rules)
        out.append(f"ai {seed} {_digest(session.events)}")
    for k in range(rounds):
        rng = random.Random(k)
        for name, game, turns in (("quick start", quickstart(seed=k + 1), 6), ("Engagement", engagement(), 3)):
            out.append(f"{name} {k} {_digest(_random_orders(replace(game, seed=k + 1), turns, rng))}")
    return out


def main(games: int = GAMES) -> None:
    from benchmarks import baseline

    new = baseline.run(f"importlib.import_module('benchmarks.same_games').digests({games}, {RANDOM_ROUNDS}, "
                       "'baseline')", old=False)
    old = baseline.run(f"importlib.import_module('benchmarks.same_games').digests({games}, {RANDOM_ROUNDS}, "
                       "'game.ai.captain')", old=True)
    if old is None:
        print("the start-of-issue code is not available (no git): nothing compared")
        return
    differ = [f"{a} / {b}" for a, b in zip(old, new, strict=True) if a != b]  # type: ignore[call-overload]
    print(f"{len(new)} event logs ({games} captain games, {RANDOM_ROUNDS} rounds of random orders on two "  # type: ignore[arg-type]
          f"tables): {'all identical' if not differ else f'{len(differ)} differ: ' + '; '.join(differ)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
