"""Issue 22, findings 8, 9 and 14, property 6: a league against a second GM racing the first, an
entrant who sabotages their own list, members without GM rights reaching for the GM's tools, and
members joining all at once. No single member (nor a second GM) may stall a league or double it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select

from game.scenario import builtin_scenarios
from game.service.models import GameRecord
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
from tests.adversary.sweep import DUTCH
from tests.bot.fake_discord import GUILD_ID

SHORT = builtin_scenarios()["quickstart"].replace('defender = "B"', 'defender = "B"\nlast_turn = 1').encode()
MEMBERS = [(444444444444444400 + i, f"Member {i}") for i in range(8)]
UNEXPECTED = "Something went wrong on my side"


async def _gus_is_a_gm(t: Table) -> None:
    await t.send(ANN, gm_role_command(ANN, GM_ROLE, permissions=MANAGE_GUILD))


async def _games(t: Table) -> int:
    async with t.service.store.repo.session() as s:
        return int((await s.execute(select(func.count()).select_from(GameRecord))).scalar_one())


async def test_a_second_gm_racing_the_first_round_makes_no_second_game(table: Table) -> None:
    """Gus (the GM role) runs /league round while Ann (Manage Server) is still making round 1's games:
    before, Gus made every table still pending and Ann made them again, each member seated twice."""
    t = table
    await _gus_is_a_gm(t)
    await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name="Race", scenario="one turn",
                attachments={"file": t.fake.attach("short.toml", SHORT)})
    for member in MEMBERS:
        assert "is registered" in answer_text(await t.cmd(member, "league", "join", name="Race"))
    racing: list[asyncio.Task[Any]] = []

    def second_gm(sent: Any) -> None:  # as Ann's first thread is asked for, Gus comes in
        if sent.method == "POST" and sent.path.endswith("/threads") and not racing:
            racing.append(asyncio.ensure_future(t.cmd(GUS, "league", "round", name="Race", settle=60)))

    t.fake.listeners.append(second_gm)
    try:
        first = answer_text(await t.cmd(ANN, "league", "start", permissions=MANAGE_GUILD, name="Race", settle=60))
        second = answer_text(await racing[0])
    finally:
        t.fake.listeners.remove(second_gm)
    assert "Round 1 is under way" in first, first
    assert UNEXPECTED not in second and ("Round 1 is under way" in second or "already under way" in second), second
    info = await t.service.leagues.show(str(GUILD_ID), "Race")
    assert [p.status for p in info.pairings] == ["playing"] * 4
    assert len({p.game_id for p in info.pairings}) == 4 and await _games(t) == 4
    assert len(t.fake.threads()) == 4  # nor a thread made for a table that was not this GM's to make
    seated = [u for p in info.pairings for u in [s.user_id for s in (await t.service.lobby.info(p.game_id or 0)).seats]]
    assert sorted(seated) == sorted(str(m) for m, _ in MEMBERS)  # every member in exactly one game


async def test_an_entrant_who_breaks_their_list_forfeits_and_holds_nobody_up(table: Table) -> None:
    """Bob registers his list, then drops its flagship from it. Before, every /league start and round was
    refused until he mended it; now the round goes on, Bob forfeits his table and is told by DM."""
    t = table
    await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name="Spite", scenario="drafted", size="skirmish",
                auto_close=False)
    for user in (ANN, BOB):
        await t.cmd(user, "squadron", "save", attachments={"file": t.fake.attach("a.toml", DUTCH)})
        assert "is registered" in answer_text(await t.cmd(user, "league", "join", name="Spite",
                                                          squadron="Zeeland Admiralty"))
    for _ in range(2):
        await t.cmd(ANN, "league", "join", permissions=MANAGE_GUILD, name="Spite", ai=True)
    answer = answer_text(await t.cmd(BOB, "squadron", "drop", squadron="Zeeland Admiralty", ship="Zeelandia"))
    assert UNEXPECTED not in answer, answer
    mark = t.mark()
    started = answer_text(await t.cmd(ANN, "league", "start", permissions=MANAGE_GUILD, name="Spite", settle=60))
    assert "Round 1 is under way" in started, started
    info = await t.service.leagues.show(str(GUILD_ID), "Spite")
    (bobs,) = [p for p in info.pairings if str(BOB[0]) in (p.a, p.b)]
    assert bobs.status == "done" and bobs.game_id is None and bobs.reason == "forfeit: Bob has no valid list"
    assert bobs.winner == (bobs.b if bobs.a == str(BOB[0]) else bobs.a)
    (dm,) = t.dms_to(BOB, mark)
    assert "You forfeit table" in dm.text and "'Zeeland Admiralty' is no longer a complete skirmish list" in dm.text
    assert not any("You forfeit" in d.text for d in t.dms_to(ANN, mark))
    (other,) = [p for p in info.pairings if p is not bobs]
    assert other.game_id is not None and not other.forfeited  # the other table was made and is played


async def _cup_under_way(t: Table) -> Any:
    """Ann, Bob, Eve and Gus (a GM) in the league "Cup", its first round paired."""
    await _gus_is_a_gm(t)
    await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name="Cup",
                attachments={"file": t.fake.attach("short.toml", SHORT)})
    for user in (ANN, BOB, EVE, GUS):
        await t.cmd(user, "league", "join", name="Cup")
    assert "under way" in answer_text(await t.cmd(ANN, "league", "start", permissions=MANAGE_GUILD, name="Cup"))
    return await t.service.leagues.show(str(GUILD_ID), "Cup")


async def test_a_gms_forfeit_note_is_shown_as_text(table: Table) -> None:
    """The note a GM gives with a forfeit is shown with the round's results: as text, never a link."""
    t = table
    before = await _cup_under_way(t)
    bobs = next(p for p in before.pairings if str(BOB[0]) in (p.a, p.b))
    note = "[Free Nitro](https://t.ly/x)"
    await t.cmd(GUS, "league", "forfeit", name="Cup", table=bobs.table, side="A" if bobs.a == str(BOB[0]) else "B",
                note=note)
    shown = answer_text(await t.cmd(EVE, "league", "show", name="Cup"))
    assert "Free Nitro" in shown and note not in shown and "https://t" not in shown, shown


