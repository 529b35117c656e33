"""Two turns of Iron & Oak through the pure interface: hidden order cards, revealed one at a time in
the owners' order, each order carried out as a guided procedure with scripted dice; then replay."""

from __future__ import annotations

from game.codec import from_data, to_data
from game.errors import IllegalAction, NotYourShip
from game.systems.base import replay
from game.systems.common import OpposedRolled
from game.systems.iron_and_oak import SYSTEM
from game.systems.iron_and_oak.model import Position
from tests.systems.helpers import Table


def test_two_turns(table: Table) -> None:
    t = table
    t.play("Umpire: next")
    t.play("Umpire: next")
    assert t.state.phase == "order" and SYSTEM.deciders(t.state) == {"Union", "Confederate"}
    sealed = t.play("Union: order Monitor m1")
    assert t.lines(sealed, "Confederate") == ["Union seals the Monitor order."]
    t.play("Union: order Minnesota anchor")
    assert SYSTEM.deciders(t.state) == {"Confederate"}
    assert SYSTEM.view(t.state, "Confederate").orders.order("Monitor").text is None
    t.play("Confederate: order Virginia ram Monitor")
    t.play("Umpire: next")
    assert t.state.phase == "action" and SYSTEM.deciders(t.state) == {"Union", "Confederate"}
    assert isinstance(t.refused("Union: reveal Virginia"), NotYourShip)

    # ---- Virginia's ram: the opponent names the hazards, everyone the cards played, then the dice
    t.play("Confederate: reveal Virginia")
    assert SYSTEM.deciders(t.state) == {"Union"}
    t.play("Union: answer none")
    # contact: Virginia d8 7 -1 = 6 against Monitor's d10d6 (3, 2): 3. Ram d10d8 (6, 8) 8 against WL d10d8 (5, 3) 5:
    # Monitor takes 3 hits; the ram check d10d8 (4, 2) 4 against d8 5 fails: a Ram CH marker
    events = t.play("answer 0 0", 7, 3, 2, 6, 8, 5, 3, 4, 2, 5)
    assert OpposedRolled("Virginia against Monitor: contact (moving ship -1)", 6, 3, True, "challenge ×2") in events
    monitor = t.state.ship("Monitor")
    assert (monitor.hits, monitor.shield) == (3, 3) and "Ram" in t.state.ship("Virginia").criticals
    assert t.state.procedure is not None and t.state.procedure.question is not None
    assert t.state.procedure.question.kind == "sunk"
    t.play("Confederate: answer none", 9, 1, 2)  # fouling check: 9 against 2, no fouling
    virginia = t.state.ship("Virginia")
    assert virginia.lockouts == (("ramspar", "Monitor", 2),) and virginia.bow_on_target == "Monitor"
    assert t.state.procedure is None and not virginia.fouled_with

    # ---- Minnesota anchors where the Shoal Depth is 4 or less
    t.play("Union: reveal Minnesota")
    assert isinstance(t.refused("Union: answer deep"), IllegalAction)
    t.play("Union: answer 3")
    assert t.state.ship("Minnesota").has("Anchored")

    # ---- Monitor's Maneuver 1: rule 5.1's Response comes from the opponent; a mine in the new Grid Box
    t.play("Union: reveal Monitor")
    assert isinstance(t.refused("Union: answer d10 drm 0"), NotYourShip)
    t.play("Confederate: answer d10 drm 0", 8, 1, 4)
    t.play("Confederate: answer shoal 2 mine", 2, 1, 9, 5)  # draft 2 in depth 2: safe; the mine: 2 against 9
    q = t.state.procedure.question  # type: ignore[union-attr]
    assert q is not None and "Mine column of your Torpedo Damage Table for d8 = 5" in q.ask
    t.play("Union: answer 2")
    monitor = t.state.ship("Monitor")
    assert (monitor.hits, monitor.shield) == (5, 4) and t.state.procedure is None
    assert SYSTEM.deciders(t.state) == {"Umpire"}

    # ---- turn 2: the ram lockout, a crossed T, a maneuver hampered by it
    for _ in range(4):
        t.play("Umpire: next")
    assert (t.state.turn, t.state.phase) == (2, "order")
    assert "may not Ram or Spar Monitor this turn" in t.refused("Confederate: order Virginia spar Monitor").text
    t.play("Confederate: order Virginia m2")
    t.play("Union: order Monitor cross Virginia bow")
    t.play("Union: order Minnesota weigh")
    t.play("Umpire: next")
    t.play("Union: reveal Monitor")
    t.play("Confederate: answer none")
    # a Quick Maneuver card on Monitor (+1) and the mover's -1: d10d6 (6, 4) 6 against Virginia's d8 3
    t.play("answer 1 0", 6, 4, 3)
    assert t.state.positions == (Position("Monitor", "Virginia", "bow"),)
    t.play("Confederate: reveal Virginia")
    # Monitor lies across Virginia's bow: -1 to any maneuver but a ram or spar: d8 5 -1 = 4 against d10 7
    events = t.play("Union: answer d10 drm 0", 5, 7)
    assert any(isinstance(e, OpposedRolled) and "across the bow -1" in e.purpose and not e.success for e in events)
    t.play("Union: reveal Minnesota")
    assert not t.state.ship("Minnesota").has("Anchored")
    assert SYSTEM.deciders(t.state) == {"Umpire"}
    assert replay(SYSTEM, t.initial, t.events) == t.state
    for e in t.events:
        assert SYSTEM.events.decode(SYSTEM.events.encode(e)) == e
    assert from_data(SYSTEM.state_type, to_data(t.state)) == t.state


def test_an_order_card_stands_once_the_action_phase_begins(table: Table) -> None:
    """Issue 22, finding 1: both sides seal `anchor`; the Confederate reveals and resolves; the Union
    may not then swap Monitor's face-down card for `weigh`, nor before any card is turned."""
    t = table
    t.play("Umpire: next")
    t.play("Umpire: next")
    t.play("Union: order Monitor anchor")
    t.play("Union: order Monitor m1")  # in the Order Phase a card may still be swapped
    t.play("Union: order Minnesota anchor")
    t.play("Confederate: order Virginia anchor")
    t.play("Umpire: next")
    assert "the reveal has begun" in t.refused("Union: order Monitor weigh").text
    t.play("Confederate: reveal Virginia")
    t.play("Confederate: answer 3")
    assert t.state.ship("Virginia").has("Anchored") and t.state.procedure is None
    for line in ("Union: order Monitor weigh", "Union: order Minnesota weigh", "Confederate: order Virginia weigh"):
        assert isinstance(t.refused(line), IllegalAction), line
    events = t.play("Union: reveal Monitor")
    assert t.lines(events)[0] == "Revealed: Monitor: m1"
