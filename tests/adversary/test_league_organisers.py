"""The organisers' tools against members who try what is not theirs (issue 27, item 4, part 1): every
organiser command by a member who is not a GM, a GM at their own table, two GMs at once, a late entry
racing the close of a round, and notes written to ping or to look like markup."""

from __future__ import annotations

import asyncio

from game.service.game_service import Actor
from tests.adversary.eyes import (
    ANN,
    BOB,
    EVE,
    GM_ROLE,
    GUS,
    MANAGE_GUILD,
    Table,
    answer_text,
    gm_role_command,
)
from tests.bot.fake_discord import GUILD_ID
from tests.bot.test_league_bot import SHORT

DEE = (888888888888888801, "Dee")  # a member who is not in the league yet
FAY = (888888888888888802, "Fay")


async def _league(t: Table, name: str, **options: object) -> None:
    """Gus (the server's GM role) runs it; Ann, Bob, Eve and a computer captain play."""
    await t.send(ANN, gm_role_command(ANN, GM_ROLE, permissions=MANAGE_GUILD))
    await t.cmd(GUS, "league", "create", name=name, scenario="one-turn",
                attachments={"file": t.fake.attach("short.toml", SHORT)}, **options)
    for user in (ANN, BOB, EVE):
        await t.cmd(user, "league", "join", name=name)
    await t.cmd(GUS, "league", "join", name=name, ai=True)
    assert "Round 1 is under way" in answer_text(await t.cmd(GUS, "league", "start", name=name, settle=30))


async def _actions(t: Table) -> list[tuple[str, str]]:
    page = await t.service.leagues.action_log(str(GUILD_ID), "Cup", 1, per_page=100)
    return [(line.action.actor, line.action.action) for line in page.lines]


async def test_no_organiser_command_works_for_a_member_who_is_not_a_gm(table: Table) -> None:
    t = table
    await _league(t, "Cup")
    before = await _actions(t)
    settings = (await t.service.leagues.show(str(GUILD_ID), "Cup")).settings
    mark = t.mark()
    for user in (EVE, BOB):
        for sub, values in (("late-entry", {"members": {"member": DEE}}), ("late-entry", {"ai": True}),
                            ("settings", {"auto_close": False}), ("settings", {"deadline_hours": 1}),
                            ("settings", {"server_clock": True})):
            answer = await t.cmd(user, "league", sub, name="Cup", **values)
            assert answer.ephemeral and answer_text(answer).startswith("❌ Only a GM may"), answer_text(answer)
    assert await _actions(t) == before and (await t.service.leagues.show(str(GUILD_ID), "Cup")).settings == settings
    assert t.dms_to(DEE, mark) == []
    assert len((await t.service.leagues.show(str(GUILD_ID), "Cup")).entrants) == 4
    # anyone may read the log, and asking about another server's league reveals nothing
    assert "**start**" in answer_text(await t.cmd(EVE, "league", "log", name="Cup"))
    await t.service.leagues.create(Actor("42", "999", gm=True), "1", "Hidden Cup")  # another server's
    for sub in ("log", "late-entry"):
        answer = answer_text(await t.cmd(GUS, "league", sub, name="Hidden Cup", members={"member": DEE}))
        assert "This server has no league called 'Hidden Cup'" in answer, answer


async def test_a_gm_at_their_own_table_has_a_players_rights_and_nothing_is_logged(table: Table) -> None:
    t = table
    await _league(t, "Cup")
    info = await t.service.leagues.show(str(GUILD_ID), "Cup")
    (own,) = [p for p in info.pairings if str(ANN[0]) in (p.a, p.b)]
    before = await _actions(t)
    for sub, values in (("result", {"winner": "A"}), ("forfeit", {"side": "B"})):
        answer = answer_text(await t.cmd(ANN, "league", sub, permissions=MANAGE_GUILD, name="Cup", table=own.table,
                                         **values))
        assert "You play at that table" in answer, answer
    assert await _actions(t) == before


