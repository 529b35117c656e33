"""Issue 22, finding 1: a sealed order is rewritten after the reveal has begun. The opponent waits for
the other side's order to be revealed and carried out, then swaps its own still-sealed order for a
better one: Iron & Oak's order cards in the Action Phase, Captain's Sea's maneuver block for a later
impulse. Both are refused, through `/ref order` and `/ref do` alike, and the order that was sealed is
the one revealed."""

from __future__ import annotations

from tests.adversary.eyes import ANN, BOB, Table, answer_text

UMA = (444444444444444444, "Uma")  # the umpire's seat: neither side's
UNEXPECTED = "Something went wrong"


async def seated(t: Table, system: str, a_seat: str, b_seat: str) -> None:
    assert "is set up" in answer_text(await t.cmd(ANN, "game", "create", system=system))
    await t.cmd(ANN, "ref", "join", seat=a_seat)
    await t.cmd(BOB, "ref", "join", seat=b_seat)
    await t.cmd(UMA, "ref", "join", seat="Umpire")


async def ok(t: Table, user: tuple[int, str], line: str, secret: bool = False) -> str:
    a = answer_text(await t.cmd(user, "ref", "order" if secret else "do", line=line))
    assert not a.startswith("❌"), (line, a)
    return a


async def refused(t: Table, user: tuple[int, str], line: str) -> None:
    """The swap is refused the same way through either command, and the game does not move."""
    before = await t.service.store.repo.version_of(1)
    for sub in ("order", "do"):
        a = answer_text(await t.cmd(user, "ref", sub, line=line))
        assert a.startswith("❌") and "Sealed" not in a and UNEXPECTED not in a, (sub, line, a)
        assert "sealed" in a.lower() and "reveal" in a.lower(), a  # says what is wrong: the reveal has begun
    assert await t.service.store.repo.version_of(1) == before


async def test_iron_and_oak_an_order_card_stands_once_the_action_phase_reveals(table: Table) -> None:
    t = table
    await seated(t, "iron_and_oak", "Union", "Confederate")
    await ok(t, UMA, "next")
    await ok(t, UMA, "next")  # the Order Phase
    await ok(t, ANN, "order Monitor anchor", secret=True)
    await ok(t, BOB, "order Virginia anchor", secret=True)
    await ok(t, ANN, "order Minnesota anchor", secret=True)
    await ok(t, BOB, "order Jamestown anchor", secret=True)
    await ok(t, UMA, "next")  # the Action Phase: the reveal begins
    await refused(t, ANN, "order Monitor weigh")  # not even before the first card is turned
    await ok(t, BOB, "reveal Virginia")  # its order is resolved (the map gives the depth)
    await refused(t, ANN, "order Monitor weigh")
    await refused(t, ANN, "order Monitor m1 C3")
    mark = t.mark()
    await ok(t, ANN, "reveal Monitor")
    revealed = [i.text for i in t.public(mark) if "Revealed:" in i.text]
    assert len(revealed) == 1 and "Monitor: anchor" in revealed[0], revealed


async def test_captains_sea_a_chosen_block_stands_for_a_later_impulse(table: Table) -> None:
    t = table
    await seated(t, "captains_sea", "US", "British")
    for line in ("next", "next", "initiative US", "next"):
        await ok(t, UMA, line)
    await ok(t, ANN, "bearing Constitution C")
    await ok(t, BOB, "bearing Guerriere D")
    await ok(t, ANN, "impulses Constitution 2 6")
    await ok(t, BOB, "impulses Guerriere 5")
    await ok(t, UMA, "next")  # the Activation Cycle
    await ok(t, ANN, "maneuver Constitution turn-port", secret=True)
    await ok(t, BOB, "maneuver Guerriere straight", secret=True)
    mark = t.mark()
    await ok(t, UMA, "next")  # impulse 2: Constitution's block is turned over
    assert any("Constitution: turn-port" in i.text for i in t.public(mark))
    await refused(t, BOB, "maneuver Guerriere wear")  # the block already chosen for impulse 5
    await ok(t, ANN, "maneuver Constitution straight", secret=True)  # the rule's own step: select the next
    await refused(t, ANN, "maneuver Constitution luff")  # ... once
    mark = t.mark()
    await ok(t, UMA, "next")  # impulse 5
    assert any("Guerriere: straight" in i.text for i in t.public(mark)), [i.text for i in t.public(mark)]
