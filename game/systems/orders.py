"""Secret orders with a simultaneous reveal: a state piece every assistant system shares.

A round opens for a set of slots (usually ships), each owned by a player. Owners submit their
order privately and may change it until the round's reveal begins. Other viewers see that an order
is in, never what it says, in the state and in the events. The reveal is either all at once, as
soon as the last order is in (plotted movement, boarding parties, sail changes), or one at a time
in the order the owner chooses (Iron & Oak's order cards), or a chosen subset together (the ships
marked on a Captain's Sea impulse).

Sealed means sealed: once the round's reveal has begun (its first order is revealed, or the system
says the revealing phase has started), no sealed order changes, whether or not it is revealed yet;
otherwise a player could answer what the reveal showed. The one way to order a slot again is the
step a system's rules give, which clears that slot's revealed order (`OrdersCleared`); its owner
then seals the new order once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.errors import IllegalAction, NotYourShip, UnknownName, WrongPhase

TOGETHER = "together"
ONE_BY_ONE = "one_by_one"


@dataclass(frozen=True)
class SealedOrder:
    owner: str
    slot: str
    text: str | None  # None: a viewer who may not read it
    revealed: bool = False


@dataclass(frozen=True)
class OrderBook:
    kind: str = ""  # what is being ordered ("plot", "order", "maneuver"…); "" = no round open
    slots: tuple[tuple[str, str], ...] = ()  # (owner, slot) expected this round
    orders: tuple[SealedOrder, ...] = ()
    reveal: str = TOGETHER
    revealing: bool = False  # the round's reveal has begun: every sealed order stands as it is

    @property
    def open(self) -> bool:
        return bool(self.kind)

    def order(self, slot: str) -> SealedOrder | None:
        return next((o for o in self.orders if o.slot == slot), None)

    def owner_of(self, slot: str) -> str | None:
        return next((o for o, s in self.slots if s == slot), None)

    def missing(self) -> tuple[tuple[str, str], ...]:
        have = {o.slot for o in self.orders}
        return tuple((o, s) for o, s in self.slots if s not in have)

    @property
    def complete(self) -> bool:
        return self.open and not self.missing()

    def unrevealed(self, owner: str | None = None) -> tuple[SealedOrder, ...]:
        return tuple(o for o in self.orders if not o.revealed and (owner is None or o.owner == owner))

    def waiting_for(self) -> set[str]:
        return {o for o, _ in self.missing()}

    def seen_by(self, viewer: str | None, sees_all: bool = False) -> OrderBook:
        if sees_all:
            return self
        orders = tuple(
            o if o.revealed or o.owner == viewer else replace(o, text=None) for o in self.orders
        )
        return replace(self, orders=orders)


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class OrdersOpened:
    kind: str
    slots: tuple[tuple[str, str], ...]
    reveal: str = TOGETHER


@dataclass(frozen=True)
class OrderSubmitted:
    owner: str
    slot: str
    text: str | None  # None in the copy other viewers get


@dataclass(frozen=True)
class OrdersRevealed:
    orders: tuple[tuple[str, str, str], ...]  # (owner, slot, text)


@dataclass(frozen=True)
class RevealBegun:
    """The phase that reveals the orders has begun, before any is turned over (Iron & Oak's Action
    Phase): from here the sealed orders stand."""

    kind: str


@dataclass(frozen=True)
class OrdersCleared:
    """These slots' revealed orders are done with: their owners order them afresh."""

    slots: tuple[str, ...]


@dataclass(frozen=True)
class OrdersClosed:
    kind: str


ORDER_EVENTS = (OrdersOpened, OrderSubmitted, OrdersRevealed, RevealBegun, OrdersCleared, OrdersClosed)


def apply_orders(book: OrderBook, event: object) -> OrderBook:
    if isinstance(event, OrdersOpened):
        return OrderBook(event.kind, event.slots, (), event.reveal)
    if isinstance(event, OrderSubmitted):
        kept = tuple(o for o in book.orders if o.slot != event.slot)
        return replace(book, orders=(*kept, SealedOrder(event.owner, event.slot, event.text)))
    if isinstance(event, OrdersRevealed):
        shown = {slot: text for _, slot, text in event.orders}
        return replace(
            book,
            orders=tuple(
                replace(o, text=shown[o.slot], revealed=True) if o.slot in shown else o for o in book.orders
            ),
            revealing=True,
        )
    if isinstance(event, RevealBegun):
        return replace(book, revealing=True)
    if isinstance(event, OrdersCleared):
        return replace(book, orders=tuple(o for o in book.orders if o.slot not in event.slots))
    if isinstance(event, OrdersClosed):
        return OrderBook()
    return book


def order_event_for(event: object, viewer: str | None, sees_all: bool = False) -> object:
    if isinstance(event, OrderSubmitted) and not sees_all and event.owner != viewer:
        return OrderSubmitted(event.owner, event.slot, None)
    return event


# ---------------------------------------------------------------- checks


def check_submit(book: OrderBook, kind: str, slot: str, player: str) -> str:
    """The owner of the slot, once the submission is allowed. `player` "" is hot-seat play."""
    if book.kind != kind:
        what = f"{book.kind} orders" if book.open else "no secret orders"
        raise WrongPhase(f"This is not the time for {kind} orders: the game is waiting for {what}.")
    owner = book.owner_of(slot)
    if owner is None:
        known = ", ".join(s for _, s in book.slots) or "none"
        raise UnknownName(f"{slot} has no {kind} order to give this round.", f"Orders are awaited for: {known}.")
    if player and player != owner:
        raise NotYourShip(f"{slot} belongs to {owner}.", "Each player orders only their own ships.")
    existing = book.order(slot)
    if existing is not None and existing.revealed:
        raise IllegalAction(f"{slot}'s order has been revealed already.", "A revealed order cannot change.")
    if existing is not None and book.revealing:
        raise IllegalAction(f"{slot}'s order is sealed and the reveal has begun: it stands as it was sealed.",
                            "A sealed order cannot change once the reveal of its turn has begun.")
    return owner


def check_reveal_one(book: OrderBook, slot: str, player: str) -> SealedOrder:
    if not book.open or book.reveal != ONE_BY_ONE:
        raise WrongPhase("Orders are not being revealed one at a time now.")
    o = book.order(slot)
    if o is None:
        raise IllegalAction(f"{slot} has no order to reveal.", f"Waiting for orders from: {', '.join(sorted(book.waiting_for()))}.")
    if player and player != o.owner:
        raise NotYourShip(f"{slot}'s order belongs to {o.owner}.", "The owner chooses when to reveal it.")
    if o.revealed:
        raise IllegalAction(f"{slot}'s order is revealed already.", "Each order is revealed once.")
    if not book.complete:
        raise IllegalAction(
            "Not every order is in yet.", f"Waiting for: {', '.join(s for _, s in book.missing())}."
        )
    return o


def reveal_event(book: OrderBook, slots: tuple[str, ...] | None = None) -> OrdersRevealed:
    chosen = [o for o in book.orders if not o.revealed and (slots is None or o.slot in slots)]
    return OrdersRevealed(tuple((o.owner, o.slot, o.text or "") for o in chosen))
