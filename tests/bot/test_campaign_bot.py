"""Issue 27, item 5, through the bot on the fake Discord: a GM creates a campaign, members join with
their saved squadrons, the GM makes a battle in its own thread, the battle ends, the GM applies the
carry-over once, and anyone reads the ledger with its picture."""

from __future__ import annotations

import io
from importlib import resources
from typing import Any

from PIL import Image

from game.campaign import CarryOver
from game.service.game_service import Actor
from tests.bot.fake_discord import GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup

GM = 1 << 5  # Manage Server
GAIL = (999999999999999901, "Gail")
SQUADRON = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()


async def members_joined(bot: Any, fake: Any) -> None:
    sent = await dispatch(bot, command(GAIL, "campaign", "create", permissions=GM, name="Channel War"), fake)
    assert "announced here" in last_followup(sent).content and last_followup(sent).ephemeral
    [told] = [r for r in sent if r.in_channel]
    assert "The campaign **Channel War** begins" in told.content and not told.ephemeral
    for user in (ANN, BOB):
        await bot.service.squadrons.save(Actor(str(user[0]), str(GUILD_ID)), SQUADRON)
        sent = await dispatch(bot, command(user, "campaign", "join", name="Channel War",
                                           squadron="Zeeland Admiralty"), fake)
        assert "You joined Channel War with Zeeland Admiralty (5 ships)" in last_followup(sent).content


async def test_a_campaign_battle_is_played_applied_once_and_read_in_the_ledger(harness: Any) -> None:
    bot, fake = harness
    await members_joined(bot, fake)
    sent = await dispatch(bot, command(ANN, "campaign", "join", name="Channel War", squadron="Zeeland Admiralty"), fake)
    assert last_followup(sent).content.startswith("❌") and "already a member" in last_followup(sent).content

    sent = await dispatch(bot, command(ANN, "campaign", "battle", name="Channel War", members={"a": ANN, "b": BOB}),
                          fake)
    assert "Only a GM may make a campaign battle" in last_followup(sent).content and last_followup(sent).ephemeral

    sent = await dispatch(bot, command(GAIL, "campaign", "battle", permissions=GM, name="Channel War",
                                       members={"a": ANN, "b": BOB}), fake, settle=30)
    (thread,) = fake.threads()
    assert last_followup(sent).content.startswith("✅ Battle 1 is made")
    in_thread = [r for r in sent if r.in_channel and thread["id"] in r.path]
    told = next(r for r in in_thread if "battle 1" in r.content)
    assert sorted(map(int, told.payload["allowed_mentions"]["users"])) == [ANN[0], BOB[0]]
    assert any(r.files for r in in_thread)  # the board

    sent = await dispatch(bot, command(GAIL, "campaign", "apply", permissions=GM, name="Channel War", battle=1), fake)
    assert "has not ended yet" in last_followup(sent).content

    sent = await dispatch(bot, command(BOB, "game", "concede", channel_id=int(thread["id"])), fake)
    assert "Conceded" in last_followup(sent).content
    [over] = [r for r in sent if r.in_channel and thread["id"] in r.path and "This was battle 1" in r.content]
    assert "/campaign apply name: Channel War battle: 1" in over.content and not over.ephemeral
    sent = await dispatch(bot, command(GAIL, "campaign", "apply", permissions=GM, name="Channel War", battle=1,
                                       damage="kept", points_a=3, points_b=1), fake)
    assert last_followup(sent).content.startswith("✅ The carry-over of battle 1 is applied")
    [post] = [r for r in sent if r.in_channel and "carry-over of battle 1" in r.content]
    assert not post.ephemeral and "applied by Gail" in post.content and "side A won" in post.content
    assert "Ann gains 3 campaign points" in post.content and post.files
    sent = await dispatch(bot, command(GAIL, "campaign", "apply", permissions=GM, name="Channel War", battle=1), fake)
    assert "already been applied by" in last_followup(sent).content

    sent = await dispatch(bot, command(EVE, "campaign", "ledger", name="channel war"), fake)
    answer = last_followup(sent)
    assert answer.ephemeral and answer.files and "ledger page 1 of 1" in answer.content
    assert "Battle 1 (game #" in answer.content and "Gail applied the carry-over" in answer.content
    assert "Ann: Zeeland Admiralty, 5 ships afloat; 3 campaign points" in answer.content
    image = Image.open(io.BytesIO(answer.files[0][1]))
    assert image.format == "PNG" and image.size[0] == 800
    [attachment] = answer.payload["attachments"]
    assert "Ann, Zeeland Admiralty, 3 points" in attachment["description"]

    sent = await dispatch(bot, command(EVE, "campaign", "show", name="Channel War"), fake)
    assert "🏁 Battle 1: Ann v Bob: side A won" in last_followup(sent).content
    sent = await dispatch(bot, command(EVE, "campaign", "ledger", name="Channel War", page=9), fake)
    assert last_followup(sent).content.startswith("❌ There is no page 9")


async def test_help_lists_the_campaign_commands(harness: Any) -> None:
    bot, fake = harness
    text = ""
    for page in (1, 2):
        sent = await dispatch(bot, command(EVE, "help", command="campaign", page=page), fake)
        text += sent[-1].payload["data"]["content"]
    for sub in ("create", "join", "leave", "battle", "apply", "ledger", "show", "end"):
        assert f"/campaign {sub}" in text, sub


async def test_a_long_ledger_is_paged_under_discords_limit_and_every_line_is_on_a_page(harness: Any) -> None:
    bot, fake = harness
    await members_joined(bot, fake)
    campaigns = bot.service.campaigns
    gm = Actor(str(GAIL[0]), str(GUILD_ID), gm=True)
    for n in range(1, 9):  # eight battles, each conceded and carried over
        b = await campaigns.battle(gm, "Channel War", [str(ANN[0])], [str(BOB[0])], f"80000000000000000{n}")
        await bot.service.commands.concede(Actor(str(BOB[0]), str(GUILD_ID)), b.game_id)
        await campaigns.apply(gm, "Channel War", n, CarryOver(), {"A": 1})
    ledger = await campaigns.ledger(str(GUILD_ID), "Channel War")
    seen, page, pages = "", 1, 0
    while True:
        sent = await dispatch(bot, command(EVE, "campaign", "ledger", name="Channel War", page=page), fake)
        text = last_followup(sent).content
        assert len(text) <= 2000, text[:100]
        if text.startswith("❌"):
            break
        assert last_followup(sent).files
        pages = int(text.split("ledger page ")[1].split(" of ")[1].split("\n")[0])
        seen += text
        page += 1
    assert pages > 1 and page == pages + 1
    for line in ledger.lines:  # every line shown, whole, on some page
        assert line.text.split(" applied")[0] in seen, line.text
    assert "Ann: Zeeland Admiralty, 5 ships afloat; 8 campaign points" in seen