async def test_members_without_gm_rights_can_neither_drop_nor_forfeit(table: Table) -> None:
    t = table
    before = await _cup_under_way(t)
    leagues = t.service.leagues
    bobs = next(p for p in before.pairings if str(BOB[0]) in (p.a, p.b))
    bob_side = "A" if bobs.a == str(BOB[0]) else "B"
    their_side = "B" if bob_side == "A" else "A"
    # Bob, a player, would forfeit his opponent; Eve, a spectator-entrant, would drop Bob
    a = answer_text(await t.cmd(BOB, "league", "forfeit", name="Cup", table=bobs.table, side=their_side))
    assert a.startswith("❌") and "Only a GM may forfeit a league pairing" in a, a
    a = answer_text(await t.cmd(EVE, "league", "drop", name="Cup", entrant=str(BOB[0]), note="spite"))
    assert a.startswith("❌") and "Only a GM may drop a league entrant" in a, a
    # Ann is a GM, but plays at her own table: she may not forfeit her opponent there
    anns = next(p for p in before.pairings if str(ANN[0]) in (p.a, p.b))
    other = "B" if anns.a == str(ANN[0]) else "A"
    a = answer_text(await t.cmd(ANN, "league", "forfeit", permissions=MANAGE_GUILD, name="Cup", table=anns.table,
                                side=other))
    assert a.startswith("❌") and "You play at that table" in a, a
    after = await leagues.show(str(GUILD_ID), "Cup")
    assert after.pairings == before.pairings and not any(e.dropped for e in after.entrants)
    # a GM who does not play at Bob's table may: logged with their id, Bob told by DM, shown in standings
    mark = t.mark()
    a = answer_text(await t.cmd(GUS, "league", "forfeit", name="Cup", table=bobs.table, side=bob_side,
                                note="no show"))
    assert a.startswith("✅") and f"forfeit by a GM: no show ({GUS[0]})" in a, a
    assert any("A GM forfeited your table" in d.text for d in t.dms_to(BOB, mark))
    a = answer_text(await t.cmd(GUS, "league", "standings", name="Cup"))
    assert "Bob: 0 of 1 won (1 forfeited)" in a, a


@pytest.mark.parametrize("ai", [False, True])
async def test_members_joining_at_once_never_pass_the_cap_nor_share_a_number(
        table: Table, monkeypatch: pytest.MonkeyPatch, ai: bool) -> None:
    from game.service import leagues as module

    t = table
    await _gus_is_a_gm(t)
    monkeypatch.setattr(module, "MAX_ENTRANTS", 3)
    await t.cmd(ANN, "league", "create", permissions=MANAGE_GUILD, name="Small")
    if ai:  # two GMs entering computer captains at once
        joins = [t.cmd(who, "league", "join", permissions=MANAGE_GUILD, name="Small", ai=True)
                 for who in (ANN, GUS, ANN, GUS, ANN, GUS)]
    else:
        joins = [t.cmd(member, "league", "join", name="Small") for member in MEMBERS[:6]]
    answers = [answer_text(a) for a in await asyncio.gather(*joins)]
    assert sum("is registered" in a for a in answers) == 3, answers
    assert all("Small is full: a league takes 3 entrants" in a for a in answers if "is registered" not in a), answers
    info = await t.service.leagues.show(str(GUILD_ID), "Small")
    assert len(info.entrants) == 3 and len({e.member for e in info.entrants}) == 3
    if ai:
        assert sorted(e.name for e in info.entrants) == [f"Computer captain {n}" for n in (1, 2, 3)]
