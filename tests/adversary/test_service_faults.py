"""Issue 23, item 6: the service's own faults (a game whose stored log cannot be read, a game kept busy
by other orders past every retry) reach the player privately, as the bot's trouble with what to do,
never in the words of a refused order and never as a traceback or the blank apology; nothing of it
goes to the channel. Through every way an answer leaves the bot: a command's own service call
(actions.act), a command that leaves faults to the error handler (/board), a button (the hand),
and an autocomplete (quietly nothing)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, update

from bot.actions import FAULT, UNEXPECTED
from game.service.models import EventRecord, GameRecord, Snapshot
from tests.adversary.eyes import ANN, BOB, Table, answer_text
from tests.adversary.test_sweep import open_quickstart
from tests.bot.fake_discord import Sent


def assert_told_as_fault(answer: Sent | None, *said: str) -> None:
    assert answer is not None and answer.ephemeral, "a fault is answered privately"
    text = answer_text(answer)
    assert text.startswith(FAULT), text  # the bot's own problem, "not with your order"
    assert not text.startswith("❌") and UNEXPECTED not in text and "Traceback" not in text, text
    assert "If it keeps happening, tell whoever runs this bot." in text, text
    for words in said:
        assert words in text, text


async def damage(t: Table, game_id: int = 1) -> None:
    """The game's newest event row no longer decodes, as after a bad restore, and there is no snapshot
    to start past it; the service reads it again, as the bot does when it starts."""
    service = t.service
    last = (await service.store.repo.load(game_id)).record.last_seq
    async with service.store.repo.session() as s, s.begin():
        await s.execute(delete(Snapshot).where(Snapshot.game_id == game_id))  # type: ignore[arg-type]
        await s.execute(update(EventRecord).where(EventRecord.game_id == game_id, EventRecord.seq == last)  # type: ignore[arg-type]
                        .values(payload='{"type": "NoSuchEvent"}'))
    report = await service.audit.rebuild_all()
    assert [gid for gid, _ in report.damaged] == [game_id]


async def test_a_damaged_game_is_told_as_a_fault_wherever_it_is_met(table: Table) -> None:
    t = table
    await open_quickstart(t)  # Bob has picked; the game waits for Ann's pick
    await damage(t)
    mark = t.mark()

    # a command whose one service call is actions.act
    assert_told_as_fault(await t.cmd(ANN, "order", line="pick A Down!"), "cannot be read",
                         "Its log is damaged; a GM can start a new game.")
    # a command that catches only refusals: the fault reaches the app's error handler
    assert_told_as_fault(await t.cmd(BOB, "board"), "cannot be read")
    # the hand's button (a component, not a command)
    assert_told_as_fault(await t.press(ANN, "qd:pick:1"), "cannot be read")
    # an autocomplete has nothing to offer, and says nothing
    assert await t.complete(BOB, "board", None, "ship", "") == []

    assert t.public(mark) == [], "nothing of a fault is posted in the channel"
    for who in (ANN, BOB):
        assert not any(item.kind == "dm" for item in t.received(who, mark))


async def test_a_game_kept_busy_past_every_retry_is_told_as_a_fault(table: Table,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    t = table
    await open_quickstart(t)
    repo = t.service.store.repo
    append = repo.append

    async def another_process_first(loaded: Any, *args: Any, **kwargs: Any) -> Any:
        # another process commits to the game between every read and this write: the real write
        # then finds the game moved on (a real version conflict), every time
        async with repo.session() as s, s.begin():
            await s.execute(update(GameRecord).where(GameRecord.id == loaded.record.id)  # type: ignore[arg-type]
                            .values(version=GameRecord.version + 1))
        return await append(loaded, *args, **kwargs)

    monkeypatch.setattr(repo, "append", another_process_first)
    state = await t.state()
    mark = t.mark()
    assert_told_as_fault(await t.cmd(ANN, "order", line="pick A Down!"), "The game is busy: other orders kept arriving.",
                         "Try again in a moment.")
    assert t.public(mark) == []
    monkeypatch.setattr(repo, "append", append)
    assert (await t.state()).squadron("A").picked is state.squadron("A").picked is False  # nothing was done
    # and once the game is quiet the same order goes through: it was never the order's fault
    assert answer_text(await t.cmd(ANN, "order", line="pick A Down!")).startswith("✅")
    assert (await t.state()).squadron("A").face_up == "Down!"  # both picks made: revealed


async def test_a_refusal_is_still_told_as_a_refusal(table: Table) -> None:
    """The other side of the line: the service's refusals keep the rules' words (❌ and what is allowed)."""
    t = table
    await open_quickstart(t)
    text = answer_text(await t.cmd(BOB, "order", line="A: pick Down!"))
    assert text.startswith("❌") and not text.startswith(FAULT), text
