"""Issue 14, item 3 through Discord: `/game handover ai: True` gives my side to the computer captain,
which plays on at once; `/game seats` shows who played each side from which turn; nobody hands over
a side that is not theirs."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_discord import command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, pick, setup_game


async def test_hand_my_side_to_the_computer(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await pick(bot, fake, ANN, "Down!")
    await pick(bot, fake, BOB, "Take Courage")
    refused = last_followup(await dispatch(bot, command(EVE, "game", "handover", ai=True, side="B"), fake))
    assert refused.ephemeral and "not yours" in refused.content
    neither = last_followup(await dispatch(bot, command(BOB, "game", "handover"), fake))
    assert neither.ephemeral and "Say who takes the side" in neither.content
    sent = await dispatch(bot, command(BOB, "game", "handover", ai=True), fake, settle=30)
    assert any("changes hands" in r.content and "Computer captain (B)" in r.content for r in sent if r.in_channel)
    seats = last_followup(await dispatch(bot, command(EVE, "game", "seats"), fake))
    assert "Side B: Bob from the start" in seats.content and "Side B: Computer captain (B) from turn 1" in seats.content

