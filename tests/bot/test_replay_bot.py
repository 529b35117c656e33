"""Issue 14, item 5 through Discord: `/game replay` posts the game as an animated board in the
channel (no log file while the game holds secrets), a finished game's last post offers it, and its
replay comes with the log for `quarterdeck replay`."""

from __future__ import annotations

import io
import json
from typing import Any

from PIL import Image

from tests.bot.fake_discord import command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, followups, last_followup, pick, setup_game


async def test_replay_in_discord_before_and_after_the_end(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    early = last_followup(await dispatch(bot, command(ANN, "game", "replay"), fake))
    assert early.ephemeral and "Nothing has happened" in early.content
    await pick(bot, fake, ANN, "Down!")
    await pick(bot, fake, BOB, "Take Courage")
    sent = await dispatch(bot, command(BOB, "game", "replay"), fake, settle=60)
    assert "Posted here" in last_followup(sent).content
    [answer] = [r for r in sent if r.in_channel]  # for everyone in the channel
    assert not answer.ephemeral and "Game #1" in answer.content and "once the game is over" in answer.content
    names = [name for name, _ in answer.files]
    assert names == ["game-1-replay.webp"]  # animated WebP by default (issue 27, item 6)
    # the picture's words for a screen reader (issue 26, item 8)
    assert answer.payload["attachments"][0]["description"].startswith("An animated replay of game #1: the board after")
    with Image.open(io.BytesIO(answer.files[0][1])) as webp:
        moments = int(answer.content.split(": ", 1)[1].split(" moment")[0])
        assert webp.format == "WEBP" and webp.n_frames == moments >= 1
    # (another member: a replay is heavy work, one per member a minute, bot/fair_share.py)
    as_gif = [r for r in await dispatch(bot, command(EVE, "game", "replay", format="gif"), fake, settle=60)
              if r.in_channel]
    [(name, body)] = as_gif[0].files
    with Image.open(io.BytesIO(body)) as gif:
        assert name == "game-1-replay.gif" and gif.format == "GIF" and gif.n_frames == moments
    # nothing secret in the replay's words: the other hands stay hidden
    assert "Fire as She Bears" not in answer.content

    ended = await dispatch(bot, command(ANN, "game", "concede"), fake)
    assert any("/game replay" in r.content for r in ended if r.in_channel)  # the last post offers it
    sent = await dispatch(bot, command(ANN, "game", "replay"), fake, settle=60)
    [answer] = [r for r in sent if r.in_channel]
    names = [name for name, _ in answer.files]
    assert names == ["game-1-replay.webp", "game-1-log.json"]
    log_file = json.loads(answer.files[1][1])
    assert log_file["format"] == "quarterdeck-log/1" and "quarterdeck replay" in answer.content
    assert len(followups(sent)) == 1 and last_followup(sent).ephemeral
