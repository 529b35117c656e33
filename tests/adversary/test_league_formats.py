"""The adversary against a top cut and a team league: members who try to join a team that is not
theirs, hijack a partner, name themselves, ping with a team's name, act for a teammate's squadron or
the other team's, and decide a bracket match without being a GM."""

from __future__ import annotations

from game.scenario import builtin_scenarios
from tests.adversary.eyes import ANN, BOB, EVE, GUS, MANAGE_GUILD, Table, answer_text, assert_no_pings
from tests.bot.fake_discord import GUILD_ID

UNEXPECTED = "Something went wrong on my side"
SHORT_FLEET = builtin_scenarios()["fleet_battle"].replace(
    'defender = "Crown"', 'defender = "Crown"\nlast_turn = 1').encode()
GUILD = str(GUILD_ID)
SHORT = builtin_scenarios()["quickstart"].replace('defender = "B"', 'defender = "B"\nlast_turn = 1').encode()


def refused(text: str) -> None:
    assert text.startswith("❌") and UNEXPECTED not in text and len(text) <= 2000, text[:300]


async def team_league(t: Table) -> None:
    upload = t.fake.attach("fleet.toml", SHORT_FLEET)
    a = answer_text(await t.cmd(GUS, "league", "create", permissions=MANAGE_GUILD, name="Pairs", teams=True,
                                scenario="fleet", attachments={"file": upload}))
    assert "announced here" in a, a


async def test_nobody_joins_or_hijacks_a_team_that_is_not_theirs(table: Table) -> None:
    t = table
    await team_league(t)
    mark = t.mark()
    a = answer_text(await t.cmd(ANN, "league", "join", name="Pairs", team="Red", members={"partner": BOB}))
    assert "who must join it" in a, a
    # Eve, not the partner named, tries the team's name: refused, and told nothing of who is in it
    a = answer_text(await t.cmd(EVE, "league", "join", name="Pairs", team="red"))
    refused(a)
    assert str(BOB[0]) not in a and "Bob" not in a
    # Eve names Bob too (a nuisance DM at most): it binds him to nothing
    a = answer_text(await t.cmd(EVE, "league", "join", name="Pairs", team="Squatters", members={"partner": BOB}))
    assert "who must join it" in a, a
    # nor can she DM him over and over by registering the same team again
    told = len(t.dms_to(BOB))
    a = answer_text(await t.cmd(EVE, "league", "join", name="Pairs", team="Squatters", members={"partner": BOB}))
    assert "they were told when you named them" in a and len(t.dms_to(BOB)) == told == 2, (a, told)
    a = answer_text(await t.cmd(BOB, "league", "join", name="Pairs", team="Red"))
    assert a.startswith("✅ You joined team Red"), a
    refused(answer_text(await t.cmd(BOB, "league", "join", name="Pairs", team="Squatters")))
    # naming oneself, a member already in a complete team, or entering computer captains without GM rights
    refused(answer_text(await t.cmd(EVE, "league", "join", name="Pairs", team="Me", members={"partner": EVE})))
    refused(answer_text(await t.cmd(EVE, "league", "join", name="Pairs", team="Me", members={"partner": ANN})))
    refused(answer_text(await t.cmd(EVE, "league", "join", name="Pairs", ai=True)))
    refused(answer_text(await t.cmd(EVE, "league", "join", name="Pairs")))  # a team league needs a team
    # a team or partner in a league of single players is refused, not ignored
    await t.cmd(GUS, "league", "create", permissions=MANAGE_GUILD, name="Singles")
    refused(answer_text(await t.cmd(EVE, "league", "join", name="Singles", team="X", members={"partner": ANN})))
    # a hostile team name is shown as text and pings nobody
    a = answer_text(await t.cmd(EVE, "league", "join", name="Pairs", team="@everyone <@&555555555555555555>",
                                members={"partner": GUS}))
    assert "who must join it" in a, a
    shown = answer_text(await t.cmd(EVE, "league", "show", name="Pairs"))
    assert UNEXPECTED not in shown and "Red" in shown
    assert_no_pings(t.fake, mark)


async def test_in_a_team_game_nobody_acts_for_a_squadron_not_their_own(table: Table) -> None:
    t = table
    await team_league(t)
    await t.cmd(ANN, "league", "join", name="Pairs", team="Red", members={"partner": BOB})
    await t.cmd(BOB, "league", "join", name="Pairs", team="Red")
    await t.cmd(GUS, "league", "join", name="Pairs", ai=True, permissions=MANAGE_GUILD)
    a = answer_text(await t.cmd(GUS, "league", "start", name="Pairs", permissions=MANAGE_GUILD, settle=30))
    assert "under way" in a, a
    (p,) = (await t.service.leagues.show(GUILD, "Pairs")).pairings
    thread = int(p.thread_id or 0)
    ours = ("A1", "A2") if p.a == str(ANN[0]) else ("B1", "B2")
    theirs = ("B1", "B2") if ours[0] == "A1" else ("A1", "A2")
    # Ann hands over her partner's squadron, or her own (a ranked game: only a GM may), or the other team's
    for side in (ours[1], ours[0], theirs[0]):
        refused(answer_text(await t.cmd(ANN, "game", "handover", channel_id=thread, ai=True, side=side)))
    # Eve, in no team, concedes for either side: refused
    refused(answer_text(await t.cmd(EVE, "game", "concede", channel_id=thread)))
    state = await t.state(p.game_id or 0)
    seats = {s.player: s.user_id for s in (await t.service.lobby.info(p.game_id or 0)).seats}
    assert [seats[q] for q in ours] == [str(ANN[0]), str(BOB[0])] and state.result == ""


async def test_a_bracket_match_is_decided_only_by_a_gm_who_does_not_play_in_it(table: Table) -> None:
    t = table
    upload = t.fake.attach("short.toml", SHORT)
    await t.cmd(GUS, "league", "create", permissions=MANAGE_GUILD, name="Cup", scenario="one-turn", top_cut=2,
                attachments={"file": upload})
    for user in (ANN, BOB):
        await t.cmd(user, "league", "join", name="Cup")
    await t.cmd(GUS, "league", "start", name="Cup", permissions=MANAGE_GUILD, settle=30)
    refused(answer_text(await t.cmd(GUS, "league", "round", name="Cup", permissions=MANAGE_GUILD)))  # still played
    await t.cmd(GUS, "league", "forfeit", name="Cup", table=1, side="B", permissions=MANAGE_GUILD)
    a = answer_text(await t.cmd(GUS, "league", "round", name="Cup", permissions=MANAGE_GUILD, settle=30))
    assert "under way" in a, a
    info = await t.service.leagues.show(GUILD, "Cup")
    assert info.stage == "final"
    for sub, extra in (("result", {"winner": "A"}), ("forfeit", {"side": "A"})):
        refused(answer_text(await t.cmd(EVE, "league", sub, name="Cup", table=1, **extra)))
        # Ann holds Manage Server here and plays in the final: a player's rights at her own table
        refused(answer_text(await t.cmd(ANN, "league", sub, name="Cup", table=1, permissions=MANAGE_GUILD, **extra)))
    refused(answer_text(await t.cmd(EVE, "league", "drop", name="Cup", entrant=str(ANN[0]))))
    (final,) = info.pairings
    assert final.status == "playing"
