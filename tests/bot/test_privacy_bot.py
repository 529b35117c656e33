"""Issue 26, item 5, through the bot: /privacy show, export and delete answer their member alone; the
delete button deletes only its own member's data, and the game goes on; a server the bot leaves is
purged after the retention, unless the bot comes back."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update

from game.service.models import ScheduledJob, Seat, utcnow
from game.service.retention import PURGE
from game.service.scheduler import run_due
from tests.bot.fake_discord import (
    GUILD_ID,
    command,
    component,
    dispatch,
    guild_create,
    guild_delete,
    guild_payload,
)
from tests.bot.test_bot import ANN, BOB, last_followup, setup_game


async def test_a_member_sees_downloads_and_deletes_their_data(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(ANN, "order", line="pick A Down!"), fake)  # the game is under way
    sent = await dispatch(bot, command(ANN, "privacy", "show"), fake)
    shown = last_followup(sent)
    assert shown.ephemeral and "1 seats" in shown.content and "docs/privacy.md" in shown.content

    sent = await dispatch(bot, command(ANN, "privacy", "export"), fake)
    exported = last_followup(sent)
    assert exported.ephemeral
    (name, body), = exported.files
    data = json.loads(body)
    assert name == "quarterdeck-my-data.json" and data["user_id"] == str(ANN[0])
    assert [s["side"] for s in data["seats"]] == ["A"] and str(BOB[0]) not in body.decode()

    sent = await dispatch(bot, command(ANN, "privacy", "delete"), fake)
    asked = last_followup(sent)
    assert asked.ephemeral and "cannot be undone" in asked.content
    button = asked.payload["components"][0]["components"][0]
    assert button["custom_id"] == f"qd:forget:{ANN[0]}"

    # Bob presses Ann's button (forwarded, or forged): nothing of hers is deleted
    sent = await dispatch(bot, component(BOB, button["custom_id"], asked.response_message_id or "1"), fake)
    assert "not yours" in sent[-1].payload["data"]["content"] and sent[-1].payload["data"]["flags"] & 64
    assert (await bot.service.privacy.export(str(ANN[0])))["seats"]

    sent = await dispatch(bot, component(ANN, button["custom_id"], asked.response_message_id or "1"), fake)
    done = last_followup(sent)
    assert done.ephemeral and "deleted" in done.content
    assert not (await bot.service.privacy.export(str(ANN[0])))["seats"]
    async with bot.service.store.repo.session() as s:
        seat = (await s.execute(select(Seat).where(Seat.player == "A"))).scalar_one()  # type: ignore[arg-type]
    assert seat.display_name == "former member" and seat.user_id.startswith("former:")
    assert (await bot.service.audit.check(1)).ok
    sent = await dispatch(bot, command(BOB, "order", line="pick B Take Courage"), fake)  # play goes on
    assert last_followup(sent).content.startswith("✅")
    assert (await bot.service.audit.check(1)).ok


async def due_now(bot: Any) -> None:
    async with bot.service.store.repo.session() as s, s.begin():
        await s.execute(update(ScheduledJob).where(ScheduledJob.kind == PURGE)  # type: ignore[arg-type]
                        .values(due_at=utcnow() - timedelta(minutes=1)))


async def purges(bot: Any) -> list[str]:
    async with bot.service.store.repo.session() as s:
        return list((await s.execute(select(ScheduledJob.status).where(  # type: ignore[call-overload]
            ScheduledJob.kind == PURGE))).scalars())


async def settled(bot: Any, wanted: list[str]) -> list[str]:
    """The purge jobs once the listeners (tasks discord.py starts for each event) have run."""
    deadline = asyncio.get_running_loop().time() + 5
    while (found := await purges(bot)) != wanted and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    return found


async def test_a_server_the_bot_leaves_is_purged_after_the_retention(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    guild_create(bot)
    guild_delete(bot, outage=True)  # an outage is not a removal: nothing is planned
    await asyncio.sleep(0.2)
    assert await purges(bot) == []
    guild_create(bot)  # back from the outage
    guild_delete(bot)
    assert await settled(bot, ["pending"]) == ["pending"]
    due = await bot.service.retention.purge_due(str(GUILD_ID))
    assert timedelta(days=29) < due.replace(tzinfo=due.tzinfo or utcnow().tzinfo) - utcnow() <= timedelta(days=30)

    guild_create(bot)  # invited back within the retention: nothing is deleted
    assert await settled(bot, ["cancelled"]) == ["cancelled"]

    guild_delete(bot)
    assert sorted(await settled(bot, ["cancelled", "pending"])) == ["cancelled", "pending"]
    await due_now(bot)
    assert await run_due(bot.service.store.repo, {PURGE: bot._purge}) == 1
    assert await bot.service.lobby.list_games(str(GUILD_ID)) == []
    assert not (await bot.service.privacy.export(str(ANN[0])))["seats"]


async def test_a_purge_due_while_the_bot_is_back_deletes_nothing(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await bot.service.retention.left(str(GUILD_ID), 1)  # planned while the bot was in it before a restart
    guild_create(bot)
    assert await settled(bot, ["cancelled"]) == ["cancelled"]
    await bot.service.retention.left(str(GUILD_ID), 1)  # as if its return had been missed
    await due_now(bot)
    await run_due(bot.service.store.repo, {PURGE: bot._purge})
    assert len(await bot.service.lobby.list_games(str(GUILD_ID))) == 1
    assert (await bot.service.audit.check(1)).ok


async def test_a_removal_while_the_bot_was_down_is_found_at_the_start(harness: Any) -> None:
    """No GUILD_DELETE reaches a bot that is down: READY's server list, compared with the data, finds
    the server left; and one it is back in loses its planned purge."""
    bot, fake = harness
    await setup_game(bot, fake)
    cog = bot.get_cog("privacy")
    await cog.on_ready()  # READY listed no server: the one with a game was left meanwhile
    assert await purges(bot) == ["pending"]
    first = await bot.service.retention.purge_due(str(GUILD_ID))
    await cog.on_ready()  # a reconnect: the plan is kept as it was, not moved on
    assert await purges(bot) == ["pending"] and await bot.service.retention.purge_due(str(GUILD_ID)) == first
    bot._connection._add_guild_from_data(guild_payload())  # READY lists it (no guild_join is dispatched)
    await cog.on_ready()
    assert await purges(bot) == ["cancelled"]


async def test_only_this_processs_shards_are_compared(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    shard = (GUILD_ID >> 22) % 2
    planned = await bot.service.retention.reconcile(set(), lambda g: (int(g) >> 22) % 2 != shard, 30)
    assert planned == (0, 0) and await purges(bot) == []  # another process's server: not this one's to judge
