"""Who stands in for an away member is asked on every command and every view (issue 29: reading it
fresh each time was most of an interaction's wait under load). A process keeps the few members away
with a stand-in and reads the list again after STAND_IN_LIST_FOR seconds, or at once after it writes
a member's hours. A vacation set through another process counts within that time; one ended or
forgotten in this process never lingers."""

from __future__ import annotations

from datetime import timedelta

import pytest

from game.service import orders_store
from game.service.game_service import GameService
from game.service.models import PlayerClock, utcnow


def _clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(orders_store.time, "monotonic", lambda: now[0])
    return now


def _away(user: str, stand_in: str, days: int = 3) -> PlayerClock:
    return PlayerClock(user_id=user, away_until=utcnow() + timedelta(days=days), away_mode="substitute",
                       substitute=stand_in)


async def test_this_process_sees_its_own_writes_at_once(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    _clock(monkeypatch)
    repo = service.store.repo
    assert await orders_store.stand_ins_named(repo, utcnow()) == {}
    await orders_store.save_clock(repo, _away("111", "333"))
    assert await orders_store.stand_ins_named(repo, utcnow()) == {"111": "333"}
    back = await orders_store.player_clock(repo, "111")
    back.away_until = None  # home early
    await orders_store.save_clock(repo, back)
    assert await orders_store.stand_ins_named(repo, utcnow()) == {}


async def test_another_process_is_heard_within_the_list_time(two: list[GameService],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    now = _clock(monkeypatch)
    mine, theirs = (s.store.repo for s in two)
    assert await orders_store.stand_ins_named(mine, utcnow()) == {}
    await orders_store.save_clock(theirs, _away("111", "333"))
    assert await orders_store.stand_ins_named(theirs, utcnow()) == {"111": "333"}
    assert await orders_store.stand_ins_named(mine, utcnow()) == {}  # as documented: not yet
    now[0] += orders_store.STAND_IN_LIST_FOR + 0.01
    assert await orders_store.stand_ins_named(mine, utcnow()) == {"111": "333"}


async def test_a_vacation_that_ends_while_listed_stops_counting(service: GameService,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _clock(monkeypatch)
    repo = service.store.repo
    await orders_store.save_clock(repo, _away("111", "333"))
    later = utcnow() + timedelta(days=4)  # past the vacation's end, the list not read again
    assert await orders_store.stand_ins_named(repo, later) == {}


async def test_forgetting_a_member_drops_them_from_the_list(service: GameService,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _clock(monkeypatch)
    repo = service.store.repo
    await orders_store.save_clock(repo, _away("111", "333"))
    await orders_store.save_clock(repo, _away("222", "111"))
    assert await orders_store.stand_ins_named(repo, utcnow()) == {"111": "333", "222": "111"}
    await service.privacy.forget("111")
    assert await orders_store.stand_ins_named(repo, utcnow()) == {}  # gone, and no one's stand-in now
