"""Issue 28: a game's web page is linked in its first message and in /game status when WEB_BASE_URL is
set (and not otherwise), on the real bot over the fake Discord; the link opens that game's page."""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from tests.bot.fake_discord import GUILD_ID, command, dispatch
from tests.bot.harness import running_bot
from tests.bot.test_bot import ANN, BOB, announcement, last_followup
from web.app import make_app

BASE = "https://games.example.org/qd/"
LINK = re.compile(r"<(https://games\.example\.org/qd/g/([A-Za-z0-9_-]{22})/)>")


async def test_the_first_message_and_status_link_the_games_page(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as (bot, fake):
        bot.web_base_url = BASE
        sent = await dispatch(bot, command(ANN, "game", "create"), fake)
        first = LINK.search(announcement(sent).content)
        assert first is not None, announcement(sent).content
        assert announcement(sent).payload["allowed_mentions"] == {"parse": []}
        joined = await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
        joined += await dispatch(bot, command(BOB, "game", "join", side="B"), fake)
        status = await dispatch(bot, command(BOB, "game", "status"), fake)
        answer = last_followup(status)
        assert answer.ephemeral and LINK.search(answer.content) is not None
        assert LINK.search(answer.content).group(2) == first.group(2)  # type: ignore[union-attr]  # one page per game
        kept = [r for r in joined + status if r.content.startswith("📋 **")]  # the status message, edited in place
        assert kept and all(first.group(1) in r.content for r in kept), [r.content[:200] for r in kept]
        async with TestClient(TestServer(make_app(bot.service))) as web:
            page = await web.get(f"/g/{first.group(2)}/")
            assert page.status == 200 and "Game #1" in await page.text()


async def test_no_link_without_a_web_address(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as (bot, fake):
        sent = await dispatch(bot, command(ANN, "game", "create"), fake)
        assert "🌐" not in announcement(sent).content and "http" not in announcement(sent).content


async def test_only_a_gm_lists_the_servers_pages(tmp_path: Path) -> None:
    from tests.adversary.eyes import MANAGE_GUILD

    async with running_bot(tmp_path) as (bot, fake):
        bot.web_base_url = BASE
        refused = await dispatch(bot, command(BOB, "game", "web-pages", listed=True), fake)
        assert last_followup(refused).ephemeral and "GM" in last_followup(refused).content
        assert not await bot.service.web.listed(str(GUILD_ID))
        said = await dispatch(bot, command(ANN, "game", "web-pages", listed=True, permissions=MANAGE_GUILD), fake)
        assert f"<{BASE}s/{GUILD_ID}/>" in last_followup(said).content
        assert await bot.service.web.listed(str(GUILD_ID))


async def test_web_port_serves_the_pages_in_the_bots_process(tmp_path: Path) -> None:
    """WEB_PORT: the pages are served by the bot itself, live from its own commits; a taken port is a
    setting that cannot work, said as one."""
    import socket

    import aiohttp
    import pytest

    from bot.observe import observing
    from game.service.settings import Settings, SettingsError
    from game.service.workers import Workers

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with running_bot(tmp_path) as (bot, fake):
        await dispatch(bot, command(ANN, "game", "create"), fake)
        token = await bot.service.web.game_token(1)
        async with observing(Settings(web=("127.0.0.1", port)), bot, Workers(0)), aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/g/{token}/") as page:
                assert page.status == 200 and "Game #1" in await page.text()
            with socket.socket() as taken:
                taken.bind(("127.0.0.1", 0))
                taken.listen()
                busy = taken.getsockname()[1]
                with pytest.raises(SettingsError, match="cannot listen"):
                    async with observing(Settings(web=("127.0.0.1", busy)), bot, Workers(0)):
                        pass
