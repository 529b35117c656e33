"""Issue 22, finding 2 and property 8, played by a forger: a verification never says more than it
checked. A log that keeps the real seed and commitment but strips every roll of its position (and
sets its faces as the forger likes) must fail, naming the roll, in `quarterdeck verify --file` and in
`/game verify`; only a game whose starting state records that it began before verifiable dice may
hold rolls that cannot be checked, and even then they are never counted as matching."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from cli.main import main as quarterdeck
from game.service.db import make_engine
from game.service.game_service import GameService
from game.service.models import EventRecord
from tests.adversary.eyes import EVE, Table, answer_text
from tests.adversary.logs import ROLLS, finished_log, rolls_of
from tests.adversary.test_fair_dice import SHORT, play_out
from tests.bot.fake_discord import command
from tests.databases import sqlite_at_head
from tests.seeds import counting_seeds


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    url = sqlite_at_head(tmp_path / "forged.db")
    engine = make_engine(url)
    try:
        yield GameService(engine, seeds=counting_seeds())
    finally:
        await engine.dispose()


def verify(tmp_path: Path, log: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    code = quarterdeck(["verify", "--file", str(path)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


async def test_rolls_stripped_of_their_position_fail_with_the_roll_named(
        service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = await finished_log(service)
    forged = copy.deepcopy(log)
    for _, e in rolls_of(forged):  # the finding: every "at" -1, every face a cannon; seed and commitment kept
        e["at"] = -1
        if e["type"] != "SetupCardsDrawn":
            e["faces"] = ["cannon"] * len(e["faces"])
    code, out = verify(tmp_path, forged, capsys)
    first = rolls_of(forged)[0][0]
    assert code == 1
    assert "✅" not in out and "match the seed" not in out
    assert out.startswith(f"❌ {len(rolls_of(forged))} problem(s) in the dice record: event {first} "
                          f"({rolls_of(forged)[0][1]['type']}) carries no dice position, so it cannot be checked")
    # the honest log still proves itself
    assert verify(tmp_path, log, capsys)[0] == 0


async def test_only_a_game_recorded_as_older_than_verifiable_dice_may_hold_unchecked_rolls(
        service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = await finished_log(service)
    rolls = rolls_of(log)
    older = copy.deepcopy(log)
    older["initial_state"]["seed"] = 7  # began with a readable seed number, before secret dice
    for _, e in rolls_of(older)[:2]:  # its first rolls were made then, without a position
        e["at"] = -1
    code, out = verify(tmp_path, older, capsys)
    assert code == 0
    assert out.startswith(f"⚠️ {len(rolls) - 2} rolls (")
    assert ("match the seed; 2 older rolls were not checked: the log records a game begun before verifiable "
            "dice (with the readable seed number 7)") in out
    assert "All" not in out and "✅" not in out

    # an unchecked roll after a checked one: a game turned verifiable once, and never back
    late = copy.deepcopy(older)
    _, last = rolls_of(late)[-1]
    last["at"] = -1
    code, out = verify(tmp_path, late, capsys)
    assert code == 1 and f"event {rolls[-1][0]} ({last['type']}) carries no dice position" in out


async def test_a_reroll_of_dice_that_were_never_rolled_is_a_problem_not_a_crash(
        service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = await finished_log(service)
    forged = copy.deepcopy(log)
    rolled = next((i, e) for i, e in rolls_of(forged) if e["type"] == "DiceRolled")
    index, event = rolled
    forged["events"].insert(index, [forged["events"][index - 1][0], {
        "type": "DiceRerolled", "player": "A", "ship": "Lion", "positions": [len(event["faces"]) + 5, -1],
        "faces": event["faces"], "successes": 0, "means": "skill", "at": 0}])
    code, out = verify(tmp_path, forged, capsys)
    assert code == 1 and "Traceback" not in out
    assert f"event {index + 1} (DiceRerolled): re-rolls dice {len(event['faces']) + 5}, -1 of a roll of " \
           f"{len(event['faces'])}" in out


async def test_game_verify_in_the_channel_refuses_rolls_without_a_position(table: Table) -> None:
    t = table
    await play_out(t, SHORT)
    async with t.service.store.repo.session() as s, s.begin():  # the forger edits the stored log itself
        rows = (await s.execute(select(EventRecord).where(EventRecord.type.in_(ROLLS))  # type: ignore[attr-defined]
                                .order_by(EventRecord.seq))).scalars().all()
        for row in rows:
            data = json.loads(row.payload)
            data["at"] = -1
            await s.execute(update(EventRecord).where(EventRecord.id == row.id).values(payload=json.dumps(data)))
    payload = command(EVE, "game", "verify")
    sent = await t.send(EVE, payload)
    [answer] = [r for r in sent if r.in_channel]
    text = answer_text(answer)
    assert text.startswith(f"❌ {len(rows)} problem(s) in the dice record: event {rows[0].seq} "
                           f"({rows[0].type}) carries no dice position")
    assert "✅" not in text
