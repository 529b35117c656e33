"""Issue 22, property 4: sealed means sealed, in every system. Over random interleavings of sealing,
revealing, resolving and sealing again (through each system's own decide and apply), a sealed
order never changes once the reveal of its turn or impulse has begun: it leaves the order book only
by being revealed, as it was sealed. The one way back is a step the rules give: Captain's Sea's
"Select Maneuver (if not 12th Impulse)" after a ship's maneuver is revealed, and its "Select Maneuvers
(if not already selected)" at the start of the next Activation Cycle; the ship then chooses once.

The referee's undo (game/service/referee.py) is one more move of the interleaving: it may take back
a command only where that changes no sealed order.

The watch below reads only the events and the rules' own words for when the reveal begins, never
the order book's bookkeeping, so a book that forgets to lock is caught."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from game.dice import FairDice, seed_from_number
from game.errors import RulesError
from game.systems import REFEREE_SYSTEMS
from game.systems import orders as od
from game.systems.base import GameSystem, replay
from game.systems.common import PhaseEntered
from tests.systems.captains_sea.test_game import setup as cs_setup
from tests.systems.iron_and_oak.conftest import setup as io_setup
from tests.systems.wsim.conftest import setup as wsim_setup

STEPS = 120
UNDO = "(the referee's /ref undo)"


class Watch:
    """What each slot holds, from the events alone."""

    def __init__(self, begins: Callable[[Any], bool]) -> None:
        self.begins = begins  # the rules' own moment a round's reveal begins, besides a reveal itself
        self._reset()

    def _reset(self) -> None:
        self.sealed: dict[str, str] = {}  # slot -> the text sealed and not yet revealed
        self.revealed: set[str] = set()
        self.begun = False

    def see(self, e: Any) -> None:
        if isinstance(e, od.OrdersOpened):
            assert not (self.begun and self.sealed), f"a new round drops sealed orders: {self.sealed}"
            self._reset()
        elif isinstance(e, od.OrderSubmitted):
            assert not (self.begun and e.slot in self.sealed), \
                f"{e.slot}'s sealed order {self.sealed[e.slot]!r} became {e.text!r} after the reveal began"
            assert e.slot not in self.revealed, f"{e.slot}'s revealed order was replaced without the rule's step"
            assert e.text is not None
            self.sealed[e.slot] = e.text
        elif isinstance(e, od.OrdersRevealed):
            for _, slot, text in e.orders:
                assert self.sealed.pop(slot, None) == text, f"{slot} revealed {text!r}, not what was sealed"
                self.revealed.add(slot)
            self.begun = True
        elif isinstance(e, od.OrdersCleared):
            # the rules' re-order step: only an order already revealed is done with
            assert set(e.slots) <= self.revealed, f"cleared before being revealed: {set(e.slots) - self.revealed}"
            self.revealed -= set(e.slots)
        elif isinstance(e, od.OrdersClosed):
            assert not (self.begun and self.sealed), f"sealed orders dropped after the reveal began: {self.sealed}"
            self._reset()
        elif self.begins(e):
            self.begun = True

    def undo(self, taken: list[Any], before: Watch) -> None:
        """The referee takes back a command: its events are gone, as if never played, but an order it
        sealed after the reveal began would then be sealed again knowing more."""
        if self.begun:
            sealed = [e.slot for e in taken if isinstance(e, od.OrderSubmitted)]
            assert not sealed, f"undo took back {sealed}'s order sealed after the reveal began"
        self.__dict__.update(before.__dict__)

    def agrees(self, book: od.OrderBook) -> None:
        for slot, text in self.sealed.items():
            order = book.order(slot)
            assert order is not None and order.text == text and not order.revealed, (slot, text, order)


def play(name: str, setup: dict[str, Any], lines: Callable[[Any], list[str]], begins: Callable[[Any], bool],
         data: st.DataObject) -> None:
    """Random lines from the candidates, each decided with the game's fair dice, watched event by event."""
    sysm: GameSystem[Any, Any, Any] = REFEREE_SYSTEMS[name]
    state = initial = sysm.initial_state(setup)
    seed = seed_from_number(data.draw(st.integers(0, 2**32), label="seed"))
    watch = Watch(begins)
    commands: list[tuple[list[Any], Watch]] = []  # each command's events, and the watch before it
    for _ in range(STEPS):
        line = data.draw(st.sampled_from([*lines(state), UNDO, UNDO]))
        if line == UNDO:
            if commands and not sysm.undo_refused(commands[-1][0], state):
                taken, before = commands.pop()
                watch.undo(taken, before)
                state = replay(sysm, initial, [e for events, _ in commands for e in events])
                watch.agrees(state.orders)
            continue
        try:
            events = sysm.decide(state, sysm.parse(line, state), FairDice(seed, state.log_position))
        except RulesError:
            continue
        commands.append((events, copy.deepcopy(watch)))
        for e in events:
            watch.see(e)
            state = sysm.apply(state, e)
        watch.agrees(state.orders)
    log = [e for events, _ in commands for e in events]
    assert replay(sysm, initial, log) == state
    event(f"reveals: {min(sum(isinstance(e, od.OrdersRevealed) for e in log), 5)}")
    event(f"turn reached: {min(state.turn, 3)}")


