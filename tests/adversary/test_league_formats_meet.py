"""The adversary where the organisers' tools meet the top cut and team leagues: a member who tries late
entry into a team league or a running bracket, who reads the public action log to learn whom a team
named as partner, and who names a team (or is named partner) so that an organiser's spreadsheet runs it."""

from __future__ import annotations

import csv
import io

from tests.adversary.eyes import ANN, BOB, EVE, GUS, MANAGE_GUILD, Table, answer_text, assert_no_pings
from tests.adversary.test_league_formats import GUILD, SHORT, refused, team_league

MALLORY = (444444444444444404, "+cmd|' /C calc'!A0")  # a display name a spreadsheet would run


async def test_late_entry_cannot_slip_a_member_into_a_team_league_or_a_bracket(table: Table) -> None:
    t = table
    await team_league(t)
    await t.cmd(ANN, "league", "join", name="Pairs", team="Red", members={"partner": BOB})
    await t.cmd(BOB, "league", "join", name="Pairs", team="Red")
    await t.cmd(GUS, "league", "join", name="Pairs", ai=True, permissions=MANAGE_GUILD)
    await t.cmd(GUS, "league", "start", name="Pairs", permissions=MANAGE_GUILD, settle=30)
    mark = t.mark()
    # a player asks for themselves, or for a friend: a GM's command
    a = answer_text(await t.cmd(EVE, "league", "late-entry", name="Pairs", members={"member": EVE}))
    refused(a)
    assert "Only a GM" in a and "Red" not in a and str(ANN[0]) not in a
    # a GM is refused with the reason, and the refusal names nobody in the league
    a = answer_text(await t.cmd(GUS, "league", "late-entry", name="Pairs", members={"member": EVE},
                                permissions=MANAGE_GUILD))
    refused(a)
    assert "team league" in a and "Red" not in a and str(BOB[0]) not in a
    info = await t.service.leagues.show(GUILD, "Pairs")
    assert [e.member for e in info.entrants] == [str(ANN[0]), "ai:1"]  # nobody slipped in

    upload = t.fake.attach("short.toml", SHORT)
    await t.cmd(GUS, "league", "create", permissions=MANAGE_GUILD, name="Cup", scenario="one-turn", top_cut=2,
                auto_close=False, attachments={"file": upload})
    for user in (ANN, BOB):
        await t.cmd(user, "league", "join", name="Cup")
    await t.cmd(GUS, "league", "start", name="Cup", permissions=MANAGE_GUILD, settle=30)
    # two entrants play one Swiss round, then the final: entering in round 1 (the last Swiss round) or
    # during the final is refused; the bracket keeps the two it seeded
    for _ in range(2):
        a = answer_text(await t.cmd(GUS, "league", "late-entry", name="Cup", members={"member": EVE},
                                    permissions=MANAGE_GUILD))
        refused(a)
        assert "played its Swiss rounds" in a, a
        await t.cmd(GUS, "league", "forfeit", name="Cup", table=1, side="B", permissions=MANAGE_GUILD)
        await t.cmd(GUS, "league", "round", name="Cup", permissions=MANAGE_GUILD, settle=30)
    cup = await t.service.leagues.show(GUILD, "Cup")
    assert cup.status == "over" and {e.member for e in cup.entrants} == {str(ANN[0]), str(BOB[0])}
    assert_no_pings(t.fake, mark)


async def test_the_public_log_does_not_say_whom_a_team_named_as_its_partner(table: Table) -> None:
    t = table
    await team_league(t)
    # Ann names Bob, who never joins: being named binds nobody, and the server's log does not out him
    await t.cmd(ANN, "league", "join", name="Pairs", team="Red", members={"partner": BOB})
    log = answer_text(await t.cmd(EVE, "league", "log", name="Pairs"))
    assert "**team**" in log and "Red" in log, log
    assert str(BOB[0]) not in log and "Bob" not in log
    await t.cmd(BOB, "league", "join", name="Pairs", team="Red")  # once he joins, it is his own action
    log = answer_text(await t.cmd(EVE, "league", "log", name="Pairs"))
    assert f"<@{BOB[0]}>, **team-complete**" in log, log


async def test_a_team_league_csv_never_hands_a_spreadsheet_a_formula(table: Table) -> None:
    t = table
    await team_league(t)
    await t.cmd(EVE, "league", "join", name="Pairs", team='=HYPERLINK("http://evil.example","x")',
                members={"partner": MALLORY})
    await t.cmd(MALLORY, "league", "join", name="Pairs", team='=HYPERLINK("http://evil.example","x")')
    await t.cmd(GUS, "league", "join", name="Pairs", ai=True, permissions=MANAGE_GUILD)
    await t.cmd(GUS, "league", "start", name="Pairs", permissions=MANAGE_GUILD, settle=30)
    sent = await t.cmd(ANN, "league", "standings", name="Pairs", format="csv")
    assert sent.files, answer_text(sent)
    rows = list(csv.reader(io.StringIO(sent.files[0][1].decode("utf-8-sig"))))
    cells = [c for r in rows[1:] for c in r[1:4]]
    assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in cells), cells
    assert "'" + MALLORY[1] in cells
