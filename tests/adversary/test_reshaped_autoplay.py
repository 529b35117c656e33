"""The reshaped driver: `AutoPlay.step` plays a captain's move, a planned order or standing orders from
one load, and `Driver.advance` calls it until nothing is due. A refused planned order is told and the
standing orders still play after it; a fault of the service in the middle (the game kept busy by
another process past every retry) refuses nothing, clears nothing, and the next pass plays it all."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from game import events as ev
from game.service import orders_store
from game.service.db import make_engine
from game.service.driver import Driver
from game.service.game_service import GameService
from game.service.models import OutboxRow, PlannedOrder
from game.service.repository import VersionConflict
from tests.databases import sqlite_at_head
from tests.seeds import counting_seeds
from tests.service.test_trust import ANN, new_game, to_movement


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    url = sqlite_at_head(tmp_path / "qd.db")
    engine = make_engine(url)
    try:
        yield GameService(engine, seeds=counting_seeds(), outbox=True)
    finally:
        await engine.dispose()


async def ready(service: GameService) -> int:
    """The quick start in its Movement Phase, waiting for Ann (A: Kestrel and Amazone)."""
    gid = await new_game(service)
    await to_movement(service, gid)
    state = await service.reading.state_for_audit(gid)
    assert state.phase.value == "movement" and state.active_player == "A"
    return gid


async def planned(service: GameService, gid: int) -> list[tuple[str, str]]:
    async with service.store.repo.session() as s:
        rows = (await s.execute(select(PlannedOrder).where(PlannedOrder.game_id == gid)  # type: ignore[arg-type]
                                .order_by(PlannedOrder.id))).scalars()  # type: ignore[arg-type]
        return [(r.line, r.status) for r in rows]


async def outbox_kinds(service: GameService, gid: int) -> list[str]:
    async with service.store.repo.session() as s:
        rows = (await s.execute(select(OutboxRow).where(OutboxRow.game_id == gid)  # type: ignore[arg-type]
                                .order_by(OutboxRow.id))).scalars()  # type: ignore[arg-type]
        return [r.kind for r in rows]


async def moved(service: GameService, gid: int) -> list[str]:
    return [e.activation.ship for e in await service.reading.log(ANN, gid, 500) if isinstance(e, ev.ActivationBegan)]


def busy(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process writes the game before every commit of this one: each append finds it moved on."""
    async def append(*args: Any, **kwargs: Any) -> Any:
        raise VersionConflict("moved on")

    monkeypatch.setattr(service.store.repo, "append", append)


async def test_a_refused_planned_order_is_told_and_the_standing_orders_play_after_it(service: GameService) -> None:
    gid = await ready(service)
    await service.commands.plan(ANN, gid, 'done "Kestrel"')  # no activation under way when it is reached
    await service.orders.move(ANN, gid, 'move "Kestrel"')
    played = await Driver(service, pace=0).advance(gid)
    assert await planned(service, gid) == [("A: done Kestrel", "refused")]
    assert "Kestrel" in await moved(service, gid), "the standing orders played after the refused plan"
    assert played >= 2
    kinds = await outbox_kinds(service, gid)
    assert "planned" in kinds and "note" in kinds, kinds  # each told to the player, by DM


async def test_a_fault_mid_step_refuses_no_planned_order(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await ready(service)
    await service.commands.plan(ANN, gid, 'move "Kestrel"')
    with monkeypatch.context() as m:
        busy(service, m)
        assert await Driver(service, pace=0).advance(gid) == 0
    assert await planned(service, gid) == [("A: move Kestrel", "pending")], "a fault is not a refusal"
    assert "planned" not in await outbox_kinds(service, gid), "nobody is told their order was refused"
    await Driver(service, pace=0).advance(gid)
    assert await planned(service, gid) == [("A: move Kestrel", "applied")]
    assert "Kestrel" in await moved(service, gid)


async def test_a_fault_mid_step_clears_no_standing_orders(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await ready(service)
    await service.orders.move(ANN, gid, 'move "Kestrel"')
    with monkeypatch.context() as m:
        busy(service, m)
        assert await Driver(service, pace=0).advance(gid) == 0
    kept = await orders_store.load_orders(service.store.repo, gid, "A")
    assert kept is not None and kept[0].of("Kestrel") is not None, "the standing orders survive a fault"
    assert "note" not in await outbox_kinds(service, gid), "no 'refused, orders cleared' note for a fault"
    await Driver(service, pace=0).advance(gid)
    assert "Kestrel" in await moved(service, gid)


async def test_a_fault_reaches_the_caller_of_a_step_as_a_fault(service: GameService,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from game.errors import RulesError
    from game.service.errors import is_fault

    gid = await ready(service)
    await service.commands.plan(ANN, gid, 'move "Kestrel"')
    with monkeypatch.context() as m:
        busy(service, m)
        with pytest.raises(Exception) as raised:
            await service.autoplay.step(gid)
    assert is_fault(raised.value) and not isinstance(raised.value, RulesError), repr(raised.value)
    assert await planned(service, gid) == [("A: move Kestrel", "pending")]


async def test_captains_and_planned_orders_play_in_one_pass(service: GameService) -> None:
    """B is the computer captain; Ann has planned both her activations. One pass of the driver plays
    the captain's picks and moves and Ann's planned orders each when play reaches her, in turn."""
    info = await service.lobby.create_game(ANN, "chan-ai")
    gid = info.id
    await service.lobby.join(ANN, gid, "A", "Ann")
    await service.lobby.join(ANN, gid, "B", ai=True)
    await service.commands.submit(ANN, gid, "pick A Effective Fire")
    await Driver(service, pace=0).advance(gid)  # the captain picks: revealed
    await service.commands.submit(ANN, gid, "pick A Careful Aim")  # the next turn's pick
    await Driver(service, pace=0).advance(gid)
    state = await service.reading.state_for_audit(gid)
    assert state.phase.value == "movement", state.phase
    await service.commands.plan(ANN, gid, 'move "Kestrel"')
    await service.commands.plan(ANN, gid, 'move "Amazone"')
    await Driver(service, pace=0).advance(gid)
    assert await planned(service, gid) == [("A: move Kestrel", "applied"), ("A: move Amazone", "applied")]
    ships = await moved(service, gid)
    assert {"Kestrel", "Amazone"} <= set(ships) and {"Otter", "Hoorn"} & set(ships), ships
