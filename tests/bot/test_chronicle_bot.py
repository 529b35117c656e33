"""Issue 27, item 2 through Discord: the summary card at a game's end (a PNG with alt text and the
same in words, with a Rematch button), the server's chronicle channel with a thread on the card for
after-action reports, and the Rematch button, pressed once by a player and refused to anyone else."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, command, component, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, setup_game

GM = 1 << 5  # Manage Server


def cards(fake: Any, channel: int) -> list[Any]:
    return [r for r in fake.requests if r.in_channel and f"/channels/{channel}/" in r.path
            and "is over:" in r.content and r.files]


def rematch_id(card: Any) -> str:
    return str(card.payload["components"][0]["components"][0]["custom_id"])


async def test_the_card_goes_to_the_chronicle_channel_with_a_thread(harness: Any) -> None:
    bot, fake = harness
    sent = await dispatch(bot, command(ANN, "game", "chronicle", channels={"channel": OTHER_CHANNEL_ID}), fake)
    assert last_followup(sent).content.startswith("❌") and last_followup(sent).ephemeral  # a GM's setting
    sent = await dispatch(bot, command(EVE, "game", "chronicle", permissions=GM,
                                       channels={"channel": OTHER_CHANNEL_ID}), fake)
    assert "after-action" in last_followup(sent).content
    await setup_game(bot, fake)
    await dispatch(bot, command(BOB, "game", "concede"), fake)
    [here] = cards(fake, CHANNEL_ID)
    [there] = cards(fake, OTHER_CHANNEL_ID)
    for card in (here, there):
        assert not card.ephemeral and "player A wins" in card.content and "Strike Points" in card.content
        assert "dice luck" in card.content and "recomputed from the revealed seed" in card.content
        [attached] = card.payload["attachments"]
        assert attached["description"].startswith("Summary card of") and "Side B (Bob)" in attached["description"]
        assert card.files[0][1].startswith(b"\x89PNG")
    assert rematch_id(here) == "qd:rematch:1" and not there.payload.get("components")
    # the after-action thread is opened on the chronicle card (its id is the message's)
    thread = fake.channels[there.response_message_id]
    assert thread["parent_id"] == str(OTHER_CHANNEL_ID) and "After action" in thread["name"]
    # the board's "Game over" line comes first, the card after it
    posts = [r.content for r in fake.requests if r.in_channel and f"/channels/{CHANNEL_ID}/" in r.path]
    assert any("Game over" in p for p in posts[:posts.index(here.content)])


async def test_no_chronicle_channel_no_second_card(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(ANN, "game", "concede"), fake)
    assert len(cards(fake, CHANNEL_ID)) == 1 and not cards(fake, OTHER_CHANNEL_ID)
    assert not fake.threads()


async def test_rematch_is_a_players_once_and_swaps_the_sides(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(BOB, "game", "concede"), fake)
    [card] = cards(fake, CHANNEL_ID)
    press = rematch_id(card)
    sent = await dispatch(bot, component(EVE, press, message_id=card.response_message_id), fake)
    refused = last_followup(sent)
    assert refused.ephemeral and refused.content.startswith("❌") and "Only a player" in refused.content
    assert len(await bot.service.lobby.list_games(str(GUILD_ID))) == 1  # nothing was made
    before = len(fake.requests)
    made = last_followup(await dispatch(bot, component(BOB, press, message_id=card.response_message_id), fake))
    assert made.ephemeral and "game #2 here" in made.content
    await bot.courier.drain_all()  # the new game's set-up post goes through the outbox, maybe after the answer
    sent = fake.requests[before:]
    assert fake.messages[card.response_message_id].components == []  # the card keeps its text and image
    assert fake.messages[card.response_message_id].content == card.content
    info = await bot.service.lobby.info(2)
    assert {s.player: s.user_id for s in info.seats} == {"A": str(BOB[0]), "B": str(ANN[0])}
    assert any("is set up here" in r.content and "#2" in r.content for r in sent if r.in_channel)
    for who in (ANN, BOB):  # the second press, by either player, and a press after a restart alike
        again = last_followup(await dispatch(bot, component(who, press, message_id=card.response_message_id), fake))
        assert again.ephemeral and "already" in again.content
    assert len(await bot.service.lobby.list_games(str(GUILD_ID))) == 2


async def test_a_busy_channel_gets_the_rematch_in_a_thread(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(BOB, "game", "concede"), fake)
    [card] = cards(fake, CHANNEL_ID)
    await dispatch(bot, command(EVE, "game", "create"), fake)  # the channel's next game
    sent = await dispatch(bot, component(ANN, rematch_id(card), message_id=card.response_message_id), fake)
    made = last_followup(sent)
    assert made.ephemeral and "game #3 in <#" in made.content
    [thread] = fake.threads()
    assert (await bot.service.lobby.info(3)).channel_id == thread["id"]



async def test_last_weeks_rematch_button_works_after_a_restart_once(harness: Any, tmp_path: Any) -> None:
    from bot.app import QuarterdeckBot
    from game.service.db import make_engine
    from game.service.game_service import GameService
    from tests.bot.fake_discord import TOKEN
    from tests.seeds import counting_seeds

    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(BOB, "game", "concede"), fake)
    [card] = cards(fake, CHANNEL_ID)
    # another process, started later, knows nothing of the card: the custom id alone names the game
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    restarted = QuarterdeckBot(GameService(engine, seeds=counting_seeds()), sync_commands=False, run_scheduler=False)
    await restarted.login(TOKEN)
    try:
        made = last_followup(await dispatch(restarted, component(ANN, rematch_id(card), card.response_message_id), fake))
        assert made.ephemeral and "game #2 here" in made.content
        # the first process, its copy of the game stale, refuses the second press all the same
        again = last_followup(await dispatch(bot, component(BOB, rematch_id(card), card.response_message_id), fake))
        assert again.ephemeral and "already" in again.content
    finally:
        await restarted.close()
        await engine.dispose()


async def test_a_refused_thread_leaves_one_card_without_it(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(EVE, "game", "chronicle", permissions=GM, channels={"channel": OTHER_CHANNEL_ID}),
                   fake)
    fake.fail(f"/channels/{OTHER_CHANNEL_ID}/messages/", status=403)  # the thread, not the card
    await setup_game(bot, fake)
    await dispatch(bot, command(BOB, "game", "concede"), fake)
    assert len(cards(fake, OTHER_CHANNEL_ID)) == 1 and not fake.threads()
    async with bot.service.store.repo.session() as s:
        from game.service.outbox import rows_of
        assert all(r.status == "done" for r in await rows_of(s, 1) if r.kind == "chronicle")


async def test_the_card_shows_no_hand(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(BOB, "game", "concede"), fake)
    state = await bot.service.reading.state_for_audit(1)
    hands = {c for q in state.squadrons for c in (*q.hand, q.face_down) if c}
    assert hands  # conceded before a card was played: both hands are full
    [card] = cards(fake, CHANNEL_ID)
    said = card.content + card.payload["attachments"][0]["description"]
    assert not [c for c in hands if c in said]
