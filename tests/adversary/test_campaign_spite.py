"""Adversary probes of a campaign battle played against the other new features (issue 27): its
summary card's Rematch pressed by a player, twice, and by a member outside the campaign (the
rematch stays outside the campaign: nothing of it reaches the ledger or a carry-over); a battle
paused by consent and conceded while paused; an undo asked after the battle ended; and two GMs
applying one carry-over at once."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.adversary.eyes import ANN, BOB, EVE, MANAGE_GUILD, Table, answer_text
from tests.adversary.test_campaign_probe import GAIL, UNEXPECTED, campaign
from tests.adversary.test_pause_consent import request_buttons
from tests.bot.fake_discord import GUILD_ID

CAMPAIGN = "Channel War"


def rematch_card(t: Table, since: int) -> tuple[str, str]:
    """The summary card's message id and its Rematch button's id."""
    for sent in reversed(t.fake.requests[since:]):
        ids = [c.get("custom_id", "") for row in sent.payload.get("components") or () for c in row["components"]]
        if sent.in_channel and any(i.startswith("qd:rematch:") for i in ids):
            return str(sent.response_message_id), next(i for i in ids if i.startswith("qd:rematch:"))
    raise AssertionError("no summary card with a Rematch button was posted")


async def _battle(t: Table) -> None:
    await campaign(t, ANN, BOB)
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name=CAMPAIGN,
                                members={"a": ANN, "b": BOB}, thread=False, settle=30))
    assert a.startswith("✅ Battle 1 is made: game #1"), a


async def _ledger(t: Table) -> list[str]:
    return [str(line) for line in (await t.service.campaigns.ledger(str(GUILD_ID), CAMPAIGN)).lines]


async def test_a_battles_rematch_stays_outside_the_campaign(table: Table) -> None:
    t = table
    await _battle(t)
    mark = t.mark()
    assert "Conceded" in answer_text(await t.cmd(BOB, "game", "concede", settle=30))
    await t.bot.courier.drain_all()
    message, rematch = rematch_card(t, mark)
    ledger = await _ledger(t)
    eve = await t.press(EVE, rematch, message)  # a member outside the battle (and the campaign)
    assert eve is not None and answer_text(eve).startswith("❌") and UNEXPECTED not in answer_text(eve)
    made = await t.press(ANN, rematch, message, settle=30)
    assert made is not None and "#2" in answer_text(made), answer_text(made)
    again = await t.press(BOB, rematch, message)
    assert again is not None and answer_text(again).startswith("❌"), answer_text(again)
    # the rematch is a friendly game: the campaign neither lists it nor hears of its end
    info = await t.service.campaigns.show(str(GUILD_ID), CAMPAIGN)
    assert [(b.number, b.game_id) for b in info.battles] == [(1, 1)]
    mark = t.mark()
    await t.cmd(ANN, "game", "concede", settle=30)
    await t.bot.courier.drain_all()
    said = "\n".join(item.text for item in t.public(mark))
    assert "/campaign apply" not in said and "Channel War: battle 1" not in said.replace(
        "Rematch of #1: Channel War: battle 1", ""), said[:300]
    assert "Rematch of #1: Channel War: battle 1" in said
    assert await _ledger(t) == ledger
    # the carry-over applies to the battle itself, not the rematch
    a = answer_text(await t.cmd(GAIL, "campaign", "apply", permissions=MANAGE_GUILD, name=CAMPAIGN, battle=1,
                                points_a=3))
    assert a.startswith("✅") or "applied" in a, a
    a = answer_text(await t.cmd(GAIL, "campaign", "apply", permissions=MANAGE_GUILD, name=CAMPAIGN, battle=2))
    assert a.startswith("❌") and "no battle 2" in a, a
    points = {m.name: m.points for m in (await t.service.campaigns.show(str(GUILD_ID), CAMPAIGN)).members}
    assert points == {"Ann": 3, "Bob": 0}


async def test_a_battle_paused_by_consent_then_conceded_carries_over_once(table: Table) -> None:
    t = table
    await _battle(t)
    mark = t.mark()
    await t.cmd(ANN, "game", "pause")
    message, agree, _ = request_buttons(t, mark)
    assert "Everyone agrees" in answer_text(await t.press(BOB, agree, message))
    assert "Conceded" in answer_text(await t.cmd(ANN, "game", "concede", settle=30))
    # the ended game cannot be taken back to rewrite the battle after its carry-over
    undo: Any = await t.cmd(GAIL, "game", "undo", permissions=MANAGE_GUILD)
    assert answer_text(undo).startswith("❌"), answer_text(undo)
    answers = await asyncio.gather(
        t.cmd(GAIL, "campaign", "apply", permissions=MANAGE_GUILD, name=CAMPAIGN, battle=1, points_b=5),
        t.cmd(EVE, "campaign", "apply", permissions=MANAGE_GUILD, name=CAMPAIGN, battle=1, points_b=50))
    texts = sorted(answer_text(a) for a in answers)
    assert sum(x.startswith("✅") for x in texts) == 1 and UNEXPECTED not in "".join(texts), texts
    points = {m.name: m.points for m in (await t.service.campaigns.show(str(GUILD_ID), CAMPAIGN)).members}
    assert points["Bob"] in (5, 50) and points["Ann"] == 0
    assert sum("applied the carry-over" in line for line in await _ledger(t)) == 1
    # and the paused clock of an ended game is no business of anyone any more
    assert answer_text(await t.cmd(BOB, "game", "resume")).startswith("❌")


async def test_a_member_who_left_the_campaign_cannot_rejoin_to_fight_twice(table: Table) -> None:
    t = table
    await _battle(t)
    assert "You left" in answer_text(await t.cmd(BOB, "campaign", "leave", name=CAMPAIGN))
    a = answer_text(await t.cmd(BOB, "campaign", "join", name=CAMPAIGN, squadron="Zeeland Admiralty"))
    assert a.startswith("❌"), a
    # Bob's battle still ends and carries over; the ledger shows him as left
    await t.cmd(BOB, "game", "concede", settle=30)
    a = answer_text(await t.cmd(GAIL, "campaign", "apply", permissions=MANAGE_GUILD, name=CAMPAIGN, battle=1))
    assert UNEXPECTED not in a and not a.startswith("❌"), a
    (bob,) = [m for m in (await t.service.campaigns.show(str(GUILD_ID), CAMPAIGN)).members if m.name == "Bob"]
    assert bob.left


async def test_hostile_member_and_list_names_in_the_ledger_ping_and_link_nothing(table: Table) -> None:
    from game.service.game_service import Actor
    from tests.adversary.eyes import assert_no_pings
    from tests.adversary.test_campaign_probe import SQUADRON

    t = table
    mallory = (444444444444444411, "[free nitro](https://evil.example) @everyone")
    mark = t.mark()
    assert "is created" in answer_text(await t.cmd(GAIL, "campaign", "create", permissions=MANAGE_GUILD, name=CAMPAIGN))
    hostile_list = SQUADRON.replace('name = "Zeeland Admiralty"', f'name = "<@{BOB[0]}> ||x|| `"')
    assert hostile_list != SQUADRON
    for user, text, list_name in ((mallory, hostile_list, f"<@{BOB[0]}> ||x|| `"), (BOB, SQUADRON, "Zeeland Admiralty")):
        await t.service.squadrons.save(Actor(str(user[0]), str(GUILD_ID)), text)
        a = answer_text(await t.cmd(user, "campaign", "join", name=CAMPAIGN, squadron=list_name))
        assert "You joined" in a, a
    for page in (1, 2, 10_000):
        a = await t.cmd(EVE, "campaign", "ledger", name=CAMPAIGN, page=page)
        text = answer_text(a)
        assert UNEXPECTED not in text and len(text) <= 2000, text
        if page > 1:
            assert text.startswith("❌ There is no page"), text
            continue
        assert "](https://" not in text and f"<@{BOB[0]}>" not in text.replace(f"\\<@{BOB[0]}>", ""), text
    shown = answer_text(await t.cmd(EVE, "campaign", "show", name=CAMPAIGN))
    assert "](https://" not in shown and UNEXPECTED not in shown, shown
    assert_no_pings(t.fake, mark)


async def test_a_battle_handed_to_a_non_member_still_belongs_to_its_members(table: Table) -> None:
    """Bob hands his side to Eve, who is not in the campaign, and Eve concedes: the battle is Bob's
    loss, Eve gains nothing in the campaign and cannot be put in its battles, and Bob is free again
    once the carry-over is applied."""
    from tests.adversary.test_acting_for_a_side import handover

    t = table
    await _battle(t)
    said = await handover(t, BOB, EVE)
    assert "🔁" in said, said
    assert "Conceded" in answer_text(await t.cmd(EVE, "game", "concede", settle=30))
    info = await t.service.campaigns.show(str(GUILD_ID), CAMPAIGN)
    (battle,) = info.battles
    assert battle.status == "over" and battle.winner == "A", battle
    a = answer_text(await t.cmd(GAIL, "campaign", "apply", permissions=MANAGE_GUILD, name=CAMPAIGN, battle=1,
                                points_a=2, points_b=1))
    assert not a.startswith("❌") and UNEXPECTED not in a, a
    points = {m.name: m.points for m in (await t.service.campaigns.show(str(GUILD_ID), CAMPAIGN)).members}
    assert points == {"Ann": 2, "Bob": 1}, points
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name=CAMPAIGN,
                                members={"a": ANN, "b": EVE}))
    assert a.startswith("❌") and "is not a member" in a, a
    a = answer_text(await t.cmd(GAIL, "campaign", "battle", permissions=MANAGE_GUILD, name=CAMPAIGN,
                                members={"a": BOB, "b": ANN}, thread=False, settle=30))
    assert a.startswith("✅ Battle 2 is made"), a
