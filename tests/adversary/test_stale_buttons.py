"""Issue 11, item 7 (6) and issue 13, item 1: buttons from an earlier post (a roll since settled, a pick
since made, a post from before the bot restarted) do nothing harmful and answer privately. Each names
the decision it answers, so it can never act on a later one; once that decision is taken through the
post's own buttons, they are taken off the post."""

from __future__ import annotations

from pathlib import Path

from game.model import Game
from tests.adversary.eyes import ANN, BOB, SEEDS, Drawn, Table, answer_text, components_of
from tests.adversary.test_sweep import drive, open_quickstart
from tests.bot.fake_discord import CHANNEL_ID, Sent
from tests.bot.harness import running_bot

STALE = "❌ That roll was already decided."


def bs_roll(state: Game) -> bool:
    return state.pending is not None and state.pending.player == "B"


async def prompt(t: Table) -> tuple[str, dict[str, str]]:
    """Post the board with the buttons the game now shows: that message's id, and its components' custom
    ids by kind (keep, fortune, reroll, pick, …)."""
    mark = t.mark()
    await t.cmd(ANN, "game", "status")
    posts = [r for r in t.fake.requests[mark:] if r.in_channel and r.payload.get("components")]
    assert posts, "a prompt with buttons"
    ids = {str(c["custom_id"]).split(":")[1]: str(c["custom_id"]) for c in components_of(posts[-1])}
    return posts[-1].response_message_id, ids


def cleared(t: Table, message_id: str, since: int) -> list[Sent]:
    """The edits since `since` that took every component off that channel message."""
    return [r for r in t.fake.requests[since:] if r.method == "PATCH"
            and r.path == f"/api/v10/channels/{CHANNEL_ID}/messages/{message_id}" and r.payload.get("components") == []]


async def test_a_settled_rolls_buttons_answer_privately_and_change_nothing(table: Table) -> None:
    t = table
    await open_quickstart(t)
    await drive(t, bs_roll)
    old, ids = await prompt(t)
    assert ids["keep"] == f"qd:keep:1:{await t.service.reading.roll_decision(1)}"  # the roll it answers, by event number
    mark = t.mark()
    assert answer_text(await t.press(BOB, ids["keep"], old)).startswith("🎲")
    assert cleared(t, old, mark), "the decided roll's buttons are taken off its post"
    state, version = await t.state(), await t.version()
    assert state.pending is None
    for kind in ("keep", "fortune", "reroll"):
        if kind in ids:
            answer = await t.press(BOB, ids[kind], old, values=["1"] if kind == "reroll" else None)
            assert answer is not None and answer.ephemeral and answer_text(answer).startswith(STALE), answer_text(answer)
    assert await t.version() == version and (await t.state()).squadron("B").fortune == state.squadron("B").fortune


async def test_a_settled_rolls_fortune_button_does_not_spend_on_the_next_roll(table: Table) -> None:
    t = table
    await open_quickstart(t)
    await drive(t, bs_roll)
    old, ids = await prompt(t)
    first = (await t.state()).pending
    await t.press(BOB, ids["keep"], old)
    state = await drive(t, lambda s: bs_roll(s) and s.pending != first)
    assert state.squadron("B").fortune > 0, "a Fortune Point to lose"
    new, new_ids = await prompt(t)  # the new roll's own buttons
    assert new_ids["keep"] != ids["keep"]
    version, fortune = await t.version(), state.squadron("B").fortune
    mark = t.mark()
    answer = await t.press(BOB, ids["fortune"], old)  # pressed on the first roll's post
    assert answer is not None and answer.ephemeral and answer_text(answer).startswith(STALE), answer_text(answer)
    assert "newest board post" in answer_text(answer)
    assert await t.version() == version and (await t.state()).squadron("B").fortune == fortune
    assert (await t.state()).pending == state.pending
    assert not [r for r in t.fake.requests[mark:] if r.in_channel], "a refused press posts nothing in the channel"
    # the newest post's buttons still answer the roll that waits
    assert answer_text(await t.press(BOB, new_ids["keep"], new)).startswith("🎲")


