"""Issue 11, item 7 (5): fair dice end to end through the bot. Computer captains play a game to the end;
its SHA-256 commitment is posted when it is created and the seed when it ends (never before); `/game
verify` recomputes every roll and attaches the log, `quarterdeck verify --file` agrees on it, and a
log with one face changed fails. QD_LONG=1 plays the quick start as well."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from cli.main import main as quarterdeck
from game.fairness import ROLL_EVENTS
from game.model import Phase
from tests.adversary.eyes import (
    ANN,
    BOB,
    EVE,
    SEEDS,
    Table,
    answer_text,
    assert_no_pings,
    item_text,
    last_answer,
)
from tests.bot.fake_discord import command
from tests.helpers import S, scenario_text

# a Fourth Rate against a sloop: the computer captains settle it in a few turns
SHORT = scenario_text([S("Lion", "Fourth Rate", 15, 18, 0, "A"), S("Otter", "Sloop", 19, 18, 0, "B")],
                      test_dice=False)
GAMES = [("short", SHORT)] + ([("quickstart", None)] if os.environ.get("QD_LONG") else [])


async def play_out(t: Table, text: str | None) -> str:
    """Create the game, seat a computer captain on each side and let them play to the end; the
    creation's announcement as a spectator read it is returned."""
    files = {"file": t.fake.attach("short.toml", text.encode())} if text else None
    mark = t.mark()
    await t.cmd(ANN, "game", "create", attachments=files)
    created = t.seen_by(EVE, mark)
    await t.cmd(ANN, "game", "join", side="A", ai=True)
    await t.cmd(ANN, "game", "join", side="B", ai=True, settle=300)  # the captains play it out now
    for _ in range(10):  # a long game may need a nudge after the bot's hundred steps per interaction
        if (await t.state()).phase is Phase.OVER:
            break
        await t.cmd(EVE, "game", "status", settle=300)
    assert (await t.state()).phase is Phase.OVER
    return created


@pytest.mark.parametrize(("name", "text"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_finished_game_proves_its_dice(table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               name: str, text: str | None) -> None:
    t = table
    created = await play_out(t, text)
    seed = await t.seed()
    assert seed == SEEDS[0]
    published = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert f"secret seed whose SHA-256 is `{published}`" in created
    # the seed shows first in the game-over post, and in nothing anyone received before it
    texts = [item_text(r, t.drawn) for r in t.fake.requests]
    first = next(i for i, x in enumerate(texts) if seed in x)
    assert "Game over" in texts[first] and f"The dice seed was `{seed}`" in texts[first]
    assert not any(seed.upper() in x for x in texts[:first])
    rolls = [e for e in await t.log_events() if isinstance(e, ROLL_EVENTS)]
    assert len(rolls) > 5, "a game with dice"

    payload = command(EVE, "game", "verify")  # anyone may check, in the open
    sent = await t.send(EVE, payload)
    assert "Posted here" in answer_text(last_answer(sent, payload["token"]))
    [answer] = [r for r in sent if r.in_channel]
    assert answer.message in t.fake.visible_to(BOB[0])  # for everyone in the channel
    assert answer_text(answer).startswith(f"✅ All {len(rolls)} rolls") and published in answer_text(answer)
    (filename, body), = answer.files
    assert filename == "game-1-log.json"
    log = tmp_path / filename
    log.write_bytes(bytes(body))
    assert json.loads(body)["commitment"] == published and json.loads(body)["seed"] == seed

    assert quarterdeck(["verify", "--file", str(log)]) == 0
    out = capsys.readouterr().out
    assert f"✅ All {len(rolls)} rolls" in out and published in out

    data = json.loads(body)
    index = next(i for i, (_, e) in enumerate(data["events"]) if e["type"] == "DiceRolled")
    faces = data["events"][index][1]["faces"]
    faces[0] = "sail" if faces[0] != "sail" else "skull"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    assert quarterdeck(["verify", "--file", str(tampered)]) == 1
    assert f"event {index + 1} (DiceRolled): recorded" in capsys.readouterr().out

    data = json.loads(body)
    data["seed"] = SEEDS[1]  # another seed: its hash is not the one posted at the start
    tampered.write_text(json.dumps(data))
    assert quarterdeck(["verify", "--file", str(tampered)]) == 1
    assert "does not match the SHA-256 published" in capsys.readouterr().out
    assert_no_pings(t.fake)


async def test_verify_before_the_end_shows_only_the_commitment(table: Table) -> None:
    t = table
    await t.cmd(ANN, "game", "create")
    seed = await t.seed()
    answer = answer_text(await t.cmd(EVE, "game", "verify"))
    assert answer.startswith("❌") and "secret until the game ends" in answer
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() in answer and seed not in answer
