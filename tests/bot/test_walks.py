"""The walks of docs/architecture.md, counted on the real bot over the fake Discord: how often one
interaction calls into the service's parts, loads the game, and (as several processes sharing a
PostgreSQL database must) checks a cached game's version. Issue 23 measured one `/move` at 18 calls,
12 loads and 11 version checks; one read model for a board post brings it to at most 6 calls and 3
loads. Each walk prints its counts (run with `-s`) and holds them at what was measured: the initiative
pick that reveals the cards, a deadline the computer captain answers, and a referee system's secret
order that reveals the orders are walks (b), (c) and (d).

The outbox's own mailbox work (the courier's claims and deliveries) is not a call into the game: it is
counted apart, as rows."""

from __future__ import annotations

import functools
import inspect
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import discord
from sqlalchemy import update

from game import events as ev
from game.service.game_service import GameService
from game.service.models import ScheduledJob, utcnow
from game.service.scheduler import run_due
from tests.bot.fake_discord import command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, pick, setup_game

# the courier's mailbox: rows claimed and recorded, not calls into a game
MAILBOX = {"front.claim", "front.delivered", "front.failed", "front.games_due", "front.later_boards"}
PARTS = ("commands", "undo", "lobby", "seats", "reading", "squadrons", "data", "audit", "front", "clock",
         "orders", "leagues", "referee", "autoplay")


class Walk:
    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.loads = 0
        self.version_checks = 0

    @property
    def total(self) -> int:
        return sum(n for call, n in self.calls.items() if call not in MAILBOX)