async def test_a_keep_from_a_decided_roll_does_not_keep_the_next(table: Table) -> None:
    t = table
    await open_quickstart(t)
    await drive(t, bs_roll)
    old, ids = await prompt(t)
    first = (await t.state()).pending
    await t.submit(BOB, "keep")  # typed, not pressed: the old post keeps its buttons
    state = await drive(t, lambda s: bs_roll(s) and s.pending != first)
    version = await t.version()
    mark = t.mark()
    answer = await t.press(BOB, ids["keep"], old)
    assert answer is not None and answer.ephemeral and answer_text(answer).startswith(STALE), answer_text(answer)
    assert await t.version() == version and (await t.state()).pending == state.pending
    assert cleared(t, old, mark), "a stale press takes the stale buttons off the post it was on"


async def test_buttons_from_before_decisions_had_numbers_explain_themselves(table: Table) -> None:
    """Posts made by an earlier version carry `qd:keep:1`: it cannot say which roll it was for."""
    t = table
    await open_quickstart(t)
    state = await drive(t, bs_roll)
    version = await t.version()
    for custom, values in (("qd:keep:1", None), ("qd:fortune:1", None), ("qd:reroll:1:5:1", ["1"])):
        answer = await t.press(BOB, custom, values=values)
        assert answer is not None and answer.ephemeral and "older board post" in answer_text(answer), answer_text(answer)
    assert await t.version() == version and (await t.state()).pending == state.pending


async def test_a_hand_menu_from_an_earlier_turn_picks_nothing(table: Table) -> None:
    t = table
    await open_quickstart(t)  # B has picked for the set-up (turn 0)
    _, menu, message = await t.open_hand(ANN)
    assert menu == "qd:hand:1:A:0"
    await t.press(ANN, menu, message, values=["Down!"])  # the reveal: turn 1's picks are owed
    state = await t.state()
    assert state.turn == 1 and not state.squadron("B").picked
    version = await t.version()
    stale = "qd:hand:1:B:0"  # Bob's set-up menu, chosen from again
    answer = await t.press(BOB, stale, "1", values=[state.squadron("B").hand[0]])
    assert answer is not None and answer.ephemeral, answer_text(answer)
    assert answer_text(answer).startswith("❌ That pick was for turn 0; it is turn 1 now."), answer_text(answer)
    assert await t.version() == version and not (await t.state()).squadron("B").picked


async def test_a_chosen_hand_menu_is_taken_away(table: Table) -> None:
    t = table
    await open_quickstart(t)
    _, menu, message = await t.open_hand(ANN)
    mark = t.mark()
    answer = await t.press(ANN, menu, message, values=["Down!"])
    assert "face down" in answer_text(answer)
    callback = next(r for r in t.fake.requests[mark:] if "/callback" in r.path)
    assert callback.payload["type"] == 6  # deferred as an update of the menu's own private message
    token = callback.path.split("/")[5]
    edits = [r for r in t.fake.requests[mark:] if r.method == "PATCH" and r.path.endswith(f"/{token}/messages/@original")]
    assert edits and edits[0].payload.get("components") == [], [(r.method, r.path) for r in t.fake.requests[mark:]]


async def test_a_hand_menu_made_before_a_restart_still_picks(tmp_path: Path) -> None:
    seeds = iter(SEEDS)
    async with running_bot(tmp_path, seeds=lambda: next(seeds)) as (bot, fake):
        t = Table(bot, fake, Drawn())
        await open_quickstart(t)
        opened, menu, message = await t.open_hand(ANN)
        assert menu == "qd:hand:1:A:0"
        hand = (await t.state()).squadron("A").hand
    async with running_bot(tmp_path, seeds=lambda: next(seeds)) as (bot, fake):  # the same database
        t = Table(bot, fake, Drawn())
        answer = await t.press(ANN, menu, message, values=[hand[0]])
        assert answer is not None and answer.ephemeral and "face down" in answer_text(answer), answer_text(answer)
        assert (await t.state()).squadron("A").face_up == hand[0]  # both picks made: revealed
