"""Issue 27, item 3, the service's part: follows are the follower's own (another's id ends nothing),
a member's games are followed in the channel the follow was made in only, a digest falls at the
member's hour in their time zone, and privacy deletion and a server's purge take the follows too."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlmodel import col

from game.errors import RulesError
from game.service.following import DIGEST_JOB, MAX_FOLLOWS, next_digest
from game.service.game_service import Actor, GameService
from game.service.models import ScheduledJob, utcnow
from game.service.scheduler import Job, run_due

ANN, BOB, EVE, MAL = "111", "222", "333", "444"
GUILD = "900"


async def game(service: GameService, channel: str = "chan-1") -> int:
    info = await service.lobby.create_game(Actor(ANN, GUILD), channel)
    await service.lobby.join(Actor(ANN, GUILD), info.id, "A", "Ann")
    await service.lobby.join(Actor(BOB, GUILD), info.id, "B", "Bob")
    return info.id


def test_the_digest_falls_at_the_members_hour_in_their_zone() -> None:
    now = datetime(2026, 11, 27, 8, 30, tzinfo=UTC)
    assert next_digest(9, "UTC", now) == datetime(2026, 11, 27, 9, tzinfo=UTC)
    assert next_digest(8, "UTC", now) == datetime(2026, 11, 28, 8, tzinfo=UTC)  # passed today: tomorrow
    assert next_digest(9, "Europe/Amsterdam", now) == datetime(2026, 11, 28, 8, tzinfo=UTC)  # 09:30 there now
    assert next_digest(9, "Not/AZone", now) == datetime(2026, 11, 27, 9, tzinfo=UTC)


async def test_follows_are_the_followers_own(service: GameService) -> None:
    gid = await game(service)
    eve = await service.following.follow(EVE, GUILD, "chan-1", gid, None, None)
    assert await service.following.followers(gid) == {EVE: eve.id}
    assert await service.following.unfollow(MAL, eve.id) == 0  # Mallory names Eve's follow: nothing ends
    assert await service.following.followers(gid) == {EVE: eve.id}
    again = await service.following.follow(EVE, GUILD, "chan-1", gid, None, 5)  # the same follow, now a digest
    assert again.id == eve.id and await service.following.followers(gid) == {}
    with pytest.raises(RulesError):
        await service.following.follow(EVE, GUILD, "chan-1", gid, None, 24)
    with pytest.raises(RulesError):
        await service.following.follow(EVE, GUILD, "chan-1", None, EVE, None)  # oneself


async def test_a_members_games_are_followed_in_that_channel_only(service: GameService) -> None:
    here, there = await game(service, "chan-1"), await game(service, "chan-2")
    await service.following.follow(EVE, GUILD, "chan-1", None, ANN, None)
    assert EVE in await service.following.followers(here)
    assert await service.following.followers(there) == {}
    await service.following.follow(EVE, "other-guild", "chan-2", None, ANN, None)  # another server's channel
    assert await service.following.followers(there) == {}


async def test_a_member_follows_a_bounded_number(service: GameService) -> None:
    gid = await game(service)
    for n in range(MAX_FOLLOWS):
        await service.following.follow(EVE, GUILD, f"c{n}", None, ANN, None)
    with pytest.raises(RulesError):
        await service.following.follow(EVE, GUILD, "chan-1", gid, None, None)


async def test_a_digest_lists_only_games_that_moved(service: GameService) -> None:
    gid = await game(service)
    made = await service.following.follow(EVE, GUILD, "chan-1", gid, None, 7)
    assert await service.following.digest(made.id, 7) == []  # nothing since the follow
    await service.commands.submit(Actor(ANN, GUILD), gid, "pick A Effective Fire")
    assert await service.following.digest(made.id, 7, now=utcnow() + timedelta(seconds=1)) == [gid]
    assert await service.following.digest(made.id, 8) == []  # a job of an hour since changed: nothing


async def test_following_again_at_the_same_hour_never_doubles_the_digests(service: GameService) -> None:
    gid = await game(service)
    await service.following.follow(EVE, GUILD, "chan-1", gid, None, 7)
    await service.following.follow(EVE, GUILD, "chan-1", gid, None, 7)
    await service.commands.submit(Actor(ANN, GUILD), gid, "pick A Effective Fire")
    later = utcnow() + timedelta(days=1, hours=1)
    ran: list[list[int]] = []

    async def digest(job: Job) -> None:
        data = json.loads(job.payload)
        ran.append(await service.following.digest(data["follow"], data["hour"], data["since"], now=later))

    await run_due(service.store.repo, {DIGEST_JOB: digest}, now=later)
    assert sorted(ran) == [[], [gid]]  # the first job was the follow's no longer: one digest
    async with service.store.repo.session() as s:
        planned = (await s.execute(select(ScheduledJob).where(col(ScheduledJob.kind) == DIGEST_JOB,
                                                              col(ScheduledJob.status) == "pending"))).scalars().all()
    assert len(planned) == 1  # and one next digest


async def test_privacy_and_the_purge_take_the_follows(service: GameService) -> None:
    gid = await game(service)
    await service.following.follow(EVE, GUILD, "chan-1", gid, None, None)
    await service.following.follow(MAL, GUILD, "chan-1", None, EVE, None)  # others' follows of Eve name her
    assert (await service.privacy.export(EVE))["follows"]
    await service.privacy.forget(EVE)
    assert not await service.following.mine(EVE) and not await service.following.mine(MAL)
    await service.following.follow(MAL, GUILD, "chan-1", gid, None, None)
    await service.retention.purge(GUILD)  # the follow names a game: it goes first, and the purge works
    assert not await service.following.mine(MAL)
