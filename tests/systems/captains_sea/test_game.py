"""Two turns of Captain's Sea through the pure interface: initiative, movement rates from the bearings,
the Hull Type Bonus, secret maneuvers revealed by impulse, fire combat reading both tables from one
three-dice roll, Morale rolls and the Crew Status; then replay and JSON."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from game.codec import from_data, to_data
from game.errors import NotYourShip, WrongPhase
from game.systems.base import replay
from game.systems.captains_sea import SYSTEM
from game.systems.captains_sea import events as ev
from game.systems.captains_sea.model import Volley
from game.systems.orders import OrdersRevealed
from tests.systems.helpers import Table, quote


def setup(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "players": ["US", "British"],
        "referee": "Umpire",
        "offsets": {"high": 9, "low": 2},
        "ship": [
            {"id": "Constitution", "player": "US", "hull_type": "row 1", "quality": 1, "morale": "handy",
             "track": ["Broken", "Shaken", "Steady", "Handy"]},
            {"id": "Guerriere", "player": "British", "hull_type": "Slow", "track": ["Broken", "Shaken", "Steady"]},
        ],
    }
    doc.update(changes)
    return doc


@pytest.fixture
def table() -> Table:
    return Table(SYSTEM, setup())


def _to_movement(t: Table, first: str = "US") -> None:
    while t.state.phase != "initiative":
        t.play("Umpire: next")
    t.play(f"Umpire: initiative {first}")
    t.play("Umpire: next")


def test_two_turns(table: Table) -> None:
    t = table
    t.play("Umpire: next")
    t.play("Umpire: next")
    assert "initiative is not recorded" in t.refused("Umpire: next").text
    assert isinstance(t.refused("US: initiative US"), NotYourShip)
    t.play("Umpire: initiative US")
    t.play("Umpire: next")
    t.play("US: bearing Constitution C")
    events = t.play("British: bearing Guerriere D")
    # initiative bearing C (column), the other D (row): 5/2
    assert t.state.ship("Constitution").mp == 5 and t.state.ship("Guerriere").mp == 2
    assert any("inferred" in x for x in t.lines(events))
    t.play("US: hull Constitution", 4)  # 4 + Quality 1 = 5 on row 1: +3
    assert t.state.ship("Constitution").bonus == 3
    assert "not marked yet" in t.refused("Umpire: next").text
    t.play("US: impulses Constitution 2 6 10")
    t.play("British: impulses Guerriere 6 12")
    t.play("Umpire: next")
    # every block is chosen before the first impulse is revealed ("Select Maneuvers", then "Select First Marked Impulse")
    assert t.state.phase == "activation" and SYSTEM.deciders(t.state) == {"US", "British"}

    # ---- secret maneuvers, revealed as their ship's impulse comes
    sealed = t.play("US: maneuver Constitution turn-port")
    assert t.lines(sealed, "British") == ["US seals the Constitution order."]
    assert "waits for the maneuvers of Guerriere" in t.refused("Umpire: next").text
    t.play("British: maneuver Guerriere straight")
    assert SYSTEM.view(t.state, "US").orders.order("Guerriere").text is None
    events = t.play("Umpire: next")
    assert ev.ImpulseReached(2, ("Constitution",)) in events
    assert OrdersRevealed((("US", "Constitution", "turn-port"),)) in events
    assert SYSTEM.view(t.state, "US").orders.order("Guerriere").text is None  # not marked on impulse 2: still hidden
    assert "waits for the maneuvers of Constitution" in t.refused("Umpire: next").text
    assert "the reveal has begun" in t.refused("British: maneuver Guerriere wear").text  # its block stands
    t.play("US: maneuver Constitution straight")  # the rule's step: the revealed ship selects its next
    assert "the reveal has begun" in t.refused("US: maneuver Constitution wear").text  # ... once
    t.play("Umpire: next")
    assert t.state.impulse == 6

    # ---- fire: white 4 + 3, the setup's base for Firing High 9, windward +1, Handy crew firing high +1 = 18;
    # 7 hits achieved on row 18 is the pure 7R; red 5 against a Normal crew: 2 Morale rolls
    events = t.play("US: fire Constitution Guerriere hits 7 high windward", 4, 3, 5)
    assert ev.VolleyResolved(Volley(
        "Constitution", "Guerriere", "high", 7, (4, 3), 5, 18, "7R", 2, "?", 5, 2,
        "setup's base +9, windward +1, crew handy +1")) in events
    g = t.state.ship("Guerriere")
    assert (g.rigging_hits, g.hull_hits, g.crew_hits, g.morale_rolls, g.fire_checks) == (7, 0, 0, 2, 0)
    line = t.lines(events)[-2]
    assert "2 fire check(s) if this column is printed red on your PAC" in line and "Morale rolls 2" in line
    # the reply: the setup's low 2 + white 1 + 2 - leeward 1 = 4: 3H; red 3 + Handy defender 1 = 4: row 4, which
    # prints the same values as row 3 but is clean in the PAC's text: answered as printed, with its line
    events = t.play("British: fire Guerriere Constitution hits 3 low leeward", 1, 2, 3)
    row_4 = quote(__file__, "seed_004_tables.txt", 67, "0\t1\t1\t1\t2\t2\t2\t3\t3\t3\t4\t4\t\t4")
    assert int(row_4.split("\t")[2]) == 1  # 3 hits achieved
    line = t.lines(events)[-2]
    assert "Morale rolls 1 (as printed on line 67 of the play aid's text: rows 4 and 3 print the same values" in line
    assert not any("Read the printed" in x for x in t.lines(events))
    assert t.state.ship("Constitution").hull_hits == 3 and t.state.ship("Constitution").morale_rolls == 1
    t.play("Umpire: morale Constitution passed")
    # a group whose printed PAC differs enters its own value, which answers from then on
    t.play("Umpire: printed morale_effects 4 3 = 2")
    t.play("Umpire: printed fire_check_red ≥11 7 = yes")
    assert SYSTEM.tables()["fire_check_red"].lookup(18, 7, t.state.printed).value == "yes"  # type: ignore[union-attr]
    t.play("Umpire: morale Guerriere failed")
    assert t.state.ship("Guerriere").status_label == "Shaken" and t.state.ship("Guerriere").morale_rolls == 0
    t.play("US: maneuver Constitution wear")
    t.play("British: maneuver Guerriere luff")
    t.play("Umpire: next")
    assert t.state.impulse == 10
    assert "Impulse 12 waits for the maneuvers of Constitution" in t.refused("Umpire: next").text
    t.play("US: maneuver Constitution hold")  # its last impulse this turn: the block is for the next
    t.play("Umpire: next")
    assert t.state.impulse == 12 and t.state.orders.order("Guerriere").revealed  # none chosen after the 12th
    t.play("Umpire: next")
    assert t.state.phase == "melee"
    assert isinstance(t.refused("US: maneuver Constitution luff"), WrongPhase)
    for _ in range(3):
        t.play("Umpire: next")

    # ---- turn 2: everything of the turn is reset; the entered Morale cell now answers
    assert t.state.turn == 2 and t.state.ship("Constitution").mp == -1 and t.state.initiative == ""
    _to_movement(t, "British")
    t.play("British: bearing Guerriere A")
    t.play("US: bearing Constitution B")
    assert (t.state.ship("Guerriere").mp, t.state.ship("Constitution").mp) == (7, 6)
    t.play("US: impulses Constitution 3")
    t.play("British: impulses Guerriere 3")
    t.play("Umpire: next")
    # Constitution starts the cycle with the block it chose after impulse 10; Guerriere, revealed on the
    # 12th, chooses now ("Select Maneuvers (if not already selected)")
    assert SYSTEM.deciders(t.state) == {"British"}
    assert "the reveal has begun" in t.refused("US: maneuver Constitution straight").text
    t.play("British: maneuver Guerriere straight")
    events = t.play("Umpire: next")
    assert OrdersRevealed((("US", "Constitution", "hold"), ("British", "Guerriere", "straight"))) in events
    events = t.play("British: fire Guerriere Constitution hits 3 low leeward", 1, 2, 3)
    volley = next(e.volley for e in events if isinstance(e, ev.VolleyResolved))
    assert volley.morale_rolls == 2 and t.state.ship("Constitution").morale_rolls == 2
    assert "Morale rolls 2 (entered by the referee from the printed copy)" in t.lines(events)[-2]
    assert replay(SYSTEM, t.initial, t.events) == t.state
    for e in t.events:
        assert SYSTEM.events.decode(SYSTEM.events.encode(e)) == e
    assert from_data(SYSTEM.state_type, to_data(t.state)) == t.state


def test_fire_needs_rule_11s_base_and_a_marked_impulse(table: Table) -> None:
    t = Table(SYSTEM, setup(offsets={}))
    _to_movement(t)
    t.play("US: bearing Constitution A")
    t.play("US: impulses Constitution 1")
    t.play("British: impulses Guerriere 2")
    assert isinstance(t.refused("US: fire Constitution Guerriere hits 3 high"), WrongPhase)
    t.play("Umpire: next")
    t.play("US: maneuver Constitution hold")
    t.play("British: maneuver Guerriere hold")
    t.play("Umpire: next")
    err = t.refused("US: fire Constitution Guerriere hits 3 high")
    assert "offset high N" in err.allowed
    t.play("Umpire: offset high 8")
    assert "not marked on impulse 1" in t.refused("British: fire Guerriere Constitution hits 3 high").text
    assert "12" in t.refused("US: fire Constitution Guerriere hits 13 high").allowed
    events = t.play("US: fire Constitution Guerriere hits 0 high")
    assert t.lines(events) == ["Constitution achieves no hits on Guerriere: no damage."]


def test_the_mp_lookup_and_the_hull_bonus_of_the_slow_row(table: Table) -> None:
    t = table
    events = t.play("Umpire: mp D A")
    assert t.lines(events) == ["Base Movement Points, initiative D / other A: 1/6 (rows read A-H top to bottom: inferred)."]
    _to_movement(t)
    assert t.state.phase == "movement"
    t.play("British: hull Guerriere", 6)
    assert t.state.ship("Guerriere").bonus == 3


def test_the_built_in_setup_invents_no_rule_11_base_and_the_account_names_whose_it_is() -> None:
    """004 line 84 names a "modified roll" whose base rows are in rule 11, not on the PAC: the built-in set-up gives
    none, the referee enters them, and the volley shows them as the referee's (or a setup file's), never rule 11's."""
    quote(__file__, "seed_004_tables.txt", 84, "cross reference this modified roll with the number of hits achieved on "
                                               "the Damage Effects Table")
    root = Path(__file__).parents[3]
    builtin = tomllib.loads((root / "game/data/captains_sea/setups/frigate_duel.toml").read_text(encoding="utf-8"))
    assert "offsets" not in builtin
    assert "high = 9" not in (root / "docs/systems/captains_sea.md").read_text(encoding="utf-8")
    t = Table(SYSTEM, builtin)
    _to_movement(t)
    t.play("US: bearing Constitution A")
    t.play("US: impulses Constitution 1")
    t.play("British: impulses Guerriere 2")
    t.play("Umpire: next")
    t.play("US: maneuver Constitution hold")
    t.play("British: maneuver Guerriere hold")
    t.play("Umpire: next")
    assert "offset low N" in t.refused("US: fire Constitution Guerriere hits 3 low").allowed
    events = t.play("Umpire: offset low 2")
    assert t.lines(events) == ["The referee's base row for Firing Low: +2 to the two dice (rule 11 is not on the PAC: "
                               "the value is the referee's)."]
    # white 5 + 5, the referee's base 2, a Handy crew firing low -1 = 11
    events = t.play("US: fire Constitution Guerriere hits 3 low", 5, 5, 6)
    volley = next(e.volley for e in events if isinstance(e, ev.VolleyResolved))
    assert (volley.damage_roll, volley.parts) == (11, "referee's base +2, crew handy -1")
    assert not any("rule 11" in line for line in t.lines(events))


