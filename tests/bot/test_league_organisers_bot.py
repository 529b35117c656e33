"""Organisers' tools through the bot (issue 27, item 4, part 1): a round that closes by itself when its
last game ends (posted by the courier in the league's channel), late entry, the league's settings, its
action log and the standings as CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, last_followup
from tests.bot.test_league_bot import GM, SHORT

CY = (444444444444444401, "=HYPERLINK(\"http://x\")")  # a member whose name a spreadsheet would run


def _channel_posts(sent: list[Any]) -> list[str]:
    return [r.content for r in sent if r.in_channel and r.path.endswith(f"/channels/{CHANNEL_ID}/messages")]


def _dms(fake: Any, sent: list[Any]) -> list[str]:
    return [r.content for r in sent if r.in_channel and r.path.split("/")[4] in fake.dm_channels.values()]


async def _open(bot: Any, fake: Any, name: str, *extra: tuple[int, str], **options: Any) -> None:
    await dispatch(bot, command(ANN, "league", "create", permissions=GM, name=name, scenario="one-turn",
                                attachments={"file": fake.attach("short.toml", SHORT)}, **options), fake)
    for user in (ANN, BOB, *extra):
        await dispatch(bot, command(user, "league", "join", name=name), fake)


async def test_the_last_game_ending_closes_the_round_and_the_courier_posts_the_next(harness: Any) -> None:
    bot, fake = harness
    await _open(bot, fake, "Auto")
    for _ in range(2):
        await dispatch(bot, command(ANN, "league", "join", permissions=GM, name="Auto", ai=True), fake)
    await dispatch(bot, command(ANN, "league", "start", permissions=GM, name="Auto"), fake, settle=30)
    info = await bot.service.leagues.show(str(GUILD_ID), "Auto")
    (humans,) = [p for p in info.pairings if p.status != "done"]  # the computer captains' game is played out
    assert info.current_round == 1 and len(fake.threads()) == 2
    sent = await dispatch(bot, command(BOB, "game", "concede", channel_id=int(humans.thread_id or 0)), fake,
                          settle=30)
    assert "Conceded" in last_followup(sent).content
    await bot.courier.drain_all()  # whatever the concession's own drain left (the round's games' boards)
    info = await bot.service.leagues.show(str(GUILD_ID), "Auto")
    assert info.current_round == 2 and all(p.status != "pending" for p in info.pairings)
    posts = _channel_posts(fake.requests)
    closed = [p for p in posts if "results of round 1" in p]
    assert len(closed) == 1 and "closed by itself" in closed[0]
    assert len([p for p in posts if "round 2 of 2" in p]) == 1
    assert any("standings" in p for p in posts)
    assert len(fake.threads()) == 4  # round 2's games, each in its thread of the league's channel
    sent = await dispatch(bot, command(BOB, "league", "log", name="Auto"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "automatic, **round**: round 1 closed; round 2 of 2 paired" in answer.content
    assert f"<@{ANN[0]}>, **start**" in answer.content and answer.payload["allowed_mentions"]["parse"] == []


async def test_a_gm_enters_a_member_late_who_is_told_by_dm(harness: Any) -> None:
    bot, fake = harness
    await _open(bot, fake, "Late", (555555555555555501, "Dee"), (555555555555555502, "Fay"), auto_close=False)
    await dispatch(bot, command(ANN, "league", "start", permissions=GM, name="Late"), fake, settle=30)
    sent = await dispatch(bot, command(BOB, "league", "late-entry", name="Late", members={"member": CY}), fake)
    assert "Only a GM may enter a member late" in last_followup(sent).content and last_followup(sent).ephemeral
    sent = await dispatch(bot, command(ANN, "league", "late-entry", permissions=GM, name="Late",
                                       members={"member": CY}), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "is entered in Late: paired from round 2; round 1 counts nothing" in answer.content
    assert _dms(fake, sent) == ["🏆 A GM entered you late in Late: you are paired from round 2, and round 1 counts "
                                "nothing for you (no win, no loss)."]
    sent = await dispatch(bot, command(ANN, "league", "late-entry", permissions=GM, name="Late"), fake)
    assert "Name the member to enter" in last_followup(sent).content
    sent = await dispatch(bot, command(ANN, "league", "late-entry", permissions=GM, name="Late", ai=True,
                                       members={"member": BOB}), fake)
    assert "a member or a computer captain, not both" in last_followup(sent).content

    # the standings as CSV: the name a spreadsheet would run is written as text
    sent = await dispatch(bot, command(BOB, "league", "standings", name="Late", format="csv"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and answer.files and answer.files[0][0] == "late-standings.csv"
    rows = list(csv.reader(io.StringIO(answer.files[0][1].decode("utf-8-sig"))))
    assert rows[0][:3] == ["rank", "name", "wins"] and len(rows) == 6
    assert "'" + CY[1] in [r[1] for r in rows]


async def test_settings_are_shown_changed_only_by_a_gm_and_logged(harness: Any) -> None:
    bot, fake = harness
    await _open(bot, fake, "Set", deadline_hours=30)
    sent = await dispatch(bot, command(BOB, "league", "show", name="Set"), fake)
    assert "a round closes by itself when its last game ends; games' clock: deadline after 30 h" in \
        last_followup(sent).content
    sent = await dispatch(bot, command(BOB, "league", "settings", name="Set", auto_close=False), fake)
    assert "Only a GM may change a league's settings" in last_followup(sent).content
    sent = await dispatch(bot, command(ANN, "league", "settings", permissions=GM, name="Set", auto_close=False,
                                       on_deadline="captain"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "a GM closes each round with /league round" in answer.content
    assert "the computer captain plays the late activation" in answer.content
    sent = await dispatch(bot, command(BOB, "league", "log", name="Set", page=2), fake)
    assert "There is no page 2: 2 actions" in last_followup(sent).content
    sent = await dispatch(bot, command(BOB, "league", "log", name="Set"), fake)
    assert ("**settings**: rounds close by themselves: yes → no; at the deadline: the server's → captain"
            in last_followup(sent).content)