RUNS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------- Iron & Oak: the Action Phase reveals


IO_ORDERS = ("anchor", "weigh", "m0 hold", "m1", "unfoul", "refloat")
IO_ANSWERS = ("3", "5", "no", "yes", "d8", "d10", "0 0", "none")


def io_lines(state: Any) -> list[str]:
    out = ["Umpire: next"] * 6
    for s in state.ships:
        out += [f"{s.player}: order {s.id} {o}" for o in IO_ORDERS] + [f"{s.player}: reveal {s.id}"] * 3
    q = state.procedure.question if state.procedure is not None else None
    if q is not None:
        out += [f"{who}: answer {a}" for who in q.who for a in IO_ANSWERS] * 3
    return out


def io_begins(e: Any) -> bool:
    """Rule 3.0: the order cards are given in the Order Phase and revealed in the Action Phase."""
    return isinstance(e, PhaseEntered) and e.phase == "action"


@RUNS
@given(st.data())
def test_iron_and_oak_order_cards_stand_once_the_action_phase_begins(data: st.DataObject) -> None:
    play("iron_and_oak", io_setup(), io_lines, io_begins, data)


# ---------------------------------------------------------------- Captain's Sea: impulse by impulse


CS_MANEUVERS = ("straight", "turn-port", "wear", "luff")
CS_MARKS = ("2 6", "5", "1 12", "12", "none", "3 5 7 9 11")


def cs_lines(state: Any) -> list[str]:
    out = ["Umpire: next"] * 6 + ["Umpire: initiative US", "Umpire: initiative British"]
    for s in state.ships:
        out += [f"{s.player}: maneuver {s.id} {m}" for m in CS_MANEUVERS]
        out += [f"{s.player}: impulses {s.id} {m}" for m in CS_MARKS]
    return out


@RUNS
@given(st.data())
def test_captains_sea_blocks_stand_from_the_first_impulse_revealed(data: st.DataObject) -> None:
    play("captains_sea", cs_setup(), cs_lines, lambda e: False, data)


# ---------------------------------------------------------------- WS&IM: plots, boarding parties, sails


def wsim_lines(state: Any) -> list[str]:
    out = ["Umpire: next"] * 8 + ["British: grapple Victory Redoutable"]
    for s in state.ships:
        out += [f"{s.player}: plot {s.id} {m}" for m in ("0", "1", "R", "1L", "2")]
        out += [f"{s.player}: sails {s.id} {m}" for m in ("full", "battle")]
        out += [f"{s.player}: board {s.id} {p}" for p in ("NBP", "DBP1")]
    return out


@RUNS
@given(st.data())
def test_wsim_plots_parties_and_sails_stand_once_revealed(data: st.DataObject) -> None:
    setup = wsim_setup(options={"hidden_sails": True})
    play("wsim", setup, wsim_lines, lambda e: False, data)
