"""Issue 26, item 9, through Discord: the heavy commands have a per-member cooldown, answered privately
with the time to wait; another member is not held up, and a refusal costs no share."""

from __future__ import annotations

import re
from typing import Any

from tests.bot.fake_discord import Sent, command, dispatch
from tests.bot.test_bot import ANN, BOB, last_followup, pick, setup_game


def _answer(sent: list[Sent]) -> tuple[Sent, str]:
    """The interaction's own answer and its text: a cooldown is answered in the callback itself, before
    any deferral."""
    callback = next(r for r in sent if "/callback" in r.path)
    return callback, str(callback.payload["data"]["content"])


async def test_a_second_replay_in_a_row_waits_and_another_member_does_not(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    # refused (nothing to replay yet): no share spent, so the replay just after is drawn
    early = last_followup(await dispatch(bot, command(ANN, "game", "replay"), fake))
    assert "Nothing has happened" in early.content
    await pick(bot, fake, ANN, "Down!")
    await pick(bot, fake, BOB, "Take Courage")
    sent = await dispatch(bot, command(ANN, "game", "replay"), fake, settle=60)
    assert "Posted here" in last_followup(sent).content

    mark = len(fake.requests)
    sent = await dispatch(bot, command(ANN, "game", "replay"), fake)
    answer, text = _answer(sent)
    assert answer.payload["type"] == 4 and answer.ephemeral, answer.payload  # private, never deferred
    wait = re.search(r"Try again in (\d+) seconds\.", text)
    assert wait and 1 <= int(wait.group(1)) <= 60, text
    assert "`/game replay`" in text and "once every 60 seconds" in text
    assert not [r for r in fake.requests[mark:] if r.in_channel]  # nothing drawn, nothing posted

    sent = await dispatch(bot, command(BOB, "game", "replay"), fake, settle=60)  # Bob's share is his own
    assert "Posted here" in last_followup(sent).content
    assert any(r.in_channel and r.files for r in sent)


async def test_boards_on_demand_have_a_share_each(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    for _ in range(3):
        assert last_followup(await dispatch(bot, command(ANN, "board"), fake)).files
    answer, text = _answer(await dispatch(bot, command(ANN, "board"), fake))
    assert answer.ephemeral and "3 times every 30 seconds" in text and "Try again in" in text
    assert last_followup(await dispatch(bot, command(BOB, "board"), fake)).files
