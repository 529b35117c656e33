"""Issue 29, item 3: a start reads no game, so the first interactions after a restart meet games not yet
loaded, before the catch-up has run. Nothing a player could not do before may work then: an old menu
pressed again, another seat's menu, a spectator's order, a command in a finished game's channel. Each is
refused privately with what was wrong, and the game is unchanged."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.app import QuarterdeckBot
from game.service.db import make_engine
from game.service.game_service import GameService
from tests.adversary.eyes import ANN, BOB, EVE, Table, answer_text, assert_no_pings
from tests.adversary.test_sweep import open_quickstart
from tests.bot.fake_discord import TOKEN
from tests.seeds import counting_seeds


@asynccontextmanager
async def restarted(t: Table, tmp_path: Path) -> AsyncIterator[Table]:
    """The bot started again on the same database and the same Discord, its catch-up not yet run."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    bot = QuarterdeckBot(GameService(engine, seeds=counting_seeds(900)), sync_commands=False, run_scheduler=False)
    try:
        await bot.login(TOKEN)
        assert len(bot.service.store.cached) == 0
        yield Table(bot, t.fake, t.drawn)
    finally:
        await bot.close()
        await engine.dispose()


async def test_old_menus_and_other_seats_are_refused_as_before_right_after_a_restart(table: Table,
                                                                                   tmp_path: Path) -> None:
    t = table
    await open_quickstart(t)  # Bob picked Take Courage face down through his menu
    bobs_menu = "qd:hand:1:B:0"
    async with restarted(t, tmp_path) as again:
        version = await again.version()
        mark = again.mark()
        # Bob's menu pressed again, after the restart: his pick is made
        answer = await again.press(BOB, bobs_menu, "1", values=["Down!"])
        assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
        # Ann presses Bob's menu: not her side
        answer = await again.press(ANN, bobs_menu, "1", values=["Down!"])
        assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
        # Eve, with no seat, gives an order for A
        answer = await again.cmd(EVE, "order", line="pick A Down!")
        assert answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
        assert "Take Courage" not in answer_text(answer)  # a refusal tells nothing of a hidden pick
        assert await again.version() == version
        state = await again.state()
        assert state.squadron("B").face_down == "Take Courage" and not state.squadron("A").picked
        assert again.public(mark) == [] and not again.dms_to(ANN, mark)
        assert_no_pings(again.fake, mark)
        # the game answers its own player at once, loaded on first use
        _, menu, message = await again.open_hand(ANN)
        await again.press(ANN, menu, message, values=["Down!"])
        assert (await again.state()).squadron("A").face_up == "Down!"  # both picked: revealed


async def test_a_finished_game_is_not_played_on_after_a_restart(table: Table, tmp_path: Path) -> None:
    t = table
    await open_quickstart(t)
    await t.cmd(ANN, "game", "concede")
    assert (await t.state()).winner == "B"
    async with restarted(t, tmp_path) as again:
        version = await again.version()
        answer = await again.press(ANN, "qd:hand:1:A:0", "1", values=["Down!"])
        assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
        answer = await again.cmd(BOB, "order", line="pick B Down!")
        assert answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
        assert await again.version() == version
