"""Issue 26, item 5: when the bot leaves a server, the server's data is kept for GUILD_RETENTION_DAYS,
then purged by a scheduled job; the bot's return first cancels it. A purge takes that server's data
only: another server's games, and the members' own hours, stay."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from game.service.game_service import Actor, GameService
from game.service.models import GameRecord, GuildSettings, PlayerClock, utcnow
from game.service.retention import PURGE
from game.service.scheduler import Job, run_due

GONE, STAYS = "900000000000000001", "900000000000000002"
ANN, BOB = "100000000000000111", "100000000000000222"


async def never(job: Job) -> None:
    raise AssertionError(f"purged before its time: {job}")


async def two_servers(service: GameService) -> tuple[int, int]:
    ids = []
    for guild in (GONE, STAYS):
        info = await service.lobby.create_game(Actor(ANN, guild), f"chan-{guild}")
        await service.lobby.join(Actor(ANN, guild), info.id, "A", "Ann")
        await service.lobby.join(Actor(BOB, guild), info.id, "B", "Bob")
        await service.commands.submit(Actor(ANN, guild), info.id, "pick A Effective Fire")
        await service.data.save_settings(GuildSettings(guild_id=guild, gm_role_id="555", turn_deadline_hours=12))
        ids.append(info.id)
    await service.clock.set_hours(Actor(ANN, GONE), time_zone="Europe/Amsterdam")
    return ids[0], ids[1]


async def test_a_server_left_is_purged_after_the_retention_and_only_it(service: GameService) -> None:
    gone, stays = await two_servers(service)
    due = await service.retention.left(GONE, 30)
    assert timedelta(days=29) < due - utcnow() <= timedelta(days=30)
    await service.retention.left(GONE, 30)  # told twice (a second shard, a reconnect): one purge
    assert await run_due(service.store.repo, {PURGE: never}) == 0  # not yet
    gone_page, stays_page = await service.web.game_token(gone), await service.web.game_token(stays)

    purged = await service.retention.purge(GONE)

    assert purged["games"] == 1 and purged["seats"] == 2 and purged["events"] > 0 and purged["guild_settings"] == 1
    async with service.store.repo.session() as s:
        guilds = set((await s.execute(select(GameRecord.guild_id))).scalars())  # type: ignore[call-overload]
        hours = (await s.execute(select(PlayerClock))).scalars().all()
    assert guilds == {STAYS}
    assert purged["web_pages"] == 1  # the purged game's web page is gone with it (docs/web.md)
    assert await service.web.find(gone_page) is None and await service.web.find(stays_page) is not None
    assert [h.time_zone for h in hours] == ["Europe/Amsterdam"]  # hers, for her games elsewhere
    assert (await service.data.settings(GONE)).gm_role_id is None  # the defaults again, not a cached copy
    assert (await service.data.settings(STAYS)).gm_role_id == "555"
    assert await service.lobby.game_here(GONE, f"chan-{GONE}") is None
    assert (await service.audit.check(stays)).ok
    await service.commands.submit(Actor(BOB, STAYS), stays, "pick B Take Courage")  # play goes on there
    assert gone != stays


async def test_the_bot_back_in_time_cancels_the_purge(service: GameService) -> None:
    gone, _ = await two_servers(service)
    await service.retention.left(GONE, 1)
    assert await service.retention.purge_due(GONE) is not None
    assert await service.retention.returned(GONE)
    assert await service.retention.purge_due(GONE) is None
    assert not await service.retention.returned(GONE)  # nothing left to cancel
    assert (await service.audit.check(gone)).ok
