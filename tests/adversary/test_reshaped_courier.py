"""The reshaped courier: one board read per drain (`Courier.deliver` keeps the `BoardRead` for the rest
of the drain), which the pick nudges check. Something may commit between the board row's read and the
nudge row (another member's interaction, another process): the pick made, the side handed over. The
nudge must then not go out on the older read. And the board read itself, field by field, shows a
spectator nothing of a hand, a pick before its reveal, or the dice seed before the end."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from game import events as ev
from game.commands import Concede
from game.model import Phase
from game.service.game_service import Actor
from game.service.results import BoardRead
from tests.adversary.eyes import ANN, BOB, EVE, Table, assert_view_keeps_secrets, hidden_cards, strings_in
from tests.adversary.test_sweep import open_quickstart
from tests.bot.fake_discord import GUILD_ID

NUDGE = "Your initiative card for game #1 is due"


def between_read_and_nudge(t: Table, action: Callable[[], Awaitable[object]]) -> list[BoardRead]:
    """Run `action` once, right after the courier's next board read (as another interaction landing
    while the board is drawn and posted). The reads are recorded."""
    reading = t.service.reading
    real = reading.board
    reads: list[BoardRead] = []

    async def board(game_id: int, first: int | None = None, last: int | None = None) -> BoardRead:
        read = await real(game_id, first, last)
        reads.append(read)
        if len(reads) == 1:
            await action()
        return read

    reading.board = board  # type: ignore[method-assign]
    return reads


def nudges_to(t: Table, user: tuple[int, str], since: int) -> list[Any]:
    return [i for i in t.dms_to(user, since) if i.has(NUDGE)]


async def seated_both(t: Table) -> int:
    """Ann has taken A; the mark before Bob takes B (the game begins: its board, status and nudges)."""
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    return t.mark()


async def test_no_nudge_after_the_pick_was_made_behind_the_drains_read(table: Table) -> None:
    t = table
    mark = await seated_both(t)

    async def bob_picks() -> None:
        await t.service.commands.pick(Actor(str(BOB[0]), str(GUILD_ID)), 1, "Take Courage")

    reads = between_read_and_nudge(t, bob_picks)
    await t.cmd(BOB, "game", "join", side="B")
    assert reads, "the courier read the board"
    assert (await t.state()).squadron("B").face_down == "Take Courage"
    assert nudges_to(t, ANN, mark), "Ann still owes her pick: her nudge goes out (the check tests something)"
    assert not nudges_to(t, BOB, mark), "Bob was nudged for a pick he had already made"


async def test_no_nudge_to_a_member_who_handed_the_side_over_behind_the_drains_read(table: Table) -> None:
    t = table
    mark = await seated_both(t)

    async def bob_hands_over() -> None:
        await t.service.seats.hand_over(Actor(str(BOB[0]), str(GUILD_ID)), 1, to_user=str(EVE[0]), to_name="Eve")

    reads = between_read_and_nudge(t, bob_hands_over)
    await t.cmd(BOB, "game", "join", side="B")
    assert reads
    assert {s.player: s.user_id for s in (await t.service.lobby.info(1)).seats}["B"] == str(EVE[0])
    assert nudges_to(t, ANN, mark)
    assert not nudges_to(t, BOB, mark), "Bob was nudged for a side he no longer holds"


async def test_the_nudge_still_goes_when_nothing_changed_behind_the_read(table: Table) -> None:
    t = table
    mark = await seated_both(t)
    await t.cmd(BOB, "game", "join", side="B")
    assert nudges_to(t, ANN, mark) and nudges_to(t, BOB, mark)


def assert_read_keeps_secrets(read: BoardRead, state: Any, log: list[Any], seed: str) -> None:
    """Every field of a board read, as a spectator may see it."""
    assert read.spectator.viewer is None
    assert_view_keeps_secrets(read.spectator, state, log)
    hidden = hidden_cards(state, log, [])
    for name in ("info", "events", "waiting", "due", "owed", "deadline", "status_message", "overrides"):
        leaked = hidden & set(strings_in(getattr(read, name)))
        assert not leaked, f"the board read's {name} holds {sorted(leaked)}"
    assert seed not in "\n".join(strings_in(read)), "the dice seed in a board read before the end"


async def test_every_field_of_a_board_read_keeps_the_secrets(table: Table) -> None:
    t = table
    await open_quickstart(t)  # Bob has chosen Take Courage face down; Ann has not chosen yet
    state, log, seed = await t.state(), await t.log_events(), await t.seed()
    first = min(i for i, e in enumerate(log, 1) if isinstance(e, ev.CardPicked))
    read = await t.service.reading.board(1, first, len(log))  # tells Bob's pick, face down
    assert read.seed is None and read.owed == ("A",)
    assert "Take Courage" in hidden_cards(state, log, [])
    assert_read_keeps_secrets(read, state, log, seed)
    # the end: the seed is shown then, and only then
    await t.service.commands.submit(Actor(str(ANN[0]), str(GUILD_ID)), 1, Concede("A"))
    over = await t.service.reading.board(1, len(log) + 1)
    assert (await t.state()).phase is Phase.OVER and over.seed == seed


async def test_a_later_turns_pick_stays_hidden_in_the_board_read(table: Table) -> None:
    """In later turns the picks are for the next turn, made while the turn goes on: the read of the
    board after Ann's pick tells that she picked, never what."""
    from tests.adversary.test_sweep import drive

    t = table
    await open_quickstart(t)
    state = await drive(t, lambda s: s.turn >= 2 and s.phase is Phase.INITIATIVE
                        and bool(s.squadron("A").face_down) and not s.squadron("B").face_down)
    log, seed = await t.log_events(), await t.seed()
    picked = max(i for i, e in enumerate(log, 1) if isinstance(e, ev.CardPicked))
    read = await t.service.reading.board(1, picked, len(log))
    assert any(isinstance(e, ev.CardPicked) for e in read.events)
    card = state.squadron("A").face_down
    assert read.owed == ("B",) and read.seed is None
    assert read.spectator.game.squadron("A").face_down != card, "the spectator's board holds Ann's pick"
    told = [e for e in read.events if isinstance(e, ev.CardPicked)]
    assert told and all(card not in set(strings_in(e)) for e in told), told
    assert_read_keeps_secrets(read, state, log, seed)
