"""Issue 14, item 6, done when: an 8-player Swiss league of computer captains runs to final standings,
through the bot. Every message it sends goes through the fake Discord, which refuses what Discord
would (content over 2,000 characters, thread names over 100 …)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from game.model import Phase
from game.scenario import builtin_scenarios
from tests.bot.fake_discord import CHANNEL_ID, GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, last_followup

GM = 1 << 5  # Manage Server
SHORT = builtin_scenarios()["quickstart"].replace('defender = "B"', 'defender = "B"\nlast_turn = 1').encode()


async def test_an_eight_player_swiss_league_of_computer_captains_to_final_standings(harness: Any) -> None:
    bot, fake = harness
    upload = fake.attach("short.toml", SHORT)
    sent = await dispatch(bot, command(ANN, "league", "create", permissions=GM, attachments={"file": upload},
                                       name="Autumn Cup", scenario="one-turn", auto_close=False), fake)
    assert "announced here" in last_followup(sent).content and last_followup(sent).ephemeral
    [told] = [r for r in sent if r.in_channel]
    assert "open for registration" in told.content and not told.ephemeral
    for _ in range(8):
        sent = await dispatch(bot, command(ANN, "league", "join", permissions=GM, name="Autumn Cup", ai=True), fake)
        assert "is registered" in last_followup(sent).content
    sent = await dispatch(bot, command(BOB, "league", "start", name="Autumn Cup"), fake)
    assert "Only a GM may start a league" in last_followup(sent).content

    sent = await dispatch(bot, command(ANN, "league", "start", permissions=GM, name="Autumn Cup"), fake, settle=30)
    assert "Round 1 is under way" in last_followup(sent).content
    assert len(fake.threads()) == 4  # a thread per pairing
    posted = [r.content for r in sent if r.in_channel and r.path.endswith(f"/{CHANNEL_ID}/messages")]
    assert any("round 1 of 3" in p for p in posted), posted
    for _ in range(3):  # close rounds 1, 2 and 3 (the computer captains played each out)
        sent = await dispatch(bot, command(ANN, "league", "round", permissions=GM, name="Autumn Cup"), fake, settle=30)
        assert last_followup(sent).content.startswith("✅"), last_followup(sent).content
    assert "The league is over" in last_followup(sent).content
    assert len(fake.threads()) == 12

    final = [r for r in sent if r.in_channel and "Final standings" in r.content]
    assert len(final) == 1 and final[0].files
    image = Image.open(io.BytesIO(final[0].files[0][1]))
    assert image.format == "PNG" and image.size[0] == 800

    leagues = bot.service.leagues
    table = await leagues.standings(str(GUILD_ID), "Autumn Cup")
    assert table.final and [r.rank for r in table.rows] == list(range(1, 9))
    assert table.rows[0].wins == 3 and sum(r.wins for r in table.rows) == 12
    lines = final[0].content.splitlines()[1:]
    assert [line.split(". ", 1)[1].split(":")[0] for line in lines] == [r.name for r in table.rows]
    # every game was a real game played to its end, and each result is its game's
    for round_no in (1, 2, 3):
        for p in [r for r in await leagues._all_rows(await leagues._league(str(GUILD_ID), "Autumn Cup"))
                  if r.round == round_no]:
            state = await bot.service.reading.state_for_audit(p.game_id or 0)
            assert state.phase is Phase.OVER and p.reason == state.result
            assert p.winner == (p.a_member if state.winner == "A" else p.b_member)

    sent = await dispatch(bot, command(BOB, "league", "standings", name="Autumn Cup"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "(final)" in answer.content and answer.files
    sent = await dispatch(bot, command(BOB, "league", "show", name="autumn cup"), fake)
    assert "over; 8 entrants" in last_followup(sent).content


async def test_members_play_in_their_thread_and_a_concession_is_recorded(harness: Any) -> None:
    bot, fake = harness
    await dispatch(bot, command(ANN, "league", "create", permissions=GM, name="Duel", format="round_robin",
                                auto_close=False), fake)
    for user in (ANN, BOB):
        await dispatch(bot, command(user, "league", "join", name="Duel"), fake)
    sent = await dispatch(bot, command(ANN, "league", "start", permissions=GM, name="Duel"), fake, settle=30)
    (thread,) = fake.threads()
    pairings = next(r for r in sent if r.in_channel and "round 1 of 1" in r.content)
    assert f"<@{ANN[0]}>" in pairings.content and f"<#{thread['id']}>" in pairings.content
    assert sorted(map(int, pairings.payload["allowed_mentions"]["users"])) == [ANN[0], BOB[0]]
    in_thread = [r for r in sent if r.in_channel and thread["id"] in r.path]
    assert any("ranked league game" in r.content for r in in_thread) and any(r.files for r in in_thread)  # the board

    sent = await dispatch(bot, command(BOB, "game", "concede", channel_id=int(thread["id"])), fake)
    assert "Conceded" in last_followup(sent).content
    sent = await dispatch(bot, command(BOB, "league", "show", name="Duel"), fake)
    assert "Ann won" in last_followup(sent).content and "concedes" in last_followup(sent).content
    sent = await dispatch(bot, command(ANN, "league", "round", permissions=GM, name="Duel"), fake, settle=30)
    final = next(r for r in sent if r.in_channel and "Final standings" in r.content)
    assert final.content.splitlines()[1].startswith("1. Ann: 1 of 1 won")


async def test_a_gm_drops_an_entrant_and_forfeits_a_table_through_the_bot(harness: Any) -> None:
    """/league drop (the entrant picked from autocomplete) and /league forfeit: both answered privately,
    the members concerned told by DM, and the standings showing the drop and the forfeits."""
    from tests.bot.fake_discord import _base

    bot, fake = harness
    gail, cy, dee = (999999999999999901, "Gail"), (444444444444444401, "Cy"), (444444444444444402, "Dee")
    await dispatch(bot, command(gail, "league", "create", permissions=GM, name="Club", scenario="one-turn",
                                attachments={"file": fake.attach("short.toml", SHORT)}), fake)
    for user in (ANN, BOB, cy, dee):
        await dispatch(bot, command(user, "league", "join", name="Club"), fake)
    await dispatch(bot, command(gail, "league", "start", permissions=GM, name="Club"), fake, settle=30)

    data = {"id": "1", "name": "league", "type": 1, "guild_id": str(GUILD_ID), "options": [
        {"name": "drop", "type": 1, "options": [{"name": "name", "type": 3, "value": "Club"},
                                                 {"name": "entrant", "type": 3, "value": "b", "focused": True}]}]}
    sent = await dispatch(bot, _base(gail, CHANNEL_ID, 4, data, permissions=GM), fake)
    offered = next(r.payload["data"]["choices"] for r in sent if r.payload.get("type") == 8)
    assert offered == [{"name": "Bob", "value": str(BOB[0])}]

    sent = await dispatch(bot, command(gail, "league", "drop", permissions=GM, name="Club", entrant=str(BOB[0]),
                                       note="moved away"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and answer.content.startswith("✅ Bob is dropped from Club"), answer.content
    dms = [r.content for r in sent if r.in_channel and r.path.split("/")[4] in fake.dm_channels.values()]
    assert dms == ["🏆 A GM dropped you from Club: moved away. Your results so far stay in the standings; you are "
                   "not paired again."]

    info = await bot.service.leagues.show(str(GUILD_ID), "Club")
    other = next(p for p in info.pairings if str(BOB[0]) not in (p.a, p.b))
    sent = await dispatch(bot, command(gail, "league", "forfeit", permissions=GM, name="Club", table=other.table,
                                       side="both", note="double no-show"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and "both forfeit" in answer.content and "double no-show" in answer.content
    assert len([r for r in sent if r.in_channel and r.path.split("/")[4] in fake.dm_channels.values()]) == 2

    sent = await dispatch(bot, command(BOB, "league", "show", name="Club"), fake)
    assert "Bob, rating" in last_followup(sent).content and "(dropped)" in last_followup(sent).content
    sent = await dispatch(bot, command(BOB, "league", "standings", name="Club"), fake)
    lines = last_followup(sent).content
    assert "Bob (dropped): 0 of 1 won (1 forfeited)" in lines, lines
    assert lines.count("(1 forfeited)") == 3, lines  # Bob, and both of the other table

    # a GM may name the entrant by a mention: the bot reads it as the member's id (the service takes ids)
    sent = await dispatch(bot, command(gail, "league", "drop", permissions=GM, name="Club", entrant=f"<@!{cy[0]}>"),
                          fake)
    assert last_followup(sent).content.startswith("✅ Cy is dropped from Club"), last_followup(sent).content
