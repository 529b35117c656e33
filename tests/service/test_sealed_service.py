"""Issue 22, property 4, through the service: sealed means sealed over random interleavings of the
players' and the referee's commands, the referee's undo and restarts (a new service over the same
database, its cache empty). (These games have no hand-over, clock or vacation: their seats are taken
once, and they have reminders only.)

tests/systems/test_sealed.py holds the property for each system's decide and apply; this test holds
it where players meet it: what the service stores. After every step the stored log, watched event by
event, never shows a sealed order changed once the reveal of its impulse began; an undo never takes
back an order sealed after it began; and a restarted service reads back exactly the game the running
one holds."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from game.errors import RulesError
from game.service.authority import Actor
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import GameService
from game.service.referee import RefereeService
from game.systems.orders import OrdersRevealed
from tests.seeds import counting_seeds
from tests.systems.test_sealed import Watch, cs_lines

G = "g"
SEATS = {"US": Actor("101", G), "British": Actor("102", G), "Umpire": Actor("103", G)}
UNDO, RESTART, NEXT = "(undo)", "(restart)", "Umpire: next"  # the referee moves play on
STEPS = 120
channels = itertools.count(1)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('sealed') / 'q.db'}"
    asyncio.run(upgrade_to_head(url))
    return url


def watched(log: list[tuple[int, int, Any]]) -> Watch:
    """A watch fed the stored log (Captain's Sea: only a reveal begins an impulse's reveal); it asserts
    as it reads."""
    watch = Watch(lambda e: False)
    for _, _, e in log:
        watch.see(e)
    return watch


@dataclass
class Seen:
    state: Any
    log: list[tuple[int, int, Any]]  # (seq, command, event) still in effect


async def stored(ref: RefereeService, gid: int) -> Seen:
    """The game as the database holds it, read afresh, with the commands still in effect: an undo
    is a restore event naming the command it took back."""
    game = await ref._load(gid, fresh=True)
    log: list[tuple[int, int, Any]] = []
    for seq, cmd, e in await ref.store.repo.events(gid, system=game.system):
        if type(e).__name__ == "StateRestored":
            log = [row for row in log if row[1] < e.undid]
        else:
            log.append((seq, cmd, e))
    return Seen(game.state, log)


async def play(url: str, steps: list[tuple[str, int]]) -> None:
    engine = make_engine(url)
    try:
        ref = GameService(engine, seeds=counting_seeds(next(channels))).referee
        info = await ref.create_game(SEATS["Umpire"], f"chan-{next(channels)}", "captains_sea")
        gid = info.id
        for seat, member in SEATS.items():
            await ref.join(member, gid, seat, f"member {member.user_id}")
        before = await stored(ref, gid)
        for choice, pick in steps:
            if choice == RESTART:
                ref = GameService(engine, seeds=counting_seeds(next(channels))).referee
                assert (await stored(ref, gid)).state == before.state, "a restart read back another game"
                continue
            lines = cs_lines(before.state)
            line = NEXT if choice == NEXT else lines[pick % len(lines)]
            try:
                if choice == UNDO:
                    await ref.undo(SEATS["Umpire"], gid)
                else:
                    await ref.submit(SEATS[line.split(":")[0]], gid, line)
            except RulesError:
                pass
            after = await stored(ref, gid)
            watch = watched(after.log)
            if len(after.log) < len(before.log):  # an undo: what it took back, and the watch before it
                assert after.log == before.log[:len(after.log)]
                watched(before.log).undo([e for _, _, e in before.log[len(after.log):]], watch)
            before = after
        event(f"reveals: {min(sum(isinstance(e, OrdersRevealed) for _, _, e in before.log), 5)}")
    finally:
        await engine.dispose()


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(st.sampled_from(["line"] * 10 + [NEXT] * 4 + [UNDO, RESTART]),
                                st.integers(0, 10_000)), min_size=STEPS // 2, max_size=STEPS))
def test_sealed_orders_stand_through_the_service(db: str, steps: list[tuple[str, int]]) -> None:
    asyncio.run(play(db, steps))
