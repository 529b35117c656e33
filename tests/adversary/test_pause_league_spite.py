"""Adversary probes of the pauses played against the league's own clockwork (issue 27, item 4): a
league paused while its round's last games end, a pause by consent that ends by itself during a
league's pause, a league paused while a request for a pause is open, and a GM's /league resume over
a pause the players agreed."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from game.service.models import utcnow
from game.service.scheduler import run_due
from tests.adversary.eyes import ANN, BOB, EVE, GUS, Table, answer_text
from tests.adversary.test_league_organisers import _league, _user
from tests.adversary.test_pause_consent import request_buttons
from tests.bot.fake_discord import GUILD_ID


async def _info(t: Table):  # type: ignore[no-untyped-def]
    return await t.service.leagues.show(str(GUILD_ID), "Cup")


async def _ann_v_bob(t: Table) -> tuple[int, int]:
    """Ann's game of round 1 and its thread (Ann, Bob and Eve play, with a computer captain)."""
    (p,) = [p for p in (await _info(t)).pairings if str(ANN[0]) in (p.a, p.b)]
    return int(p.game_id or 0), int(p.thread_id or 0)


async def test_a_round_whose_games_end_while_its_league_is_paused_waits_for_the_resume(table: Table) -> None:
    """Every game of the round ends while a GM has paused the league: the next round is not paired
    behind the GM's back with its clocks running. The GM's /league resume closes it."""
    t = table
    await _league(t, "Cup")
    assert "is paused" in answer_text(await t.cmd(GUS, "league", "pause", name="Cup", reason="holidays"))
    for p in (await _info(t)).pairings:
        if p.status == "done":
            continue
        human = p.a if not p.a.startswith("ai:") else p.b
        await t.cmd(_user(human), "game", "concede", channel_id=int(p.thread_id or 0), settle=30)
    await t.bot.courier.drain_all()
    info = await _info(t)
    assert info.current_round == 1 and info.paused, "a round closed by itself while its league was paused"
    assert all(p.status == "done" for p in info.pairings)
    resumed = answer_text(await t.cmd(GUS, "league", "resume", name="Cup", settle=30))
    assert "is resumed" in resumed, resumed
    await t.bot.courier.drain_all()
    info = await _info(t)
    assert info.current_round == 2 and not info.paused
    assert any(p.game_id is not None and p.status == "playing" for p in info.pairings)
    for p in info.pairings:
        if p.game_id is not None and p.status != "done":
            assert not (await t.service.clock.paused(p.game_id)).paused  # the new round's clocks run