def test_rule_11s_base_entered_once_for_a_server_is_shown_as_the_servers() -> None:
    """A server's GM enters the base rows once (table base_rows, absent from the PAC: 004 lines 48 and 54 name Firing
    High and Low only over their morale modifiers); a new game starts with them, the volley names whose they are,
    and the game's own `offset` comes first."""
    from dataclasses import replace

    from game.systems.table_entry import read_entry

    quote(__file__, "seed_004_tables.txt", 54, "Firing Low")
    root = Path(__file__).parents[3]
    t = Table(SYSTEM, tomllib.loads((root / "game/data/captains_sea/setups/frigate_duel.toml").read_text(encoding="utf-8")))
    _, server = read_entry(SYSTEM.tables(), 'table = "base_rows"\n[cells]\nlow = 2\n', "Ann")
    t.state = t.initial = replace(t.state, printed=server)  # as the service starts a game of that server
    _to_movement(t)
    t.play("US: bearing Constitution A")
    t.play("US: impulses Constitution 1")
    t.play("British: impulses Guerriere 2")
    t.play("Umpire: next")
    t.play("US: maneuver Constitution hold")
    t.play("British: maneuver Guerriere hold")
    t.play("Umpire: next")
    assert "offset high N" in t.refused("US: fire Constitution Guerriere hits 3 high").allowed  # only low was entered
    events = t.play("US: fire Constitution Guerriere hits 3 low", 5, 5, 6)
    volley = next(e.volley for e in events if isinstance(e, ev.VolleyResolved))
    assert (volley.damage_roll, volley.parts) == (11, "base +2, this server's entry by Ann, crew handy -1")
    assert not any("rule 11" in line or "rulebook" in line for line in t.lines(events))
    t.play("Umpire: offset low 3")  # the game's own value first
    events = t.play("US: fire Constitution Guerriere hits 3 low", 5, 5, 6)
    volley = next(e.volley for e in events if isinstance(e, ev.VolleyResolved))
    assert (volley.damage_roll, volley.parts) == (12, "referee's base +3, crew handy -1")
