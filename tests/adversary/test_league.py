"""A league through the bot, against members who try what is not theirs: running it without being a
GM, registering twice, bringing someone else's squadron, handing over a ranked game's seat."""

from __future__ import annotations

from tests.adversary.eyes import ANN, BOB, EVE, Table
from tests.adversary.sweep import DUTCH

GM = 1 << 5  # Manage Server


async def test_only_a_gm_runs_a_league_and_each_member_registers_once_with_their_own_list(table: Table) -> None:
    t = table
    answer = await t.cmd(EVE, "league", "create", name="Spring", scenario="drafted")
    assert "Only a GM may create a league" in answer.content
    mark = t.mark()
    answer = await t.cmd(ANN, "league", "create", permissions=GM, name="Spring", scenario="drafted", size="skirmish")
    assert "announced here" in answer.content and "open for registration" in t.seen_by(EVE, mark)
    await t.cmd(ANN, "squadron", "save", attachments={"file": t.fake.attach("a.toml", DUTCH)})

    answer = await t.cmd(EVE, "league", "join", name="Spring", squadron="Zeeland Admiralty")
    assert answer.content.startswith("❌") and "no saved squadron" in answer.content  # Ann's list, not Eve's
    answer = await t.cmd(EVE, "league", "join", name="Spring", ai=True)
    assert "Only a GM may enter a computer captain" in answer.content
    answer = await t.cmd(ANN, "league", "join", name="Spring", squadron="Zeeland Admiralty")
    assert "is registered" in answer.content
    answer = await t.cmd(ANN, "league", "join", name="Spring", squadron="Zeeland Admiralty")
    assert "already registered" in answer.content
    await t.cmd(ANN, "league", "join", permissions=GM, name="Spring", ai=True)

    for user in (EVE, BOB):
        answer = await t.cmd(user, "league", "start", name="Spring")
        assert "Only a GM may start a league" in answer.content
    answer = await t.cmd(ANN, "league", "start", permissions=GM, name="Spring", settle=30)
    assert "Round 1 is under way" in answer.content, answer.content
    (thread,) = t.fake.threads()
    answer = await t.cmd(EVE, "league", "result", name="Spring", table=1, winner="B")
    assert "Only a GM may record a league result" in answer.content
    answer = await t.cmd(EVE, "league", "round", name="Spring")
    assert "Only a GM may close a league round" in answer.content
    # Ann may not pass her ranked seat to the computer captain on her own
    answer = await t.cmd(ANN, "game", "handover", channel_id=int(thread["id"]), ai=True)
    assert "only a GM may hand over its seats" in answer.content
    info = await t.service.lobby.info(1)
    assert ("111111111111111111" in [s.user_id for s in info.seats]) and info.status != "over"
