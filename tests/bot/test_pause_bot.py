"""Issue 27, item 4 (pause by consent and weekday windows) through Discord: `/game pause` posts a
request that pings the other player, its buttons answer only that player, the status says the clock
is paused and until when, `/game resume` starts it again; a GM pauses a league; `/clock days` sets,
shows and clears a member's windows, refusing bad input with an example."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.bot.fake_discord import CHANNEL_ID, command, component, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, setup_game
from tests.bot.test_league_bot import SHORT

GM = 1 << 5  # Manage Server


def pause_buttons(sent: list[Any]) -> tuple[Any, str, str]:
    def ids(r: Any) -> list[str]:
        return [c["custom_id"] for row in r.payload.get("components") or () for c in row["components"]]

    [request] = [r for r in sent if r.in_channel and any(i.startswith("qd:pause:") for i in ids(r))]
    agree, decline = ids(request)
    return request, agree, decline


async def test_a_pause_asked_agreed_shown_and_resumed(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    sent = await dispatch(bot, command(ANN, "game", "pause", hours=24, reason="a holiday"), fake)
    asked = last_followup(sent)
    assert asked.ephemeral and "Asked" in asked.content
    request, agree, decline = pause_buttons(sent)
    assert not request.ephemeral and agree.endswith(":yes") and decline.endswith(":no")
    assert (request.response_message_id, str(BOB[0])) in fake.notified  # Bob is pinged, nobody else
    assert all(user != str(ANN[0]) for msg, user in fake.notified if msg == request.response_message_id)
    # the log line goes to the channel with the game's board
    assert any(r.in_channel and "asks to pause" in r.content and "a holiday" in r.content for r in sent)
    for who, why in ((EVE, "Only the game's other players"), (ANN, "You asked for this pause")):
        refused = last_followup(await dispatch(bot, component(who, agree, request.response_message_id), fake))
        assert refused.ephemeral and refused.content.startswith("❌") and why in refused.content
    assert not (await bot.service.clock.paused(1)).paused
    sent = await dispatch(bot, component(BOB, agree, request.response_message_id), fake)
    assert last_followup(sent).ephemeral and "Everyone agrees" in last_followup(sent).content
    assert fake.messages[request.response_message_id].components == []  # settled: the buttons go
    await bot.courier.drain(1, now=datetime.now(UTC) + timedelta(seconds=10))  # one status edit per 3 s at most
    status_id = [r for r in fake.requests if r.in_channel and "📋" in r.content][0].response_message_id
    status = fake.messages[status_id]  # one status message, edited in place
    assert "clock paused until <t:" in status.content and "deadline" not in status.content
    again = last_followup(await dispatch(bot, component(BOB, decline, request.response_message_id), fake))
    assert again.ephemeral and "no longer open" in again.content
    # moves go on while paused
    sent = await dispatch(bot, command(EVE, "game", "resume"), fake)
    assert last_followup(sent).content.startswith("❌")
    sent = await dispatch(bot, command(BOB, "game", "resume"), fake)
    assert "runs again" in last_followup(sent).content
    await bot.courier.drain(1, now=datetime.now(UTC) + timedelta(seconds=20))
    status = fake.messages[status_id]
    assert "paused" not in status.content and "deadline <t:" in status.content


async def test_a_decline_keeps_the_clock_running(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    sent = await dispatch(bot, command(BOB, "game", "pause"), fake)
    request, _, decline = pause_buttons(sent)
    twice = last_followup(await dispatch(bot, command(BOB, "game", "pause"), fake))
    assert twice.ephemeral and "already asked" in twice.content
    sent = await dispatch(bot, component(ANN, decline, request.response_message_id), fake)
    assert "declined" in last_followup(sent).content
    assert fake.messages[request.response_message_id].components == []
    assert any(r.in_channel and "declines the pause" in r.content for r in sent)
    assert not (await bot.service.clock.paused(1)).paused


async def test_clock_days_sets_shows_and_clears_windows(harness: Any) -> None:
    bot, fake = harness
    shown = last_followup(await dispatch(bot, command(ANN, "clock", "days"), fake))
    assert shown.ephemeral and "no weekday windows" in shown.content and "Mon-Fri 18:00-23:00" in shown.content
    bad = last_followup(await dispatch(bot, command(ANN, "clock", "days", days="weekday evenings"), fake))
    assert bad.ephemeral and bad.content.startswith("❌") and "Mon-Fri 18:00-23:00, Sat-Sun 10:00-22:00" in bad.content
    ok = last_followup(await dispatch(bot, command(ANN, "clock", "days", days="sat-sun 10-22, Mon-Fri 18:00-23:00"),
                                      fake))
    assert "Mon 18:00-23:00" in ok.content and "Sun 10:00-22:00" in ok.content
    assert "Sat 10:00-22:00" in last_followup(await dispatch(bot, command(ANN, "clock", "days"), fake)).content
    cleared = last_followup(await dispatch(bot, command(ANN, "clock", "days", days="clear"), fake))
    assert "no weekday windows" in cleared.content


async def test_a_gm_pauses_and_resumes_a_league(harness: Any) -> None:
    bot, fake = harness
    upload = fake.attach("short.toml", SHORT)
    await dispatch(bot, command(ANN, "league", "create", permissions=GM, attachments={"file": upload},
                                name="Cup", scenario="one-turn"), fake)
    for who in (ANN, BOB):
        await dispatch(bot, command(who, "league", "join", name="Cup"), fake)
    await dispatch(bot, command(ANN, "league", "start", permissions=GM, name="Cup"), fake, settle=30)
    refused = last_followup(await dispatch(bot, command(BOB, "league", "pause", name="Cup"), fake))
    assert refused.ephemeral and "Only a GM may pause a league" in refused.content
    sent = await dispatch(bot, command(ANN, "league", "pause", permissions=GM, name="Cup", reason="<@&1> break"), fake)
    assert last_followup(sent).content.startswith("✅")
    [said] = [r for r in sent if r.in_channel and r.path.endswith(f"/{CHANNEL_ID}/messages") and "paused" in r.content]
    assert "1 game of this round" in said.content and "break" in said.content
    assert all(msg != said.response_message_id for msg, _ in fake.notified)  # a typed mention pings nobody
    shown = last_followup(await dispatch(bot, command(BOB, "league", "show", name="Cup"), fake))
    assert "paused by a GM" in shown.content and "decided <t:" not in shown.content
    sent = await dispatch(bot, command(ANN, "league", "resume", permissions=GM, name="Cup"), fake)
    assert "run again" in last_followup(sent).content and "The round now ends <t:" in last_followup(sent).content


async def test_the_request_answers_after_a_restart_and_the_pause_ends_by_itself(harness: Any, tmp_path: Any) -> None:
    from bot.app import QuarterdeckBot
    from game.service.db import make_engine
    from game.service.game_service import GameService
    from game.service.scheduler import run_due
    from tests.bot.fake_discord import TOKEN
    from tests.seeds import counting_seeds

    bot, fake = harness
    await setup_game(bot, fake)
    request, agree, _ = pause_buttons(await dispatch(bot, command(ANN, "game", "pause", hours=1), fake))
    # another process, started later, knows the request only from the database and the button's id
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    restarted = QuarterdeckBot(GameService(engine, seeds=counting_seeds()), sync_commands=False, run_scheduler=False)
    await restarted.login(TOKEN)
    try:
        sent = await dispatch(restarted, component(BOB, agree, request.response_message_id), fake)
        assert "Everyone agrees" in last_followup(sent).content
        assert (await restarted.service.clock.paused(1)).paused
        # its scheduler runs the pause's end when the hour is over: the clock runs again, and the channel is told
        before = len(fake.requests)
        later = datetime.now(UTC) + timedelta(hours=1, minutes=1)
        assert await run_due(restarted.service.store.repo, {"pause_end": restarted._pause_end}, now=later) == 1
        assert not (await restarted.service.clock.paused(1)).paused
        assert any(r.in_channel and "the pause is over" in r.content for r in fake.requests[before:])
    finally:
        await restarted.close()
        await engine.dispose()


async def test_a_gm_who_does_not_play_pauses_and_resumes_alone(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    sent = await dispatch(bot, command(EVE, "game", "pause", permissions=GM, reason="server maintenance"), fake)
    assert "paused" in last_followup(sent).content and (await bot.service.clock.paused(1)).paused
    assert not [r for r in sent if r.in_channel and "qd:pause:" in str(r.payload.get("components"))]  # nobody asked
    refused = last_followup(await dispatch(bot, command(ANN, "game", "resume"), fake))
    assert refused.ephemeral and "only a GM resumes it" in refused.content
    sent = await dispatch(bot, command(EVE, "game", "resume", permissions=GM), fake)
    assert "runs again" in last_followup(sent).content and not (await bot.service.clock.paused(1)).paused
