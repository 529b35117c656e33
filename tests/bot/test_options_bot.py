"""Issue 12 through Discord: every post that asks a player to act lists what they can do, and the
menu on it gives the order in two presses. A newcomer who only reads the posts and presses the menu
fires a broadside in turn 1 against the computer captain."""

from __future__ import annotations

from typing import Any

from game import events as ev
from game.phases.flow import deciders
from tests.bot.fake_discord import FakeDiscord, Sent, command, component, dispatch
from tests.bot.test_bot import ANN, last_followup, pick

Bot = Any


def board_posts(fake: FakeDiscord) -> list[Sent]:
    return [r for r in fake.channel_messages() if r.files]


def option_menu(post: Sent) -> dict[str, Any] | None:
    for row in post.payload.get("components") or []:
        for item in row["components"]:
            if str(item.get("custom_id", "")).startswith("qd:opt:"):
                return item
    return None


async def choose(bot: Bot, fake: FakeDiscord, menu: dict[str, Any], label_part: str) -> list[Sent]:
    """Pick the option whose label holds `label_part`, then press the button that gives the order."""
    value = next(o["value"] for o in menu["options"] if label_part in o["label"])
    shown = await dispatch(bot, component(ANN, menu["custom_id"], "1", component_type=3, values=[value]), fake)
    answer = last_followup(shown)
    assert answer.ephemeral and "The order: `" in answer.content, answer.content
    button = answer.payload["components"][0]["components"][0]
    assert button["custom_id"].startswith("qd:go:")
    return await dispatch(bot, component(ANN, button["custom_id"], "1"), fake)


async def test_a_newcomer_uses_the_menu_and_fires_in_turn_one(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "game", "create"), fake)
    await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    await dispatch(bot, command(ANN, "game", "join", side="B", ai=True), fake)
    service = bot.service
    fired = False
    for _ in range(30):
        state = await service.reading.state_for_audit(1)
        if state.turn > 1 or state.phase.value == "over":
            break
        if "A" not in deciders(state):
            break
        post = board_posts(fake)[-1]
        if state.phase.value in ("setup", "initiative"):
            hand = state.squadron("A").hand
            await pick(bot, fake, ANN, hand[0])
            continue
        if state.pending is not None:
            keep = next(c["custom_id"] for row in post.payload["components"] for c in row["components"]
                        if c["custom_id"].startswith("qd:keep:"))  # the roll's own post
            await dispatch(bot, component(ANN, keep, post.response_message_id), fake)
            continue
        assert f"<@{ANN[0]}>" in post.content  # the post asks Ann, and lists her options
        menu = option_menu(post)
        assert menu is not None, post.content
        if state.phase.value == "movement":
            assert "speed" in post.content
            labels = [o["label"] for o in menu["options"]]
            closing = [label for label in labels if "bring guns to bear" in label]
            sent = await choose(bot, fake, menu, closing[0].split(":", 1)[1][:40] if closing else labels[0][:30])
        else:
            assert "Broadside at" in post.content or "no target" in post.content
            attack = next((o["label"] for o in menu["options"] if "Broadside at" in o["label"]), None)
            sent = await choose(bot, fake, menu, attack or menu["options"][0]["label"])
            fired = fired or attack is not None
        assert not last_followup(sent).content.startswith(("❌", "⚠️")), last_followup(sent).content
    state = await service.reading.state_for_audit(1)
    log = [e for _, _, e in await service.store.repo.events(1)]
    assert fired and any(isinstance(e, ev.AttackResolved) and e.kind == "broadside" and e.ship in ("Kestrel", "Amazone")
                         for e in log)


async def test_a_stale_menu_and_someone_elses_press_are_answered_privately(harness: Any) -> None:
    bot, fake = harness
    from tests.bot.test_bot import BOB, EVE, setup_game

    await setup_game(bot, fake)
    for user, card in ((ANN, "Effective Fire"), (BOB, "Take Courage"), (ANN, "Careful Aim"), (BOB, "Reload!")):
        await pick(bot, fake, user, card)
    post = board_posts(fake)[-1]
    menu = option_menu(post)
    assert menu is not None and "Kestrel" in str(menu["options"])
    value = menu["options"][0]["value"]
    other = await dispatch(bot, component(EVE, menu["custom_id"], "1", component_type=3, values=[value]), fake)
    assert last_followup(other).ephemeral and "not waiting for you" in last_followup(other).content
    await dispatch(bot, command(ANN, "order", line="move Kestrel"), fake)  # play moves on
    stale = await dispatch(bot, component(ANN, menu["custom_id"], "1", component_type=3, values=[value]), fake)
    assert last_followup(stale).ephemeral and "earlier moment" in last_followup(stale).content
    private = await dispatch(bot, command(BOB, "options"), fake)
    assert last_followup(private).ephemeral and "Otter" in last_followup(private).content
