"""Play by chat: how often each player is woken per turn, with and without standing orders.

Quick-start games are played by computer captains standing in for the players. A player is *woken*
when the game comes to wait for them and they are not already at the screen (their own answer was
the decision just before). Without standing orders every decision is theirs to take; with them,
each player, whenever woken, gives orders for everything they can foresee (the captain's move for
each ship still to move, fire as the captain judges best, re-roll with Skill then Fortune, the
captain playing any order that has become illegal: game.standing.captain_orders), and the orders
(game.standing.step) take every decision they cover. The initiative pick is always a wake.
Set-up (turn 0) is not counted. Target: at most 2 wake-ups per player per turn.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace

from game import standing
from game.ai.captain import Captain
from game.model import Phase
from game.phases.flow import deciders
from game.rules_data import RulesData, load_rules
from game.scenario import quickstart
from game.table_session import TableSession
from game.views import view_of

GAMES = 12
MAX_DECISIONS = 5000


def play(seed: int, rules: RulesData, orders_on: bool) -> tuple[float, int]:
    """One game: the mean wake-ups per player per turn, and the turns played."""
    game = replace(quickstart(), seed=seed)
    session = TableSession(game, rules)
    captains = {p: Captain(p, seed, rules) for p in game.players}
    orders: dict[str, standing.Standing] = {}
    wakes = {p: 0 for p in game.players}
    present: str | None = None  # the player whose own answer was the last decision
    for n in range(MAX_DECISIONS):
        due = deciders(session.state)
        if not due:
            break
        player = sorted(due)[0]
        state = session.state
        if orders_on:
            found = standing.step(view_of(state, player), orders.get(player), rules, f"{seed}:{n}")
            if found is not None and found.command is not None:
                orders[player] = found.orders
                session.submit(found.command)
                present = None
                continue
        if present != player and state.turn >= 1 and state.phase is not Phase.SETUP:
            wakes[player] += 1
        session.submit(captains[player].act(state))
        present = player
        if orders_on and deciders(session.state):
            orders[player] = standing.captain_orders(view_of(session.state, player), rules, f"{seed}:{n}")
    turns = max(1, session.state.turn)
    return statistics.mean(w / turns for w in wakes.values()), turns


def main(games: int = GAMES) -> None:
    rules = load_rules()
    rows = {}
    for label, on in (("without standing orders", False), ("with standing orders", True)):
        t0 = time.perf_counter()
        figures = [play(seed, rules, on) for seed in range(1, games + 1)]
        rows[label] = (statistics.mean(f for f, _ in figures), max(f for f, _ in figures),
                       statistics.mean(t for _, t in figures), time.perf_counter() - t0)
    for label, (mean, worst, turns, took) in rows.items():
        print(f"{label:>24}: {mean:.2f} wake-ups per player per turn (worst game {worst:.2f}); "
              f"{games} games, {turns:.1f} turns each, {took:.1f} s")
    with_orders = rows["with standing orders"][0]
    print(f"target: at most 2 with standing orders: {'met' if with_orders <= 2 else 'NOT met'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES)
