"""Issue 25, item 8: the tutorial played through the bot, on the fake Discord. `/game create scenario:
tutorial` opens a thread where Ann plays A against the computer captain; each step of turn 1 carries a
hint drawn from the options the board shows, and the hint's order is one the game accepts."""

from __future__ import annotations

import re
from typing import Any

from game.model import Phase
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.scenario import builtin_scenarios, load_scenario_text
from game.tutorial import ON_YOUR_OWN
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, Sent, command, component, dispatch
from tests.bot.test_bot import ANN, EVE, last_followup

A_HAND = ("Down!", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position")
B_HAND = ("Fire as She Bears", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind")
ORDER = re.compile(r"`/order line: ([^`]+)`")


def thread_posts(fake: FakeDiscord, tid: int) -> list[Sent]:
    return [r for r in fake.requests if r.in_channel and r.path.split("/")[4] == str(tid) and r.response_message_id]


def hint_of(post: Sent) -> str:
    return next((line for line in post.content.splitlines() if line.startswith("💡")), "")


async def create_tutorial(bot: Any, fake: FakeDiscord) -> int:
    sent = await dispatch(bot, command(ANN, "game", "create", scenario="tutorial"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "player A against the computer captain" in answer.content, answer.content
    [thread] = fake.threads()  # a tutorial always gets its own thread
    return int(thread["id"])


async def pick_in(bot: Any, fake: FakeDiscord, tid: int, user: tuple[int, str], card: str) -> tuple[str, list[Sent]]:
    """Choose a card through the private menu: the menu's own words (the learner's card hint) and what
    the choice sent."""
    opened = await dispatch(bot, component(user, "qd:pick:1", message_id="1", channel_id=tid), fake)
    callback = next(r for r in opened if "/callback" in r.path)
    private = last_followup(opened)
    assert private.ephemeral
    menu = private.payload["components"][0]["components"][0]
    assert card in [o["value"] for o in menu["options"]]
    return private.content, await dispatch(bot, component(user, menu["custom_id"], callback.response_message_id,
                                                          component_type=3, values=[card], channel_id=tid), fake)


async def order_in(bot: Any, fake: FakeDiscord, tid: int, line: str) -> str:
    sent = await dispatch(bot, command(ANN, "order", line=line, channel_id=tid), fake)
    return last_followup(sent).content


async def test_the_tutorial_is_played_through_its_first_turn(harness: Any) -> None:
    bot, fake = harness
    tid = await create_tutorial(bot, fake)
    state = await bot.service.reading.state_for_audit(1)
    info = await bot.service.lobby.info(1)
    assert state.tutorial and info.channel_id == str(tid)
    assert info.seat("A").user_id == str(ANN[0]) and info.seat("B").ai  # type: ignore[union-attr]

    # step 1: the pick; what each of Ann's cards does comes with her private menu (a hand is secret,
    # the thread is not); only Ann is pinged
    first = thread_posts(fake, tid)[-1]
    assert first.files and "step 1" in hint_of(first), first.content
    assert not any(card in hint_of(first) for card in A_HAND)
    assert [str(u) for u in first.payload["allowed_mentions"]["users"]] == [str(ANN[0])]
    private, _ = await pick_in(bot, fake, tid, ANN, "Effective Fire")
    assert "Effective Fire (3: +1 Broadside value for each ship this turn)" in private, private
    post = thread_posts(fake, tid)[-1]
    assert "Revealed: A: Effective Fire, B: " in "\n".join(fake.public_texts())
    assert "next turn" in hint_of(post)
    private, _ = await pick_in(bot, fake, tid, ANN, "Careful Aim")
    assert "for next turn" in private and "Effective Fire" not in private  # played: no longer in the hand

    # movement and attack: each hint names one of Ann's ships and an order the game accepts as given
    moved, fired, kept = [], [], 0
    for _ in range(20):
        state = await bot.service.reading.state_for_audit(1)
        if state.turn > 1 or state.phase is Phase.OVER:
            break
        assert deciders(state) == {"A"}, (state.phase, deciders(state))  # the computer acts at once
        hint = hint_of(thread_posts(fake, tid)[-1])
        if state.pending is not None:
            assert "Fortune Point" in hint or "Keep the roll" in hint, hint
            assert "✅" in await order_in(bot, fake, tid, "keep")
            kept += 1
            continue
        found = ORDER.search(hint)
        assert found, (state.phase, hint)
        line = found.group(1)
        ship = line.split()[1]
        # the hint names the ship in its words too, not only inside the order
        assert ship in {s.id for s in state.ships_of("A")} and ship in ORDER.sub("", hint), hint
        answer = await order_in(bot, fake, tid, line)
        assert answer.startswith("✅"), (line, answer)
        (moved if state.phase is Phase.MOVEMENT else fired).append(line)
    assert len(moved) == 2 and moved[0].startswith("move ")  # both ships moved as suggested
    assert any(line.startswith("fire ") for line in fired) and kept, (fired, kept)

    # turn 2: one farewell, then no more hints
    posts = thread_posts(fake, tid)
    farewells = [i for i, p in enumerate(posts) if ON_YOUR_OWN in p.content]
    assert len(farewells) == 1, [hint_of(p) for p in posts]
    assert not any(hint_of(p) for p in posts[farewells[0] + 1:])
    # no hint ever named a card of the computer captain's (it was never in the learner's view)
    hints = [hint_of(p) for p in posts if hint_of(p)]
    assert len(hints) >= 6 and not any(card in h for h in hints for card in B_HAND)
    # the hand hints stop with turn 1 too
    private, _ = await pick_in(bot, fake, tid, ANN, "Down!")
    assert "💡" not in private


async def test_no_hint_tells_the_computers_face_down_card(harness: Any) -> None:
    """B picks at once; until the reveal, nothing public (the hints included) names its card."""
    bot, fake = harness
    tid = await create_tutorial(bot, fake)
    for _ in range(100):  # the computer captain picks in the driver, after the first post
        if (await bot.service.reading.state_for_audit(1)).squadron("B").picked:
            break
        await dispatch(bot, command(ANN, "game", "status", channel_id=tid), fake)
    hidden = (await bot.service.reading.state_for_audit(1)).squadron("B").face_down
    assert hidden in B_HAND
    assert not any(hidden in text for text in fake.public_texts())
    _, sent = await pick_in(bot, fake, tid, ANN, "Down!")
    assert "face down" in last_followup(sent).content
    texts = "\n".join(fake.public_texts())
    assert texts.index(hidden) > texts.index("Revealed:")


async def test_another_member_is_refused_privately(harness: Any) -> None:
    bot, fake = harness
    tid = await create_tutorial(bot, fake)
    before = await bot.service.reading.state_for_audit(1)
    posts = len(thread_posts(fake, tid))
    opened = await dispatch(bot, component(EVE, "qd:pick:1", message_id="1", channel_id=tid), fake)
    answer = last_followup(opened)
    assert answer.ephemeral and "not playing" in answer.content and not answer.payload.get("components")
    sent = await dispatch(bot, command(EVE, "order", line="pick A Down!", channel_id=tid), fake)
    assert last_followup(sent).ephemeral and last_followup(sent).content.startswith("❌")
    assert (await bot.service.reading.state_for_audit(1)).squadron("A") == before.squadron("A")
    assert len(thread_posts(fake, tid)) == posts


def test_the_tutorial_is_the_quick_start_marked() -> None:
    """Its table and squadrons are the quick start's, which docs/first-game.md describes."""
    rules = load_rules()
    tutorial = load_scenario_text(builtin_scenarios()["tutorial"], "tutorial.toml", rules)
    quick = load_scenario_text(builtin_scenarios()["quickstart"], "quickstart.toml", rules)
    assert tutorial.tutorial and not quick.tutorial
    assert (tutorial.table, tutorial.squadrons, tutorial.ships) == (quick.table, quick.squadrons, quick.ships)


async def test_without_the_thread_permission_the_tutorial_says_where_it_can_play(harness: Any) -> None:
    bot, fake = harness
    fake.forbid(CHANNEL_ID)  # Discord refuses the thread (403 50013)
    sent = await dispatch(bot, command(ANN, "game", "create", scenario="tutorial"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "tutorial always gets a thread" in answer.content, answer.content
    assert not fake.threads() and await bot.service.lobby.game_in_channel(str(GUILD_ID), str(CHANNEL_ID)) is None
