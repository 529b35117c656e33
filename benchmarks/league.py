"""Leagues: Swiss pairing and standings for large fields (pure), the pairing search when rematches
can no longer be avoided, and an 8-player Swiss league of computer captains through the service on
SQLite (the one-turn quick start), as the bot test plays it."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from game.league.pairing import swiss, swiss_rounds
from game.league.standings import Result, standings


def _swiss_field(n: int, rounds: int, seed: int = 1) -> float:
    """Seconds to pair and rank `rounds` rounds of an n-entrant Swiss league with random results."""
    rnd = random.Random(seed)
    people = [f"p{i}" for i in range(n)]
    played: set[frozenset[str]] = set()
    byes: set[str] = set()
    results: list[Result] = []
    t0 = time.perf_counter()
    for _ in range(rounds):
        order = [s.entrant for s in standings(people, results)]
        pairs, bye = swiss(order, played, byes)
        played |= {frozenset(p) for p in pairs}
        if bye:
            byes.add(bye)
            results.append(Result(bye, None, bye))
        results += [Result(a, b, rnd.choice((a, b)), rnd.randint(0, 6), rnd.randint(0, 6)) for a, b in pairs]
    return time.perf_counter() - t0


async def _league_of_computers() -> tuple[float, list[float]]:
    from game.scenario import builtin_scenarios
    from game.service.db import make_engine, upgrade_to_head
    from game.service.game_service import Actor, GameService
    from game.service.league_settings import LeagueSettings

    short = builtin_scenarios()["quickstart"].replace('defender = "B"', 'defender = "B"\nlast_turn = 1')
    gm = Actor("1", "bench", gm=True)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'league.db'}"
        await upgrade_to_head(url)
        engine = make_engine(url)
        try:
            service = GameService(engine)
            leagues = service.leagues
            t0 = time.perf_counter()
            # closed by a GM's /league round: each round's time is the games, the close and the pairing
            await leagues.create(gm, "c", "Bench", scenario="short", scenario_text=short,
                                 settings=LeagueSettings(auto_close=False))
            for _ in range(8):
                await leagues.join(gm, "Bench", ai=True)
            await leagues.start(gm, "Bench")
            rounds = []
            for _ in range(3):
                r0 = time.perf_counter()
                for p in (await leagues.show("bench", "Bench")).pairings:
                    if p.game_id is not None:
                        await service.commands.play_ai(p.game_id, limit=2000)
                await leagues.next_round(gm, "Bench")
                rounds.append(time.perf_counter() - r0)
            assert (await leagues.standings("bench", "Bench")).final
            return time.perf_counter() - t0, rounds
        finally:
            await engine.dispose()


def main() -> None:
    for n in (64, 256, 1024):
        rounds = swiss_rounds(n)
        print(f"Swiss, {n} entrants: {rounds} rounds paired and ranked in {_swiss_field(n, rounds) * 1000:.0f} ms")
    # played for as many rounds as a round robin, a field runs short of fresh opponents: the search for a
    # pairing without rematches backtracks, within its budget (SEARCH_BUDGET steps a round)
    print(f"Swiss, 30 entrants for 29 rounds (the search's worst): {_swiss_field(30, 29) * 1000:.0f} ms")
    total, rounds = asyncio.run(_league_of_computers())
    print(f"8-player Swiss league of computer captains (SQLite, one-turn games): {total:.2f} s in all; "
          f"per round (4 games played, then closed and paired): {', '.join(f'{r:.2f} s' for r in rounds)}")
