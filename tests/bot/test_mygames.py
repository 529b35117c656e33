"""Issue 14, item 4: `/mygames` lists, from any server or a DM, every unfinished game of mine: the
ones waiting on me first with a jump link and the deadline, never another player's games."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_discord import GUILD_ID, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, pick, setup_game


def dm_command(user: tuple[int, str], name: str) -> dict[str, Any]:
    """The same command sent in a DM with the bot: no guild, no member, a DM channel."""
    payload = command(user, name)
    payload.pop("guild_id")
    member = payload.pop("member")
    payload["user"] = member["user"]
    payload["channel"] = {"id": "600000000000000001", "type": 1, "recipients": [member["user"]]}
    payload["channel_id"] = "600000000000000001"
    payload["data"].pop("guild_id", None)
    payload["context"] = 1
    return payload


async def test_my_games_from_the_server_and_from_a_dm(harness: Any) -> None:
    bot, fake = harness
    none = last_followup(await dispatch(bot, command(ANN, "mygames"), fake))
    assert none.ephemeral and "no unfinished games" in none.content
    await setup_game(bot, fake)
    # both owe a card: each sees the game as waiting on them, with the link and the deadline
    for user, side in ((ANN, "A"), (BOB, "B")):
        mine = last_followup(await dispatch(bot, command(user, "mygames"), fake))
        assert mine.ephemeral and "1 of your 1 games wait for you" in mine.content
        assert f"https://discord.com/channels/{GUILD_ID}/" in mine.content and f"**your move** ({side})" in mine.content
        assert "deadline <t:" in mine.content
    await pick(bot, fake, ANN, "Down!")
    mine = last_followup(await dispatch(bot, command(ANN, "mygames"), fake))
    assert "None of your 1 games waits for you" in mine.content and "waiting for others" in mine.content
    from_dm = last_followup(await dispatch(bot, dm_command(BOB, "mygames"), fake))
    assert "**your move** (B)" in from_dm.content  # a DM with the bot works too
    eve = last_followup(await dispatch(bot, command(EVE, "mygames"), fake))
    assert "no unfinished games" in eve.content  # a spectator has none, and sees nobody else's
