"""Issue 27, item 4 (part 2), through the bot over the fake Discord: a Swiss league's top cut played to
a champion, and a team league whose teams register, confirm and play a 2 vs 2 fleet battle."""

from __future__ import annotations

from typing import Any

from game.scenario import builtin_scenarios
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup
from tests.bot.test_league_bot import GM, SHORT

SHORT_FLEET = builtin_scenarios()["fleet_battle"].replace(
    'defender = "Crown"', 'defender = "Crown"\nlast_turn = 1').encode()
CY = (444444444444444401, "Cy")


def channel_posts(sent: list[Any]) -> list[Any]:
    return [r for r in sent if r.in_channel and r.path.endswith(f"/{CHANNEL_ID}/messages")]


def dms(sent: list[Any], fake: Any) -> list[str]:
    return [r.content for r in sent if r.in_channel and r.path.split("/")[4] in fake.dm_channels.values()]


async def test_a_top_cut_of_four_after_three_swiss_rounds_names_its_champion(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "league", "create", permissions=GM, attachments={
        "file": fake.attach("short.toml", SHORT)}, name="Cup", scenario="one-turn", top_cut=4, auto_close=False), fake)
    for _ in range(8):
        await dispatch(bot, command(ANN, "league", "join", permissions=GM, name="Cup", ai=True), fake)
    sent = await dispatch(bot, command(ANN, "league", "start", permissions=GM, name="Cup"), fake, settle=30)
    assert any("round 1 of 5" in p.content for p in channel_posts(sent))
    for _ in range(3):
        sent = await dispatch(bot, command(ANN, "league", "round", permissions=GM, name="Cup"), fake, settle=30)
    semis = next(p for p in channel_posts(sent) if "round 4 of 5" in p.content)
    assert "the top cut's semi-finals" in semis.content and "fewer Strike Points" in semis.content
    standings = next(p for p in channel_posts(sent) if "standings" in p.content and p.files)
    assert "🏅 Top cut of 4:" in standings.content and "Semi-finals: (1) " in standings.content

    info = await bot.service.leagues.show(str(GUILD_ID), "Cup")
    seeds = {e.seed: e.name for e in info.entrants if e.seed}
    assert [(p.a_name, p.b_name) for p in info.pairings] == [(seeds[1], seeds[4]), (seeds[2], seeds[3])]
    sent = await dispatch(bot, command(EVE, "league", "show", name="Cup"), fake)
    shown = last_followup(sent)
    assert shown.ephemeral and "with a top cut of 4" in shown.content
    # the computer captains played their semi-finals at once: each line says who went on
    semi_line = next(line for line in shown.content.splitlines() if line.startswith("Semi-finals: "))
    assert semi_line.startswith(f"Semi-finals: (1) {seeds[1]} v (4) {seeds[4]} → ")
    assert f"; (2) {seeds[2]} v (3) {seeds[3]} → " in semi_line and semi_line.endswith(" goes on")
    assert f"{seeds[1]}, rating" in shown.content and ", seed 1" in shown.content

    for _ in range(2):  # the semi-finals close into the final, the final into the end
        sent = await dispatch(bot, command(ANN, "league", "round", permissions=GM, name="Cup"), fake, settle=30)
    table = await bot.service.leagues.standings(str(GUILD_ID), "Cup")
    champion = next(e.name for e in info.entrants if e.member == table.champion)
    final = next(p for p in channel_posts(sent) if "Final standings" in p.content)
    assert final.content.startswith(f"🏆 **Cup** is over: **{champion}** won the final. Final standings:")
    assert f"👑 Champion: {champion}" in final.content and "Swiss standings:" in final.content and final.files
    assert final.payload.get("allowed_mentions", {}).get("parse") == []  # the results ping nobody
    assert len(fake.threads()) == 12 + 2 + 1  # every bracket match a game in its own thread


async def test_a_team_registers_its_partner_joins_and_they_play_one_side_of_a_fleet_battle(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(EVE, "league", "create", permissions=GM, attachments={
        "file": fake.attach("fleet.toml", SHORT_FLEET)}, name="Pairs", scenario="one-turn fleet", teams=True, auto_close=False), fake)
    sent = await dispatch(bot, command(ANN, "league", "join", members={"partner": BOB}, name="Pairs", team="Red"),
                          fake)
    answer = last_followup(sent)
    assert answer.ephemeral and f"with <@{BOB[0]}>, who must join it" in answer.content
    assert dms(sent, fake) == ["🏆 Ann registered team Red in Pairs with you as partner. Join it with "
                               "`/league join name: Pairs team: Red`; until you do, it is not paired."]
    sent = await dispatch(bot, command(BOB, "league", "join", name="Pairs", team="Red"), fake)
    assert last_followup(sent).content == "✅ You joined team Red in Pairs: it is complete and will be paired."
    await dispatch(bot, command(EVE, "league", "join", permissions=GM, name="Pairs", ai=True), fake)
    sent = await dispatch(bot, command(EVE, "league", "show", name="Pairs"), fake)
    assert f"• Red (<@{ANN[0]}> & <@{BOB[0]}>)" in last_followup(sent).content
    assert "teams of two" in last_followup(sent).content

    sent = await dispatch(bot, command(EVE, "league", "start", permissions=GM, name="Pairs"), fake, settle=30)
    (thread,) = fake.threads()
    pairing = next(p for p in channel_posts(sent) if "round 1 of 1" in p.content)
    assert f"**Red** (<@{ANN[0]}> & <@{BOB[0]}>)" in pairing.content
    assert sorted(map(int, pairing.payload["allowed_mentions"]["users"])) == [ANN[0], BOB[0]]
    intro = next(r for r in sent if r.in_channel and thread["id"] in r.path and "Round 1, table 1" in r.content)
    assert "Each team fights on one side" in intro.content
    assert sorted(map(int, intro.payload["allowed_mentions"]["users"])) == [ANN[0], BOB[0]]
    (p,) = (await bot.service.leagues.show(str(GUILD_ID), "Pairs")).pairings
    seats = {s.player: s.user_id for s in (await bot.service.lobby.info(p.game_id or 0)).seats}
    ours = ("A1", "A2") if p.a == str(ANN[0]) else ("B1", "B2")
    assert [seats[q] for q in ours] == [str(ANN[0]), str(BOB[0])]

    sent = await dispatch(bot, command(BOB, "game", "concede", channel_id=int(thread["id"])), fake)
    assert "Conceded" in last_followup(sent).content
    sent = await dispatch(bot, command(EVE, "league", "round", permissions=GM, name="Pairs"), fake, settle=30)
    final = next(p for p in channel_posts(sent) if "Final standings" in p.content)
    assert final.content.splitlines()[1].startswith("1. Computer captains 1 & 2: 1 of 1 won")
    assert final.content.splitlines()[2].startswith("2. Red: 0 of 1 won")
