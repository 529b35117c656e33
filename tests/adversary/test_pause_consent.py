"""Adversary probes of a pause by consent (/game pause, its Agree and Decline buttons, /game resume):
a spectator and the asker pressing, a side handed over while the request is open, old requests'
buttons, a request asked twice, a game with no deadlines, a reason that tries to ping, and what a
refusal tells a spectator (nothing hidden)."""

from __future__ import annotations

from typing import Any

from game import events as ev
from tests.adversary.eyes import ANN, BOB, EVE, GUS, Table, answer_text, assert_learns_nothing
from tests.adversary.test_acting_for_a_side import handover
from tests.adversary.test_referee_secrets import sealed_game
from tests.adversary.test_sweep import make_gm_role, open_quickstart


def request_buttons(t: Table, since: int) -> tuple[str, str, str]:
    """The newest pause request's message id and its Agree and Decline ids."""
    for sent in reversed(t.fake.requests[since:]):
        ids = [c["custom_id"] for row in sent.payload.get("components") or () for c in row["components"]]
        if sent.in_channel and ids and ids[0].startswith("qd:pause:"):
            return str(sent.response_message_id), ids[0], ids[1]
    raise AssertionError("no pause request was posted")


async def paused(t: Table) -> bool:
    return bool((await t.service.clock.paused(1)).paused)


async def changes(t: Table) -> list[str]:
    return [e.change for e in await t.log_events() if isinstance(e, ev.ClockChanged)]


async def test_a_spectator_and_the_asker_press_for_nothing(table: Table) -> None:
    t = table
    await open_quickstart(t)
    mark = t.mark()
    a = await t.cmd(ANN, "game", "pause", reason="a wedding")
    assert a.ephemeral and "Asked" in answer_text(a)
    message, agree, decline = request_buttons(t, mark)
    for who in (EVE, ANN, GUS):  # a spectator, the asker, a GM who does not play: none of them answers it
        for button in (agree, decline):
            answer = await t.press(who, button, message)
            assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
    assert not await paused(t) and await changes(t) == ["pause asked"]
    await assert_learns_nothing(t, EVE, "Eve", mark)
    # a second request while one is open is refused, whoever asks
    for who in (ANN, BOB):
        again = await t.cmd(who, "game", "pause")
        assert again.ephemeral and "already asked" in answer_text(again)
    assert await changes(t) == ["pause asked"]
    answer = await t.press(BOB, agree, message)
    assert answer is not None and "Everyone agrees" in answer_text(answer) and await paused(t)
    # the settled request's buttons are gone; a press from a client that still shows them changes nothing
    for who in (BOB, ANN):
        late = await t.press(who, decline, message)
        assert late is not None and "no longer open" in answer_text(late)
    assert await paused(t)
    # a spectator cannot resume it either; a player can
    assert answer_text(await t.cmd(EVE, "game", "resume")).startswith("❌")
    assert "runs again" in answer_text(await t.cmd(ANN, "game", "resume"))


async def test_an_old_requests_button_does_not_answer_a_new_one(table: Table) -> None:
    t = table
    await open_quickstart(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause")
    old_message, old_agree, old_decline = request_buttons(t, mark)
    await t.press(BOB, old_decline, old_message)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause", hours=3)
    message, agree, _ = request_buttons(t, mark)
    assert agree != old_agree
    stale = await t.press(BOB, old_agree, old_message)
    assert stale is not None and "no longer open" in answer_text(stale) and not await paused(t)
    answer = await t.press(BOB, agree, message)
    assert answer is not None and await paused(t)
    assert await changes(t) == ["pause asked", "pause declined", "pause asked", "paused"]


async def test_a_side_handed_over_while_the_request_is_open(table: Table) -> None:
    """Bob hands B to Eve before answering: his press no longer counts, Eve's does. Ann, the asker,
    hands A over: her request lapses."""
    t = table
    await open_quickstart(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause")
    message, agree, _ = request_buttons(t, mark)
    assert "🔁" in await handover(t, BOB, EVE)
    bob = await t.press(BOB, agree, message)
    assert bob is not None and answer_text(bob).startswith("❌") and not await paused(t)
    eve = await t.press(EVE, agree, message)
    assert eve is not None and "Everyone agrees" in answer_text(eve) and await paused(t)
    assert "runs again" in answer_text(await t.cmd(EVE, "game", "resume"))
    mark = t.mark()
    await t.cmd(ANN, "game", "pause")
    message, agree, _ = request_buttons(t, mark)
    assert "🔁" in await handover(t, ANN, BOB)
    lapsed = await t.press(EVE, agree, message)
    assert lapsed is not None and "lapsed" in answer_text(lapsed) and not await paused(t)


async def test_a_reason_that_tries_to_ping_pings_nobody(table: Table) -> None:
    t = table
    await open_quickstart(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause", reason="@everyone <@&1> <@333333333333333333> {until}")
    message, agree, _ = request_buttons(t, mark)
    posted = {str(s.response_message_id) for s in t.fake.requests[mark:]}
    pinged = {user for msg, user in t.fake.notified if msg in posted}
    assert str(EVE[0]) not in pinged, pinged  # the mention typed in the reason pings nobody
    assert {user for msg, user in t.fake.notified if msg == message} == {str(BOB[0])}  # the request: Bob alone
    await t.press(BOB, agree, message)
    logged = [e.detail for e in await t.log_events() if isinstance(e, ev.ClockChanged)]
    assert all("{until}" not in d for d in logged) and all("<@&1>" not in d for d in logged), logged


async def test_a_game_without_deadlines_and_a_finished_game_are_not_paused(table: Table) -> None:
    t = table
    await sealed_game(t)
    refused = await t.cmd(ANN, "game", "pause")
    assert refused.ephemeral and answer_text(refused).startswith("❌"), answer_text(refused)


async def test_a_finished_game_is_not_paused(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    await t.cmd(BOB, "game", "concede")
    refused: Any = await t.cmd(ANN, "game", "pause")
    assert refused.ephemeral and answer_text(refused).startswith("❌"), answer_text(refused)
    refused = await t.cmd(GUS, "game", "pause")
    assert answer_text(refused).startswith("❌") and not await paused(t)
