"""Issue 23, item 2, the bot's side: the courier hands each post type to its own handler, and none is
left without one."""

from __future__ import annotations

from typing import Any

from bot.outbox import HANDLERS
from game.service import outbox
from game.service.frontend import Unreadable
from game.service.models import OutboxRow, utcnow
from game.service.posts import POSTS, Notice
from tests.bot.fake_discord import CHANNEL_ID
from tests.bot.test_bot import setup_game
from tests.bot.test_outbox_bot import posts_to


def test_every_post_type_has_its_handler() -> None:
    missing = [kind for kind, cls in POSTS.types.items() if cls not in HANDLERS]
    assert missing == [], f"post kinds the courier cannot deliver: {missing}"
    assert set(HANDLERS) == {*POSTS.types.values(), Unreadable}  # and no handler for a type nobody writes


async def test_a_row_no_type_fits_is_dropped_and_the_channel_goes_on(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    async with bot.service.store.repo.session() as s, s.begin():  # written by a newer version, say
        s.add(OutboxRow(game_id=1, kind="parrot", payload='{"squawk": 1}', next_try_at=utcnow()))
    await bot.service.front.post(1, Notice("📣 after the parrot"))
    before = len(fake.requests)
    assert await bot.courier.drain(1) == 2
    assert [r.content for r in posts_to(fake, CHANNEL_ID) if r in fake.requests[before:]] == ["📣 after the parrot"]
    async with bot.service.store.repo.session() as s:
        rows = await outbox.rows_of(s, 1)
    assert [r.status for r in rows if r.kind == "parrot"] == ["done"]


async def test_a_post_type_without_a_handler_is_recorded_as_failed_not_lost(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    handler = HANDLERS.pop(Notice)
    try:
        await bot.service.front.post(1, Notice("📣 unheard"))
        assert await bot.courier.drain(1) == 0
    finally:
        HANDLERS[Notice] = handler
    async with bot.service.store.repo.session() as s:
        [row] = [r for r in await outbox.rows_of(s, 1) if r.kind == "notice"]
    assert row.status == "pending" and "no handler for Notice" in row.last_error
    assert await bot.courier.drain(1, now=utcnow() + outbox.backoff(1) * 2) == 1  # delivered once it has one
    assert any(r.content == "📣 unheard" for r in posts_to(fake, CHANNEL_ID))