def _counted(fn: Callable[..., Awaitable[Any]], tick: Callable[[], None]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(fn)
    async def run(*args: Any, **kwargs: Any) -> Any:
        tick()
        return await fn(*args, **kwargs)

    return run


@contextmanager
def walked(service: GameService) -> Iterator[Walk]:
    """Count the calls that reach the service from outside it: a part calling another part (the lobby
    asking commands to enlist a squadron) is the service's own business, not a hop of the bot's."""
    walk = Walk()
    depth = [0]
    undo: list[tuple[object, str]] = []

    def wrap(owner: object, name: str, tick: Callable[[], None]) -> None:
        fn = getattr(owner, name)
        setattr(owner, name, _counted(fn, tick))
        undo.append((owner, name))

    def outer(fn: Callable[..., Awaitable[Any]], key: str) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(fn)
        async def run(*args: Any, **kwargs: Any) -> Any:
            if depth[0] == 0:
                walk.calls[key] += 1
            depth[0] += 1
            try:
                return await fn(*args, **kwargs)
            finally:
                depth[0] -= 1

        return run

    for part_name in PARTS:
        part = getattr(service, part_name)
        for name, fn in inspect.getmembers(part, inspect.iscoroutinefunction):
            if not name.startswith("_"):
                setattr(part, name, outer(fn, f"{part_name}.{name}"))
                undo.append((part, name))

    def load_tick() -> None:
        walk.loads += 1

    def version_tick() -> None:
        walk.version_checks += 1

    wrap(service.store, "load_any", load_tick)  # every system's loads (Oak & Iron's `load` calls it)
    wrap(service.store.repo, "version_of", version_tick)
    try:
        yield walk
    finally:
        for owner, name in undo:
            delattr(owner, name)


async def started(harness: Any) -> Any:
    bot, fake = harness
    bot.service.store.shared = True  # as several processes on PostgreSQL: a cached game is checked first
    await setup_game(bot, fake)
    for user, card in ((ANN, "Effective Fire"), (BOB, "Take Courage"), (ANN, "Careful Aim"), (BOB, "Reload!")):
        await pick(bot, fake, user, card)
    return bot, fake


async def test_one_move_is_a_short_walk(harness: Any) -> None:
    bot, fake = await started(harness)
    with walked(bot.service) as walk:
        sent = await dispatch(bot, command(ANN, "move", ship="Kestrel", turn="end", turn_side="port",
                                           turn_degrees=30.0), fake)
    assert not last_followup(sent).content.startswith("❌")
    assert any(r.in_channel and r.files for r in sent), "the board was posted"
    print(f"/move: {walk.total} calls, {walk.loads} loads, {walk.version_checks} version checks: {dict(walk.calls)}")
    assert walk.total <= 6 and walk.loads <= 3, (walk.total, walk.loads, walk.version_checks, walk.calls)
    assert walk.version_checks <= walk.loads


async def test_the_pick_that_reveals_is_a_short_walk(harness: Any) -> None:
    """Walk (b): the last initiative pick of the set-up, through the button and the private menu, to
    the board post of the reveal."""
    bot, fake = harness
    bot.service.store.shared = True
    await setup_game(bot, fake)
    await pick(bot, fake, ANN, "Effective Fire")
    with walked(bot.service) as walk:
        sent = await pick(bot, fake, BOB, "Take Courage")
    assert not last_followup(sent).content.startswith("❌")
    assert any(r.in_channel and r.files for r in sent), "the board of the reveal was posted"
    revealed = [e for _, _, e in await bot.service.store.repo.events(1) if isinstance(e, ev.CardsRevealed)]
    assert len(revealed) == 1
    print(f"pick (reveal): {walk.total} calls, {walk.loads} loads, {walk.version_checks} version checks: "
          f"{dict(walk.calls)}")
    # two interactions (the button opens the hand, the menu picks), each reading the guild's settings;
    # one read of the hand, the pick, one board read for the reveal's posts, and the driver's step
    assert walk.total <= 6 and walk.loads <= 5, (walk.total, walk.loads, walk.version_checks, walk.calls)
    assert walk.version_checks <= walk.loads


async def test_a_deadline_is_a_short_walk(harness: Any) -> None:
    """Walk (c): a player's deadline falls due; the scheduler runs the bot's handler, the clock lets the
    computer captain play the late activation, and the channel is told."""
    bot, fake = await started(harness)
    gm = discord.Permissions(manage_guild=True).value
    await dispatch(bot, command(EVE, "clock", "settings", permissions=gm, on_deadline="captain"), fake)
    async with bot.service.store.repo.session() as s, s.begin():
        await s.execute(update(ScheduledJob).where(ScheduledJob.kind == "deadline",  # type: ignore[arg-type]
                                                   ScheduledJob.status == "pending")  # type: ignore[arg-type]
                        .values(due_at=utcnow() - timedelta(minutes=1)))
    mark = len(fake.requests)
    with walked(bot.service) as walk:
        assert await run_due(bot.service.store.repo, {"deadline": bot._deadline}) == 1
    posted = [r for r in fake.requests[mark:] if r.in_channel]
    assert any("deadline has passed" in r.content for r in posted) and any(r.files for r in posted)
    print(f"deadline: {walk.total} calls, {walk.loads} loads, {walk.version_checks} version checks: "
          f"{dict(walk.calls)}")
    # the clock's own loads (the ClockChanged commit, then each command of the late activation) are
    # inside one call, clock.due_deadline
    assert walk.total <= 4 and walk.loads <= 6, (walk.total, walk.loads, walk.version_checks, walk.calls)
    assert walk.version_checks <= walk.loads


async def test_a_referee_order_that_reveals_is_a_short_walk(harness: Any) -> None:
    """Walk (d): in a referee system's game (WS&IM), the second secret order of a round, which reveals
    both: one call into the referee part, one load through the game store, its reveal posted through
    the outbox."""
    from tests.bot.test_referee_bot import Table

    bot, fake = harness
    bot.service.store.shared = True
    t = Table(bot, fake)
    await t.start("wsim", {ANN: "British", BOB: "French", EVE: "Umpire"})
    await t.ok(EVE, "do", line="next")  # to D: B and C have nothing to do
    await t.ok(ANN, "order", line="plot Victory 1")
    mark = len(fake.requests)
    with walked(bot.service) as walk:
        await t.ok(BOB, "order", line="plot Redoutable L1R1")
    assert any(r.in_channel and "Revealed:" in r.content for r in fake.requests[mark:])
    print(f"referee order (reveal): {walk.total} calls, {walk.loads} loads, {walk.version_checks} version checks: "
          f"{dict(walk.calls)}")
    # the channel's game found without a load, the guild's settings, the order decided and written on
    # one load (checked against the stored version, as a shared database needs), the reveal posted
    # through the outbox, whose courier reads the game's place once
    assert walk.total <= 5 and walk.loads <= 2, (walk.total, walk.loads, walk.version_checks, walk.calls)
    assert walk.version_checks <= walk.loads


async def test_the_walk_counter_counts(harness: Any) -> None:
    bot, _ = await started(harness)
    with walked(bot.service) as walk:
        await bot.service.reading.position(1)
        await bot.service.lobby.info(1)
    assert walk.calls == Counter({"reading.position": 1, "lobby.info": 1}) and walk.loads == 2
    assert "position" not in vars(bot.service.reading)  # every wrapper is gone after the walk
