from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from game.service.game_service import GameService
from tests.adversary.eyes import SEEDS, Drawn, Table, spy_campaigns, spy_cards, spy_renderer, spy_sheets
from tests.bot.harness import running_bot
from tests.service.conftest import ENGINES
from tests.web.conftest import browsing, opened


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    """The real bot on the fake Discord; each game draws the next of SEEDS, so the test knows the seed
    it must never see, and every board, ship sheet, summary card and campaign image is recorded with the text drawn
    into it."""
    from render import board, campaign, ship_sheet, summary_card

    drawn = Drawn()
    monkeypatch.setattr(board, "render_board", spy_renderer(drawn))
    monkeypatch.setattr(ship_sheet, "render_sheet", spy_sheets(drawn))
    monkeypatch.setattr(summary_card, "summary_card", spy_cards(drawn))
    monkeypatch.setattr(campaign, "campaign_png", spy_campaigns(drawn))
    seeds = iter(SEEDS)
    async with running_bot(tmp_path, seeds=lambda: next(seeds)) as (bot, fake):
        yield Table(bot, fake, drawn)


@pytest.fixture(params=ENGINES)
async def web_service(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GameService]:
    """The service the web pages read (tests/web/conftest.py), for the web's adversary tests."""
    async with opened(request.param, tmp_path) as s:
        yield s


@pytest.fixture
async def web_client(web_service: GameService) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    async with browsing(web_service) as c:
        yield c
