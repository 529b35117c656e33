"""Issue 26, item 8 through Discord: every board the bot posts or answers carries a description (the
attachment's alt text, which screen readers say and Discord keeps up to 1,024 characters), and
`/board text: True` answers with the same words instead of the picture."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_discord import command, dispatch
from tests.bot.test_bot import ANN, BOB, last_followup, pick, setup_game


def _described(sent: Any) -> str:
    [attached] = sent.payload["attachments"]
    return str(attached["description"])


async def test_every_board_image_says_what_it_shows(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await pick(bot, fake, ANN, "Effective Fire")
    await pick(bot, fake, BOB, "Take Courage")
    boards = [r for r in fake.requests if r.in_channel and r.files]
    assert boards, "a board was posted"
    for board in boards:
        said = _described(board)
        assert said.startswith("Quick start, turn") and "Kestrel (" in said and len(said) <= 1024
    mine = last_followup(await dispatch(bot, command(ANN, "board"), fake))
    assert mine.ephemeral and mine.files and "Kestrel (" in _described(mine)
    words = last_followup(await dispatch(bot, command(ANN, "board", text=True), fake))
    assert words.ephemeral and not words.files and "Kestrel (" in words.content and "turn" in words.content
