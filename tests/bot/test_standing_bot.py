"""Play by chat with standing orders: Ann answers only when pinged, Bob gives standing orders each
time he is woken; a GM sets the clock so that a deadline lets the computer captain play Ann's late
activation. Bob is woken at most twice a turn, what his orders did reaches him alone, and the game's
log holds every change of its clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
from sqlalchemy import update

from game import events as ev
from game.ai.captain import Captain
from game.model import Phase
from game.notation import format_command
from game.phases.flow import deciders
from game.service.models import ScheduledJob, utcnow
from game.service.scheduler import run_due
from game.standing import captain_orders
from game.views import view_of
from tests.bot.fake_discord import CHANNEL_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, USERS, act_as, last_followup, setup_game

TURNS = 3
GM = {"permissions": discord.Permissions(manage_guild=True).value}


async def give_orders(bot: Any, fake: Any) -> None:
    """Bob's orders through /orders, as a player who trusts the computer captain gives them."""
    state = await bot.service.reading.state_for_audit(1)
    wanted = captain_orders(view_of(state, "B"), await bot.service.reading.rules(1), state.log_position)
    await dispatch(bot, command(BOB, "orders", "clear"), fake)
    for o in wanted.ships:
        if o.move is not None:
            sent = await dispatch(bot, command(BOB, "orders", "move", line=format_command(o.move).split(": ", 1)[-1]),
                                  fake)
            assert last_followup(sent).ephemeral and "Your standing orders" in last_followup(sent).content
        await dispatch(bot, command(BOB, "orders", "attack", ship=o.ship, rule="best"), fake)
    await dispatch(bot, command(BOB, "orders", "rerolls", policy="fortune"), fake)
    await dispatch(bot, command(BOB, "orders", "fallback", then="discretion"), fake)


async def ann_is_late(bot: Any) -> None:
    """Ann's deadline passes: the scheduler runs the job the bot's handler answers."""
    async with bot.service.store.repo.session() as s, s.begin():
        await s.execute(update(ScheduledJob).where(ScheduledJob.kind == "deadline", ScheduledJob.status == "pending")
                        .values(due_at=utcnow() - timedelta(minutes=1)))
    assert await run_due(bot.service.store.repo, {"deadline": bot._deadline, "reminder": bot._remind}) >= 1


def dms_to(fake: Any, user: tuple[int, str]) -> list[str]:
    dm = fake.dm_channels.get(str(user[0]))
    return [r.content for r in fake.requests if dm and r.path == f"/api/v10/channels/{dm}/messages"]


