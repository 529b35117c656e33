"""The reshaped pick button: `Reading.hand` reads the presser's sides, those owing a pick and the hand
from one load. Pressed by a member of another game, a GM without a seat, a stand-in (and after their
stand-in ended), a member holding both squadrons, and with a menu of an earlier turn."""

from __future__ import annotations

from datetime import timedelta

import pytest

from game.service.errors import WrongGuild
from game.service.game_service import Actor
from game.service.models import utcnow
from tests.adversary.eyes import (
    ANN,
    BOB,
    EVE,
    GUS,
    OTHER_CHANNEL,
    Table,
    answer_text,
    cards_of,
    components_of,
)
from tests.adversary.test_sweep import make_gm_role, open_quickstart
from tests.bot.fake_discord import GUILD_ID

DAN = (444444444444444444, "Dan")
NOT_PLAYING = "ℹ️ You are not playing in this game."


def actor(user: tuple[int, str], guild: int = GUILD_ID) -> Actor:
    return Actor(str(user[0]), str(guild))


async def second_game(t: Table) -> int:
    """Eve (A) and Dan (B) play game 2 in the other channel; nobody has picked there."""
    await t.cmd(EVE, "game", "create", channel_id=OTHER_CHANNEL)
    await t.cmd(EVE, "game", "join", side="A", channel_id=OTHER_CHANNEL)
    await t.cmd(DAN, "game", "join", side="B", channel_id=OTHER_CHANNEL)
    assert await t.service.lobby.game_here(str(GUILD_ID), str(OTHER_CHANNEL)) == 2
    return 2


async def test_another_games_button_opens_no_hand(table: Table) -> None:
    t = table
    await open_quickstart(t)
    other = await second_game(t)
    hands = cards_of(await t.state(other), "AB")
    version = await t.version(other)
    for user in (ANN, BOB):  # players of game 1, pressing game 2's button (from its channel, or any)
        for channel in (OTHER_CHANNEL, None):
            kw = {"channel_id": channel} if channel else {}
            answer = await t.press(user, f"qd:pick:{other}", **kw)
            assert answer is not None and answer.ephemeral
            assert answer_text(answer) == NOT_PLAYING, answer_text(answer)
            assert not components_of(answer), "no menu"
            assert not [c for c in hands if c in str(answer.payload)], "a card of game 2's hands"
    assert await t.version(other) == version


async def test_a_hand_in_another_server_is_refused(table: Table) -> None:
    t = table
    await open_quickstart(t)
    with pytest.raises(WrongGuild):
        await t.service.reading.hand(Actor(str(ANN[0]), "800000000000000099"), 1)


async def test_a_gm_without_a_seat_gets_no_hand(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)  # Ann owes her pick
    answer = await t.press(GUS, "qd:pick:1")
    assert answer is not None and answer.ephemeral and answer_text(answer) == NOT_PLAYING, answer_text(answer)
    assert not components_of(answer)
    hand = await t.service.reading.hand(actor(GUS), 1)
    assert hand.players == () and hand.owed == () and hand.view.viewer is None


async def test_a_member_with_both_squadrons_picks_for_each_from_its_own_hand(table: Table) -> None:
    t = table
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(ANN, "game", "join", side="B")
    state = await t.state()
    hand_a, hand_b = state.squadron("A").hand, state.squadron("B").hand
    opened, menu, message = await t.open_hand(ANN)
    assert menu == "qd:hand:1:A:0", menu
    offered = [o["value"] for c in components_of(opened) for o in c.get("options", [])]
    assert offered == list(hand_a[:25])
    await t.press(ANN, menu, message, values=[hand_a[0]])
    opened, menu, message = await t.open_hand(ANN)
    assert menu == "qd:hand:1:B:0", menu  # A has picked: now B, from B's own hand
    offered = [o["value"] for c in components_of(opened) for o in c.get("options", [])]
    assert offered == list(hand_b[:25])
    await t.press(ANN, menu, message, values=[hand_b[0]])
    state = await t.state()
    assert state.squadron("A").face_up == hand_a[0] and state.squadron("B").face_up == hand_b[0]
    state = await t.state()
    if state.turn >= 1:  # revealed: a menu now opened is for the next pick, never the set-up's again
        assert all(":0" not in str(c["custom_id"]) for c in components_of(await t.press(ANN, "qd:pick:1")))


async def test_a_stand_ins_menu_does_nothing_once_the_player_is_back(table: Table) -> None:
    """Eve opens Ann's hand while standing in, keeps the menu, and Ann comes back: the menu no longer
    picks for A (and the hand button shows Eve nothing)."""
    t = table
    await open_quickstart(t)
    await t.service.clock.set_away(actor(ANN), utcnow() + timedelta(days=3), "substitute", str(EVE[0]))
    _, menu, message = await t.open_hand(EVE)
    assert menu == "qd:hand:1:A:0"
    await t.service.clock.set_away(actor(ANN), None)  # back
    version = await t.version()
    answer = await t.press(EVE, menu, message, values=[(await t.state()).squadron("A").hand[0]])
    assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
    assert await t.version() == version and not (await t.state()).squadron("A").picked
    answer = await t.press(EVE, "qd:pick:1")
    assert answer is not None and answer_text(answer) == NOT_PLAYING and not components_of(answer)


async def test_a_menu_of_a_past_pick_changes_nothing(table: Table) -> None:
    """Bob's set-up menu, pressed again after his pick and after the reveal."""
    t = table
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    _, menu, message = await t.open_hand(BOB)
    hand = (await t.state()).squadron("B").hand
    await t.press(BOB, menu, message, values=[hand[0]])
    version = await t.version()
    answer = await t.press(BOB, menu, message, values=[hand[1]])
    assert answer is not None and answer.ephemeral and answer_text(answer).startswith("❌"), answer_text(answer)
    assert await t.version() == version and (await t.state()).squadron("B").face_down == hand[0]
    _, menu_a, message_a = await t.open_hand(ANN)
    await t.press(ANN, menu_a, message_a, values=[(await t.state()).squadron("A").hand[0]])
    state = await t.state()
    assert state.turn >= 1 and state.squadron("B").face_up == hand[0]
    version = await t.version()
    answer = await t.press(BOB, menu, message, values=[hand[1]])
    assert answer is not None and answer_text(answer).startswith("❌"), answer_text(answer)
    assert await t.version() == version
