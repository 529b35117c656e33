"""Adversary probes of /ref: a secret order sent through /ref do, taking or naming a seat that is not
yours, and hostile lines."""

from __future__ import annotations

from tests.adversary.eyes import ANN, BOB, EVE, GUS, Table, answer_text
from tests.adversary.test_referee_secrets import sealed_game

UNEXPECTED = "Something went wrong on my side"


async def test_a_plot_sent_with_ref_do_is_sealed_too(table: Table) -> None:
    """Bob changes his sealed plot with /ref do (not /ref order): still nobody else reads it."""
    t = table
    await sealed_game(t)
    mark = t.mark()
    a = answer_text(await t.cmd(BOB, "ref", "do", line="plot Redoutable R1L1"))
    assert "R1L1" in a and not a.startswith("❌"), a
    for user in (ANN, EVE, GUS):
        await t.cmd(user, "ref", "log")
        await t.cmd(user, "ref", "ship", ship="Redoutable")
        for item in t.received(user, mark):
            assert not item.has("R1L1"), (user[1], item.kind, item.text[:300])


async def test_seats_are_not_taken_or_spoken_for_by_others(table: Table) -> None:
    t = table
    await sealed_game(t)
    version = (await t.service.referee.info(1)).turn
    for user in (EVE, GUS):
        a = answer_text(await t.cmd(user, "ref", "join", seat="French"))
        assert a.startswith("❌"), (user[1], a)
        for line in ("French: plot Redoutable 3", "British: plot Victory 3", "Umpire: next", "next"):
            a = answer_text(await t.cmd(user, "ref", "do", line=line))
            assert a.startswith("❌") and UNEXPECTED not in a, (user[1], line, a[:200])
    for line in ("French: plot Redoutable 3", "Umpire: next", "reveal Redoutable"):
        a = answer_text(await t.cmd(ANN, "ref", "do", line=line))
        assert a.startswith("❌") and UNEXPECTED not in a, (line, a[:200])
    assert (await t.service.referee.info(1)).turn == version
    held = {n: u for n, u, _ in (await t.service.referee.info(1)).seats}
    assert held["French"] == str(BOB[0]) and held["British"] == str(ANN[0])


async def test_hostile_ref_lines_are_refused_in_one_message(table: Table) -> None:
    t = table
    await sealed_game(t)
    for line in ("x" * 500, "roll 1000000000d1000000000", "roll 1e308d6", "roll nand6", "roll -5d6",
                 "plot Victory " + "L" * 487, "plot \u202eVictory 1", "fire Victory left Redoutable range 1e308",
                 "fire Victory left Redoutable range nan", "𝕏" * 250, "\x00"):
        a = answer_text(await t.cmd(ANN, "ref", "do", line=line))
        assert UNEXPECTED not in a and len(a) <= 2000, (line[:40], a[:300])
    for seat in ("S" * 6000, "\x00", ""):
        a = answer_text(await t.cmd(EVE, "ref", "join", seat=seat))
        assert UNEXPECTED not in a and len(a) <= 2000, (seat[:20], a[:300])
    a = answer_text(await t.cmd(EVE, "ref", "ship", ship="Q" * 6000))
    assert UNEXPECTED not in a and len(a) <= 2000, a[:300]


async def test_an_uploaded_setup_with_long_side_names_fits_the_seats_table(table: Table) -> None:
    """/game create system: wsim with a setup file whose sides are 300 characters long. seats.display_name
    is VARCHAR(100) (game/service/models.py): SQLite keeps 300 characters, PostgreSQL refuses the INSERT
    (a raw DataError). The names must be refused or cut, and every answer fit one message."""
    from sqlalchemy import select

    from game.service.models import Seat
    from game.service.referee import builtin_setups

    t = table
    long_side = "B" * 300
    text = builtin_setups("wsim")["trafalgar"].replace('"British"', f'"{long_side}"').encode()
    a = answer_text(await t.cmd(ANN, "game", "create", system="wsim",
                                attachments={"file": t.fake.attach("s.toml", text)}))
    assert UNEXPECTED not in a and len(a) <= 2000, a[:300]
    j = answer_text(await t.cmd(BOB, "ref", "join"))
    assert UNEXPECTED not in j and len(j) <= 2000, j[:300]
    offered = await t.complete(EVE, "ref", "join", "seat", "")
    assert all(len(o) <= 100 for o in offered)
    async with t.service.store.repo.session() as s:
        rows = (await s.execute(select(Seat))).scalars().all()
    assert all(len(r.display_name) <= 100 for r in rows), [len(r.display_name) for r in rows]