async def test_one_player_answers_when_pinged_the_other_gives_standing_orders(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    sent = await dispatch(bot, command(EVE, "clock", "settings", on_deadline="captain", deadline_hours=24, **GM), fake)
    assert "⏱️ Clock (settings" in last_followup(sent).content  # to the GM, and to everyone with the board:
    assert any("⏱️ Clock (settings" in r.content and not r.ephemeral for r in sent if r.in_channel)
    refused = await dispatch(bot, command(ANN, "clock", "pause"), fake)
    assert last_followup(refused).ephemeral and "Only a GM" in last_followup(refused).content
    service = bot.service
    wakes = {"A": 0, "B": 0}
    present: str | None = None
    late: tuple[int, str] | None = None
    for n in range(600):
        state = await service.reading.state_for_audit(1)
        due = deciders(state)
        if not due or state.turn > TURNS:
            break
        player = sorted(due)[0]
        if (player == "A" and late is None and state.turn == 2 and state.phase is Phase.MOVEMENT
                and state.activation is None and state.pending is None):
            mark = state.log_position
            await ann_is_late(bot)
            moved = [e.ship for _, _, e in await service.store.repo.events(1, mark + 1) if isinstance(e, ev.ShipMoved)]
            late = (state.turn, moved[0])
            assert moved[0] in {s.id for s in state.ships_of("A")}
            present = None
            continue
        if player == "A" and state.phase is not Phase.SETUP:
            # Ann answers only when pinged: the newest board names her
            board = [r for r in fake.channel_messages() if r.files][-1]
            assert f"<@{ANN[0]}>" in board.content
        if present != player and state.turn >= 1 and state.phase is not Phase.SETUP:
            wakes[player] += 1
        await act_as(bot, fake, USERS[player], Captain(player, n).act(state), state)
        if player == "B" and deciders(await service.reading.state_for_audit(1)):
            await give_orders(bot, fake)
        present = player if deciders(await service.reading.state_for_audit(1)) == {player} else None
    assert late is not None and late[0] == 2  # the computer captain moved one of Ann's ships
    # Bob is woken for his pick and at most once more a turn; his orders answer the rest at once, so
    # Ann, whose turn comes straight back, stays at the screen too
    assert 0 < wakes["B"] <= 2 * TURNS and wakes["A"] >= TURNS, wakes
    dm = set(fake.dm_channels.values())
    public = "\n".join(t for r, t in ((r, r.content) for r in fake.requests)
                       if (r.in_channel and r.path.split("/")[4] not in dm)
                       or (r.path.startswith("/api/v10/webhooks/") and not r.ephemeral))
    assert "⌛ Player A's deadline has passed: the computer captain plays the late activation" in public
    # what Bob's orders did is told to Bob alone
    told = dms_to(fake, BOB)
    assert sum("as ordered" in t for t in told) >= TURNS and any("judged best" in t for t in told)
    assert not any("refused" in t for t in told), told
    assert all("nothing to fire at" in t for t in dms_to(fake, ANN) if t.startswith("🗒️"))
    assert "as ordered" not in public and "judged best" not in public
    # every change of the clock is in the game's log, in order, and the account says it
    changes = [e for _, _, e in await service.store.repo.events(1) if isinstance(e, ev.ClockChanged)]
    assert [(e.change, e.by) for e in changes] == [("settings", str(EVE[0])), ("deadline", "")]
    assert changes[1].detail == "Player A's deadline has passed: the computer captain plays the late activation"
    assert (await service.audit.check(1)).ok
    assert str(CHANNEL_ID)  # every post above went to the game's own channel


async def test_reminders_escalate_reach_a_stand_in_and_stop_when_paused(harness: Any) -> None:
    from game.service.game_service import Actor as ServiceActor
    from tests.bot.fake_discord import GUILD_ID

    bot, fake = harness
    await setup_game(bot, fake)
    await dispatch(bot, command(EVE, "clock", "settings", reminder_hours=6, deadline_hours=24, **GM), fake)
    bob = ServiceActor(str(BOB[0]), str(GUILD_ID))
    await bot.service.clock.set_away(bob, utcnow() + timedelta(days=1), "substitute", str(EVE[0]))
    mark = len(fake.requests)
    handlers = {"deadline": bot._deadline, "reminder": bot._remind}
    assert await run_due(bot.service.store.repo, handlers, now=utcnow() + timedelta(hours=23, minutes=30)) >= 3
    posts = [r.content for r in fake.requests[mark:] if r.in_channel]
    to_eve = [p for p in posts if f"<@{EVE[0]}>: you stand in for player B" in p]
    assert [p.split(",")[0] for p in to_eve] == [
        "⏰ Reminder: the game is waiting for you",
        "⏰ Second reminder: half the time to the deadline has gone; the game is waiting for you",
        "⏰ Last reminder: the deadline is about an hour away; the game is waiting for you"]
    # Bob is away: his stand-in is pinged (the board his vacation posted still names whom the game waits for)
    assert not any(f"<@{BOB[0]}>" in p for p in posts if "reminder" in p.lower())
    # the GM pauses the game: nothing more falls due, and the log holds every change of the clock
    sent = await dispatch(bot, command(EVE, "clock", "pause", **GM), fake)
    assert "⏱️ Clock (paused" in last_followup(sent).content
    mark = len(fake.requests)
    assert await run_due(bot.service.store.repo, handlers, now=utcnow() + timedelta(days=30)) == 0
    assert not [r for r in fake.requests[mark:] if r.in_channel]
    changes = [e.change for _, _, e in await bot.service.store.repo.events(1) if isinstance(e, ev.ClockChanged)]
    assert changes == ["settings", "away", "paused"]
