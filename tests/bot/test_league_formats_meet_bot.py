"""The organisers' tools with a top cut and teams, through the bot over the fake Discord: a top cut
whose rounds close by themselves to a post naming its champion, and a team league's standings as CSV
with both members and the cut's columns (docs/leagues.md, "The organisers' tools in a top cut and a
team league")."""

from __future__ import annotations

import csv
import io
from typing import Any

from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup
from tests.bot.test_league_bot import GM, SHORT
from tests.bot.test_league_formats_bot import SHORT_FLEET


def _channel_posts(requests: list[Any]) -> list[Any]:
    return [r for r in requests if r.in_channel and r.path.endswith(f"/channels/{CHANNEL_ID}/messages")]


async def test_a_top_cut_closes_its_rounds_by_itself_and_the_last_post_names_the_champion(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "league", "create", permissions=GM, attachments={
        "file": fake.attach("short.toml", SHORT)}, name="Cup", scenario="one-turn", top_cut=2), fake)
    for _ in range(4):
        await dispatch(bot, command(ANN, "league", "join", permissions=GM, name="Cup", ai=True), fake)
    # the computer captains play each round out at once: every round closes by itself, the courier
    # making the next one's games, through the bracket to its final
    await dispatch(bot, command(ANN, "league", "start", permissions=GM, name="Cup"), fake, settle=30)
    for _ in range(6):
        await bot.courier.drain_all()
    info = await bot.service.leagues.show(str(GUILD_ID), "Cup")
    table = await bot.service.leagues.standings(str(GUILD_ID), "Cup")
    assert info.status == "over" and table.champion is not None
    champion = next(e.name for e in info.entrants if e.member == table.champion)
    posts = _channel_posts(fake.requests)
    closed = [p.content for p in posts if "results of round" in p.content]
    assert len(closed) == 3 and all("closed by itself" in c for c in closed)
    final_round = next(p.content for p in posts if "round 3 of 3" in p.content)
    assert "the top cut's final" in final_round
    (final,) = [p for p in posts if "Final standings" in p.content]
    assert final.content.startswith(f"🏆 **Cup** is over: **{champion}** won the final. Final standings:")
    assert f"👑 Champion: {champion}" in final.content and final.files
    assert final.payload.get("allowed_mentions", {}).get("parse") == []
    assert len(fake.threads()) == 2 + 2 + 1  # two Swiss rounds of two games, and the final
    sent = await dispatch(bot, command(BOB, "league", "log", name="Cup"), fake)
    assert "automatic, **seeding**: the top cut of 2 seeded from the standings: 1. " in last_followup(sent).content


async def test_a_team_leagues_csv_names_both_members_and_its_top_cut_columns(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(EVE, "league", "create", permissions=GM, attachments={
        "file": fake.attach("fleet.toml", SHORT_FLEET)}, name="Pairs", scenario="one-turn fleet", teams=True,
        top_cut=2, auto_close=False), fake)
    await dispatch(bot, command(ANN, "league", "join", members={"partner": BOB}, name="Pairs", team="=Red"), fake)
    await dispatch(bot, command(BOB, "league", "join", name="Pairs", team="=Red"), fake)
    for _ in range(3):
        await dispatch(bot, command(EVE, "league", "join", permissions=GM, name="Pairs", ai=True), fake)
    sent = await dispatch(bot, command(EVE, "league", "late-entry", permissions=GM, name="Pairs", ai=True), fake)
    assert "Pairs has not started" in last_followup(sent).content
    await dispatch(bot, command(EVE, "league", "start", permissions=GM, name="Pairs"), fake, settle=30)
    sent = await dispatch(bot, command(EVE, "league", "late-entry", permissions=GM, name="Pairs", ai=True), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "Pairs is a team league" in answer.content and "next league" in answer.content

    sent = await dispatch(bot, command(ANN, "league", "standings", name="Pairs", format="csv"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and answer.files
    rows = list(csv.reader(io.StringIO(answer.files[0][1].decode("utf-8-sig"))))
    assert rows[0] == ["rank", "name", "member_1", "member_2", "wins", "draws", "losses", "forfeits", "sp_margin",
                       "opponents_wins", "rating", "dropped", "seed", "top_cut"]
    red = next(r for r in rows[1:] if r[1] == "'=Red")  # a name a spreadsheet would run, written as text
    assert red[2:4] == [f"member {ANN[0]}", BOB[1]] and red[-2:] == ["", ""]  # not seeded yet
    computers = [r for r in rows[1:] if r[1].startswith("Computer captains")]
    assert sorted(r[2:4] for r in computers) == [["Computer captain 1", "Computer captain 2"],
                                           ["Computer captain 3", "Computer captain 4"],
                                           ["Computer captain 5", "Computer captain 6"]]
