"""Issue 11, item 7 (4): an undo never takes back what a player has seen and could profit from seeing
again (a revealed card, dice shown), and only the asker's opponent (or a GM) consents to one."""

from __future__ import annotations

from game import events as ev
from game.model import Phase
from tests.adversary.eyes import (
    ANN,
    BOB,
    EVE,
    GUS,
    Table,
    answer_text,
    assert_learns_nothing,
)
from tests.adversary.test_sweep import drive, make_gm_role, open_quickstart


async def refused_undo(t: Table, asker: tuple[int, str], why: str) -> None:
    """The asker's undo and a GM's are both refused for this reason, and nothing changes."""
    version = await t.version()
    for user in (asker, GUS):
        answer = answer_text(await t.cmd(user, "game", "undo"))
        assert answer.startswith("❌") and why in answer, (user[1], answer)
    assert await t.version() == version
    assert not [e for e in await t.log_events() if isinstance(e, ev.StateRestored | ev.UndoRequested)]


async def test_b_cannot_take_back_a_pick_once_as_card_is_revealed(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)  # B has chosen face down
    await t.submit(ANN, "pick A Down!")  # the reveal: B sees Down!
    await refused_undo(t, BOB, "cannot be taken back")
    await t.submit(ANN, "pick A Careful Aim")  # a face-down pick since changes nothing
    await refused_undo(t, BOB, "cannot be taken back")
    assert (await t.state()).squadron("B").face_up == "Take Courage"


async def test_b_picking_last_cannot_undo_the_reveal_either(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await t.cmd(ANN, "game", "create")
    await t.cmd(ANN, "game", "join", side="A")
    await t.cmd(BOB, "game", "join", side="B")
    await t.submit(ANN, "pick A Down!")
    await t.submit(BOB, "pick B Take Courage")  # B's own pick reveals both
    await refused_undo(t, BOB, "cannot be taken back")


async def test_an_undo_never_takes_back_dice_that_were_shown(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    # a roll awaiting its roller's choice has been shown already
    await drive(t, lambda s: s.pending is not None)
    state = await t.state()
    asker = ANN if state.pending and state.pending.player == "B" else BOB
    await refused_undo(t, asker, "its dice have been rolled and seen")
    # settled, it is still shown dice
    roller = BOB if asker is ANN else ANN
    await t.submit(roller, "keep")
    state = await t.state()
    assert state.pending is None and state.phase is not Phase.OVER
    for user in (ANN, BOB, GUS):
        answer = answer_text(await t.cmd(user, "game", "undo"))
        assert answer.startswith("❌") and "cannot be taken back" in answer, answer
    assert not [e for e in await t.log_events() if isinstance(e, ev.StateRestored | ev.UndoRequested)]


async def test_only_the_opponent_consents_and_the_undo_shows_no_secret(table: Table) -> None:
    t = table
    await make_gm_role(t)
    await open_quickstart(t)
    for user, line in ((ANN, "pick A Down!"), (ANN, "pick A Careful Aim"), (BOB, "pick B Reload!")):
        await t.submit(user, line)
    state = await t.state()
    player = state.active_player or "A"
    mover = ANN if player == "A" else BOB
    other = BOB if mover is ANN else ANN
    ship = state.ships_of(player)[0]
    assert answer_text(await t.cmd(mover, "order", line=f'move "{ship.id}"')).startswith("✅")  # no dice
    assert "Asked" in answer_text(await t.cmd(mover, "game", "undo"))
    for user, why in ((mover, "cannot be your own"), (EVE, "player on the other team who did not ask")):
        answer = answer_text(await t.cmd(user, "game", "approve-undo"))
        assert answer.startswith("❌") and why in answer, answer
    assert not [e for e in await t.log_events() if isinstance(e, ev.StateRestored)]
    mark = t.mark()
    assert not answer_text(await t.cmd(other, "game", "approve-undo")).startswith("❌")
    restored = [e for e in await t.log_events() if isinstance(e, ev.StateRestored)]
    assert restored and (await t.state()).ship(ship.id) == ship
    # the restored state went to everyone as their own view: no face-down card of the other side
    for user in (ANN, EVE, GUS):
        await assert_learns_nothing(t, user, user[1], since=mark)
