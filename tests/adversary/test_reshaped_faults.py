"""Refusals and faults (game/service/errors.py) through the reshaped paths: a component's custom id is
text a member can forge (a client that edits it), and an Oak & Iron command may be sent where a
referee-assistant game is played. Each is answered privately, as a refusal that says what was wrong
or as the bot's own fault, never as a raw exception, the blank apology or silence, and changes
nothing."""

from __future__ import annotations

import pytest

from bot.actions import UNEXPECTED
from tests.adversary.eyes import ANN, BOB, Table, answer_text
from tests.adversary.test_sweep import open_quickstart

HUGE = "9" * 30  # more than any database integer holds


def assert_answered(answer: object, custom: str) -> str:
    assert answer is not None, f"{custom}: no answer at all"
    text = answer_text(answer)  # type: ignore[arg-type]
    assert answer.ephemeral, f"{custom}: answered in the channel"  # type: ignore[attr-defined]
    assert text and UNEXPECTED not in text and "Traceback" not in text, f"{custom}: {text!r}"
    return text


FORGED = [
    f"qd:pick:{HUGE}",
    "qd:pick:999",
    f"qd:hand:{HUGE}:A:0",
    "qd:hand:999:A:0",
    "qd:hand:1:ZZZZ:0",
    f"qd:hand:1:A:{HUGE}",
    f"qd:keep:{HUGE}:0",
    f"qd:keep:1:{HUGE}",
    f"qd:fortune:1:{HUGE}",
    f"qd:reroll:1:{HUGE}:5:1",
    f"qd:reroll:1:0:{HUGE}:1",
    f"qd:opt:1:{HUGE}",
    f"qd:go:1:{HUGE}:0",
    f"qd:go:1:0:{HUGE}",
]


@pytest.mark.parametrize("custom", FORGED)
async def test_a_forged_custom_id_is_answered_privately_and_changes_nothing(table: Table, custom: str) -> None:
    t = table
    await open_quickstart(t)  # Bob has picked; the game waits for Ann's pick
    version = await t.version()
    values = None
    if custom.startswith(("qd:hand:", "qd:opt:")):
        values = [(await t.state()).squadron("A").hand[0]] if custom.startswith("qd:hand:") else ["0"]
    elif custom.startswith("qd:reroll:"):
        values = ["1"]
    for user in (ANN, BOB):
        assert_answered(await t.press(user, custom, values=values), custom)
    assert await t.version() == version


async def test_an_oak_and_iron_command_where_a_referee_game_is_played(table: Table) -> None:
    t = table
    answer = await t.cmd(ANN, "game", "create", system="wsim")
    assert not answer_text(answer).startswith(("❌", "⚠️")), answer_text(answer)
    for name, sub, values in (("move", None, {"ship": "X"}), ("game", "join", {"side": "A"}),
                              ("order", None, {"line": "pick A Down!"})):
        text = assert_answered(await t.cmd(ANN, name, sub, **values), f"/{name}")
        assert text.startswith("❌"), text


@pytest.mark.parametrize(("part", "custom"), [("hand", "qd:pick:1"), ("options", "qd:opt:1:0")])
async def test_an_unexpected_error_behind_a_deferred_component_is_still_answered(
        table: Table, monkeypatch: pytest.MonkeyPatch, part: str, custom: str) -> None:
    """The pick button and the options menu defer first: whatever then goes wrong (the database gone),
    the member gets the apology privately, never endless "thinking…" nor the error's own words."""
    t = table
    await open_quickstart(t)

    async def gone(*args: object, **kwargs: object) -> object:
        raise RuntimeError("connection to the database lost")

    monkeypatch.setattr(t.service.reading, part, gone)
    answer = await t.press(ANN, custom, values=["0"] if custom.startswith("qd:opt:") else None)
    assert answer is not None and answer.ephemeral, "answered, privately"
    assert answer_text(answer) == UNEXPECTED
    assert not [r for r in t.fake.requests if "connection to the database lost" in str(r.payload)]
