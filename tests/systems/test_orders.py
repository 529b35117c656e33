"""Secret orders: submitted privately, hidden from other viewers in the state and the events, revealed
all together or one at a time in the owner's order."""

from __future__ import annotations

import pytest

from game.errors import IllegalAction, NotYourShip, UnknownName, WrongPhase
from game.systems import orders as od


def _book(reveal: str = od.TOGETHER) -> od.OrderBook:
    book = od.apply_orders(od.OrderBook(), od.OrdersOpened("plot", (("A", "Kestrel"), ("A", "Otter"), ("B", "Heron")), reveal))
    return book


def _submit(book: od.OrderBook, player: str, slot: str, text: str) -> tuple[od.OrderBook, od.OrderSubmitted]:
    owner = od.check_submit(book, "plot", slot, player)
    e = od.OrderSubmitted(owner, slot, text)
    return od.apply_orders(book, e), e


def test_submissions_are_hidden_from_everyone_but_the_owner() -> None:
    book, e = _submit(_book(), "A", "Kestrel", "L1R1")
    assert book.waiting_for() == {"A", "B"} and not book.complete
    assert od.order_event_for(e, "B") == od.OrderSubmitted("A", "Kestrel", None)
    assert od.order_event_for(e, None) == od.OrderSubmitted("A", "Kestrel", None)
    assert od.order_event_for(e, "A") == e
    assert book.seen_by("B").order("Kestrel") == od.SealedOrder("A", "Kestrel", None)
    assert book.seen_by("A").order("Kestrel") == od.SealedOrder("A", "Kestrel", "L1R1")
    assert book.seen_by("Umpire", sees_all=True).order("Kestrel").text == "L1R1"  # type: ignore[union-attr]


def test_an_owner_may_change_an_order_until_it_is_revealed() -> None:
    book, _ = _submit(_book(), "A", "Kestrel", "L1R1")
    book, _ = _submit(book, "A", "Kestrel", "2")
    assert [o.text for o in book.orders] == ["2"]
    book, _ = _submit(book, "A", "Otter", "1")
    book, _ = _submit(book, "B", "Heron", "0")
    assert book.complete
    revealed = od.reveal_event(book)
    assert revealed.orders == (("A", "Kestrel", "2"), ("A", "Otter", "1"), ("B", "Heron", "0"))
    book = od.apply_orders(book, revealed)
    assert all(o.revealed for o in book.seen_by("B").orders) and book.seen_by("B").order("Kestrel").text == "2"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction):
        od.check_submit(book, "plot", "Kestrel", "A")


def test_wrong_submissions() -> None:
    book = _book()
    with pytest.raises(NotYourShip):
        od.check_submit(book, "plot", "Kestrel", "B")
    with pytest.raises(UnknownName):
        od.check_submit(book, "plot", "Albatross", "A")
    with pytest.raises(WrongPhase):
        od.check_submit(book, "board", "Kestrel", "A")
    with pytest.raises(WrongPhase):
        od.check_submit(od.OrderBook(), "plot", "Kestrel", "A")


def test_one_at_a_time_in_the_owners_order() -> None:
    book = _book(od.ONE_BY_ONE)
    book, _ = _submit(book, "A", "Kestrel", "m1")
    with pytest.raises(IllegalAction, match="Not every order"):
        od.check_reveal_one(book, "Kestrel", "A")
    book, _ = _submit(book, "A", "Otter", "m2")
    book, _ = _submit(book, "B", "Heron", "anchor")
    with pytest.raises(NotYourShip):
        od.check_reveal_one(book, "Otter", "B")
    od.check_reveal_one(book, "Otter", "A")
    book = od.apply_orders(book, od.reveal_event(book, ("Otter",)))
    assert [o.slot for o in book.unrevealed()] == ["Kestrel", "Heron"]
    assert book.seen_by("B").order("Kestrel").text is None  # type: ignore[union-attr]
    assert book.seen_by("B").order("Otter").text == "m2"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="revealed already"):
        od.check_reveal_one(book, "Otter", "A")
    book = od.apply_orders(book, od.OrdersCleared(("Otter",)))
    assert book.missing() == (("A", "Otter"),)


def test_once_the_reveal_begins_no_sealed_order_changes() -> None:
    """Issue 22, finding 1: the first reveal of a round (or the phase that reveals) fixes every order
    still sealed; a slot the rules clear after its reveal is ordered once more, and that order stands."""
    book = _book(od.ONE_BY_ONE)
    for player, slot, text in (("A", "Kestrel", "m1"), ("A", "Otter", "m2"), ("B", "Heron", "anchor")):
        book, _ = _submit(book, player, slot, text)
    assert not book.revealing
    book = od.apply_orders(book, od.reveal_event(book, ("Heron",)))
    assert book.revealing
    with pytest.raises(IllegalAction, match="the reveal has begun") as refused:
        od.check_submit(book, "plot", "Kestrel", "A")
    assert refused.value.allowed == "A sealed order cannot change once the reveal of its turn has begun."
    book = od.apply_orders(book, od.OrdersCleared(("Heron",)))
    assert od.check_submit(book, "plot", "Heron", "B") == "B"
    book, _ = _submit(book, "B", "Heron", "weigh")
    with pytest.raises(IllegalAction, match="the reveal has begun"):
        od.check_submit(book, "plot", "Heron", "B")
    assert [(o.slot, o.text) for o in book.unrevealed()] == [("Kestrel", "m1"), ("Otter", "m2"), ("Heron", "weigh")]
    # a new round starts unsealed
    assert not od.apply_orders(book, od.OrdersOpened("plot", (("A", "Kestrel"),))).revealing


def test_the_phase_that_reveals_fixes_the_orders_before_any_is_revealed() -> None:
    book, _ = _submit(_book(), "A", "Kestrel", "1")
    book = od.apply_orders(book, od.RevealBegun("plot"))
    with pytest.raises(IllegalAction, match="the reveal has begun"):
        od.check_submit(book, "plot", "Kestrel", "A")
    assert od.check_submit(book, "plot", "Otter", "A") == "A"  # a slot still empty is not a change