async def test_a_pause_by_consent_that_ends_during_the_leagues_pause_keeps_the_clock_stopped(table: Table) -> None:
    t = table
    await _league(t, "Cup")
    game, thread = await _ann_v_bob(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause", hours=1, channel_id=thread)
    message, agree, _ = request_buttons(t, mark)
    assert "Everyone agrees" in answer_text(await t.press(BOB, agree, message, channel_id=thread))
    assert "is paused" in answer_text(await t.cmd(GUS, "league", "pause", name="Cup"))
    later = utcnow() + timedelta(hours=2)
    assert await run_due(t.service.store.repo, {"pause_end": t.bot._pause_end}, now=later) == 1
    clock = await t.service.clock.paused(game)
    assert clock.paused and clock.pause_kind == "league", "the game's clock ran during its league's pause"
    # a player cannot lift the GM's pause; the GM's resume starts it
    assert answer_text(await t.cmd(ANN, "game", "resume", channel_id=thread)).startswith("❌")
    await t.cmd(GUS, "league", "resume", name="Cup")
    assert not (await t.service.clock.paused(game)).paused


async def test_a_league_paused_while_a_request_is_open_leaves_no_button_that_works(table: Table) -> None:
    t = table
    await _league(t, "Cup")
    game, thread = await _ann_v_bob(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause", channel_id=thread)
    message, agree, _ = request_buttons(t, mark)
    await t.cmd(GUS, "league", "pause", name="Cup")
    assert (await t.service.clock.paused(game)).pause_kind == "league"
    late = await t.press(BOB, agree, message, channel_id=thread)
    assert late is not None and "no longer open" in answer_text(late)
    clock = await t.service.clock.paused(game)
    assert clock.paused and clock.pause_kind == "league"  # Bob's press did not turn it into a players' pause
    assert answer_text(await t.cmd(BOB, "game", "resume", channel_id=thread)).startswith("❌")
    await t.cmd(GUS, "league", "resume", name="Cup")
    assert not (await t.service.clock.paused(game)).paused


async def test_a_gms_league_resume_leaves_the_players_own_pause_alone(table: Table) -> None:
    t = table
    await _league(t, "Cup")
    game, thread = await _ann_v_bob(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause", channel_id=thread)
    message, agree, _ = request_buttons(t, mark)
    await t.press(BOB, agree, message, channel_id=thread)
    await t.cmd(GUS, "league", "pause", name="Cup")
    resumed = answer_text(await t.cmd(GUS, "league", "resume", name="Cup"))
    assert "is resumed" in resumed, resumed
    clock = await t.service.clock.paused(game)
    assert clock.paused and clock.pause_kind == "consent"
    # and Eve, who plays another table, cannot resume Ann and Bob's game
    assert answer_text(await t.cmd(EVE, "game", "resume", channel_id=thread)).startswith("❌")
    assert "runs again" in answer_text(await t.cmd(BOB, "game", "resume", channel_id=thread))


async def test_agree_and_decline_pressed_at_once_settle_the_request_once(table: Table) -> None:
    """Bob's two clients press Agree and Decline at the same moment: one answer counts, the other is
    told the request was answered; the log never says both "declined" and "paused"."""
    from game import events as ev
    from tests.adversary.test_sweep import open_quickstart

    t = table
    await open_quickstart(t)
    for _ in range(3):
        mark = t.mark()
        await t.cmd(ANN, "game", "pause")
        message, agree, decline = request_buttons(t, mark)
        answers = await asyncio.gather(t.press(BOB, agree, message), t.press(BOB, decline, message))
        said = [answer_text(a) for a in answers]
        assert sum(not x.startswith("❌") for x in said) == 1, said
        changes = [e.change for e in await t.log_events() if isinstance(e, ev.ClockChanged)]
        assert changes[-1] in ("paused", "pause declined") and changes[-2] == "pause asked", changes
        if (await t.service.clock.paused(1)).paused:
            await t.cmd(ANN, "game", "resume")


async def test_two_gms_pausing_and_resuming_a_league_at_once_do_it_once(table: Table) -> None:
    from tests.adversary.eyes import MANAGE_GUILD

    t = table
    await _league(t, "Cup")
    game, _ = await _ann_v_bob(t)
    for sub in ("pause", "resume"):
        answers = await asyncio.gather(t.cmd(GUS, "league", sub, name="Cup"),
                                       t.cmd(EVE, "league", sub, permissions=MANAGE_GUILD, name="Cup"))
        said = sorted(answer_text(a) for a in answers)
        assert sum(x.startswith("✅") for x in said) == 1 and all("Something went wrong" not in x for x in said), said
        page = await t.service.leagues.action_log(str(GUILD_ID), "Cup", 1, per_page=100)
        assert sum(line.action.action == sub for line in page.lines) == 1
    assert not (await t.service.clock.paused(game)).paused
    changes = [e.change for e in await t.log_events(game) if e.__class__.__name__ == "ClockChanged"]
    assert changes.count("paused") == 1 and changes.count("resumed") == 1, changes


async def test_a_round_closed_by_its_gm_after_its_time_decides_a_game_its_players_paused(table: Table) -> None:
    """The players' pause does not move the round's deadline (docs/leagues.md): once the round's time
    is up the GM's /league round decides their game as any late game (both sides were to pick their
    cards: a draw). The game itself may go on, no longer counting, and its pause ends as agreed."""
    from sqlalchemy import update

    from game.service.models import League

    t = table
    await _league(t, "Cup", auto_close=False)
    game, thread = await _ann_v_bob(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause", hours=2, channel_id=thread)
    message, agree, _ = request_buttons(t, mark)
    await t.press(BOB, agree, message, channel_id=thread)
    early = answer_text(await t.cmd(GUS, "league", "round", name="Cup"))
    assert early.startswith("❌") and "still being played" in early, early
    async with t.service.store.repo.session() as s, s.begin():
        await s.execute(update(League).values(round_started_at=utcnow() - timedelta(hours=200)))
    closed = answer_text(await t.cmd(GUS, "league", "round", name="Cup", settle=30))
    assert "Round 2" in closed, closed
    (row,) = [p for p in (await t.service.leagues.show(str(GUILD_ID), "Cup", round=1)).pairings if p.game_id == game]
    assert row.status == "done" and row.winner is None and row.reason.startswith("timed out"), row
    # the league's round is over: a game of it no longer held by the league ends its pause as agreed
    assert not await t.service.league_pauses.holds(game)
    later = utcnow() + timedelta(hours=3)
    assert await run_due(t.service.store.repo, {"pause_end": t.bot._pause_end}, now=later) == 1
    assert not (await t.service.clock.paused(game)).paused