async def test_two_gms_entering_one_member_at_once_enter_them_once(table: Table) -> None:
    t = table
    await _league(t, "Cup", auto_close=False)
    mark = t.mark()
    answers = await asyncio.gather(
        t.cmd(GUS, "league", "late-entry", name="Cup", members={"member": DEE}),
        t.cmd(ANN, "league", "late-entry", permissions=MANAGE_GUILD, name="Cup", members={"member": DEE}))
    texts = [answer_text(a) for a in answers]
    assert sorted("entered" if "is entered in Cup" in x else "refused" if "is already in Cup" in x else x
                  for x in texts) == ["entered", "refused"], texts
    assert len(t.dms_to(DEE, mark)) == 1
    assert [a for a in await _actions(t) if a[1] == "late-entry"] != [] and \
        len([a for a in await _actions(t) if a[1] == "late-entry"]) == 1
    # and two GMs changing the settings at once: both are logged, the league holds the later one
    await asyncio.gather(t.cmd(GUS, "league", "settings", name="Cup", deadline_hours=10),
                         t.cmd(ANN, "league", "settings", permissions=MANAGE_GUILD, name="Cup", deadline_hours=20))
    page = await t.service.leagues.action_log(str(GUILD_ID), "Cup", 1, per_page=2)
    assert [line.action.action for line in page.lines] == ["settings", "settings"]
    newest = page.lines[0].action.note
    assert (await t.service.leagues.show(str(GUILD_ID), "Cup")).settings.deadline_hours == int(newest.split()[-1])


async def test_a_late_entry_racing_the_rounds_last_game_is_paired_in_the_round_it_was_told(table: Table) -> None:
    t = table
    await _league(t, "Cup")
    info = await t.service.leagues.show(str(GUILD_ID), "Cup")
    live = sorted((p for p in info.pairings if p.status != "done"), key=lambda p: p.table)
    for p in live[:-1]:  # all but the last game end
        await t.service.commands.concede(_actor(p.a), p.game_id or 0)
    last = live[-1]
    mark = t.mark()
    entered, _ = await asyncio.gather(
        t.cmd(GUS, "league", "late-entry", name="Cup", members={"member": FAY}, settle=30),
        t.cmd(_user(last.a), "game", "concede", channel_id=int(last.thread_id or 0), settle=30))
    await t.bot.courier.drain_all()
    info = await t.service.leagues.show(str(GUILD_ID), "Cup")
    assert info.current_round == 2
    told = answer_text(entered)
    in_round_2 = any(str(FAY[0]) in (p.a, p.b) for p in info.pairings)
    assert ("paired from round 2" in told) == in_round_2 and ("paired from round 3" in told or in_round_2), told
    assert len(t.dms_to(FAY, mark)) == 1  # told of the entry once


async def test_a_gms_note_is_shown_in_the_log_as_text_and_pings_nobody(table: Table) -> None:
    t = table
    await _league(t, "Cup", auto_close=False)
    info = await t.service.leagues.show(str(GUILD_ID), "Cup")
    (other,) = [p for p in info.pairings if str(ANN[0]) not in (p.a, p.b) and p.status != "done"] or [
        p for p in info.pairings if p.status != "done"]
    await t.cmd(GUS, "league", "forfeit", name="Cup", table=other.table, side="A",
                note=f"@everyone <@{BOB[0]}> **bold** ||spoiler||")
    answer = await t.cmd(EVE, "league", "log", name="Cup")
    assert answer.payload["allowed_mentions"] == {"parse": []}
    text = answer_text(answer)
    assert "**forfeit**" in text and "\\@everyone" in text  # escaped: shown as typed, never a mention
    assert f"<@{BOB[0]}>" not in text and "||spoiler||" not in text


def _actor(member: str) -> Actor:
    return Actor(member, str(GUILD_ID))


def _user(member: str) -> tuple[int, str]:
    return next(u for u in (ANN, BOB, EVE) if str(u[0]) == member)
