"""Issue 11, item 7 (6): buttons from an earlier post (a roll since settled, a pick since made) do
nothing harmful and answer privately."""

from __future__ import annotations

import pytest

from game.model import Game
from tests.adversary.eyes import ANN, BOB, Table, answer_text
from tests.adversary.test_sweep import drive, open_quickstart

ISSUE_13 = ("component ids carry only the game (qd:keep:1, qd:fortune:1, qd:reroll:1:N:K): a button from a "
            "settled roll's post acts on whichever roll is pending now (issue 13)")


def bs_roll(state: Game) -> bool:
    return state.pending is not None and state.pending.player == "B"


async def prompt(t: Table) -> str:
    """Post the board with the buttons the game now shows; the id of that message."""
    mark = t.mark()
    await t.cmd(ANN, "game", "status")
    posts = [r for r in t.fake.requests[mark:] if r.in_channel and r.payload.get("components")]
    assert posts, "a prompt with buttons"
    return posts[-1].response_message_id


async def test_a_settled_rolls_buttons_answer_privately_and_change_nothing(table: Table) -> None:
    t = table
    await open_quickstart(t)
    await drive(t, bs_roll)
    old = await prompt(t)
    assert answer_text(await t.press(BOB, "qd:keep:1", old)).startswith("🎲")
    state, version = await t.state(), await t.version()
    assert state.pending is None
    for custom, values in (("qd:keep:1", None), ("qd:fortune:1", None), ("qd:reroll:1:5:1", ["1"])):
        answer = await t.press(BOB, custom, old, values=values)
        assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
    assert await t.version() == version and (await t.state()).squadron("B").fortune == state.squadron("B").fortune


@pytest.mark.xfail(strict=True, reason=ISSUE_13)
async def test_a_settled_rolls_fortune_button_does_not_spend_on_the_next_roll(table: Table) -> None:
    t = table
    await open_quickstart(t)
    await drive(t, bs_roll)
    old = await prompt(t)
    first = (await t.state()).pending
    await t.press(BOB, "qd:keep:1", old)
    state = await drive(t, lambda s: bs_roll(s) and s.pending != first)
    await prompt(t)  # the new roll's own buttons
    version, fortune = await t.version(), state.squadron("B").fortune
    answer = await t.press(BOB, "qd:fortune:1", old)  # pressed on the first roll's post
    assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
    assert await t.version() == version and (await t.state()).squadron("B").fortune == fortune
