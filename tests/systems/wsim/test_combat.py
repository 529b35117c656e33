"""The CB fire calculator, ammunition, critical hits with their sub-rolls, destroyed hulls, melee,
grappling and fouling, repairs, blasts, and what other players may see of a ship log."""

from __future__ import annotations

from typing import Any

import pytest

from game.dice import ScriptedDice
from game.model import evolve
from game.systems import orders as od
from game.systems.common import Step
from game.systems.tables import load_tables
from game.systems.wsim import SYSTEM
from game.systems.wsim import events as ev
from game.systems.wsim.apply import apply
from game.systems.wsim.combat import apply_critical
from game.systems.wsim.fire import calculate, parse_hits
from game.systems.wsim.model import Broadside, Fire, Melee, Options, Party, Wind, WsimGame
from tests.systems.helpers import Table, quote
from tests.systems.wsim.conftest import at, keep_phases, setup

T = load_tables("wsim")


def test_every_modifier_of_the_mfn(table: Table) -> None:
    v = evolve(
        table.state.ship("Victory"), hull_lost=9, crew_lost=(10, 0, 0), anchored="A", captured=True,
        broadsides_fired=10, fire_turns=2, fire_penalty=4,
        broadsides=(Broadside("left", "R", obscured=2, initial_used=True), Broadside("right", "R")),
    )
    calc = calculate(v, "left", table.state.ship("Redoutable"), 3, True, "", 1, Wind(1, 6), Options(fatigue=True), T, ())
    assert calc.parts == (
        ("Fire Base (half broadside)", 8), ("2 carronade(s)", 2), ("crew Cr", 4), ("9 hull lost", -2),
        ("1 crew section(s) lost", -2), ("captured", -3), ("anchored", 3), ("fatigue", -2), ("broadside obscured", -2),
        ("storm", -4), ("fire on board", -4), ("other (referee)", 1),
    )
    assert calc.mfn == -1


def test_grape_shot_needs_no_roll(table: Table) -> None:
    t = at(table, "H", Victory={"broadsides": (Broadside("left", "G"), Broadside("right", "R"))},
           Redoutable={"parties": (Party("DBP", (1,)),)})
    assert "reaches 1 hex" in t.refused("British: fire Victory left Redoutable range 2").text
    events = t.play("British: fire Victory left Redoutable range 1")
    # 20 + carronades 4 + Crack 4 + initial 4 = 32: Critical Number 5 = five crew hits, no critical roll
    assert t.state.fire(1) == Fire(1, "Victory", "left", "Redoutable", 1, "crew", "G", "", 32, 32, 5, "5C")
    assert "grape shot" in t.lines(events)[0]
    t.play("Umpire: next")
    assert t.state.ship("Redoutable").crew_lost == (6, 0, 0)  # 5, and 1 more for the boarding party (2nd ed.)


def test_chain_shot_aims_at_rigging_and_its_hull_hits_do_not_count(table: Table) -> None:
    t = at(table, "H", Victory={"broadsides": (Broadside("left", "C"), Broadside("right", "R"))})
    assert "reaches 3 hex" in t.refused("British: fire Victory left Redoutable range 4").text
    t.play("British: fire Victory left Redoutable range 3", 1, 1, 1)
    f = t.state.fire(1)
    assert f is not None and f.aim == "rigging" and f.mfn == 16 + 2 + 4 + 3 + 3  # chain +3
    t.play("Umpire: hits 1 2H1R")
    t.play("Umpire: next")
    assert t.state.ship("Redoutable").hull_lost == 0 and t.state.ship("Redoutable").rigging_lost == (1, 0, 0, 0)


def test_aim_rules(table: Table) -> None:
    t = at(table, "H", Victory={"grappled": ("Redoutable",)}, Redoutable={"grappled": ("Victory",)})
    assert "aimed at the rigging" in t.refused("British: fire Victory left Redoutable range 6 aim hull").text
    assert "each other's rigging" in t.refused("British: fire Victory left Redoutable range 1 aim rigging").text
    assert "friendly" in t.refused("British: fire Victory left Victory range 1").text
    at(t, "H", Victory={"guns": 1, "grappled": ()})
    assert "1 gun(s) cannot fire at range 7" in t.refused("British: fire Victory left Redoutable range 7").text


def _critical(state: WsimGame, fire: Fire, *faces: int) -> tuple[WsimGame, list[Any]]:
    step = Step(state, ScriptedDice(str(f) for f in faces), apply)
    apply_critical(step, fire, T)
    return step.state, step.events


def _fire(effect: str, roll: int, aim: str = "hull", rng: int = 2, rake: str = "", hits: str = "0") -> Fire:
    return Fire(1, "Victory", "left", "Redoutable", rng, aim, "R", rake, 20, 30, 4, hits, roll, effect)


def test_critical_sub_rolls(table: Table) -> None:
    s = table.state
    new, _ = _critical(s, _fire("Broadside Obscured", 3, "rigging"), 3)
    r = new.ship("Redoutable")
    assert r.broadside("left").obscured == 3 and r.rigging_lost == (2, 0, 0, 0)
    new, _ = _critical(s, _fire("Fire Breaks Out", 14), 4)
    assert (new.ship("Redoutable").fire_turns, new.ship("Redoutable").fire_penalty) == (4, 8)
    new, events = _critical(s, _fire("Fire Breaks Out", 14), 6)
    assert new.ship("Redoutable").status == "exploded" and any("blast Redoutable" in getattr(e, "text", "") for e in events)
    new, _ = _critical(s, _fire("Magazine may Explode", 11, rng=2), 2)
    assert new.ship("Redoutable").status == "exploded"
    new, _ = _critical(s, _fire("Magazine may Explode", 11, rng=2), 3)
    assert new.ship("Redoutable").status == ""
    new, _ = _critical(s, _fire("Mast May Fall", 8, "rigging", rng=2), 6, 6)
    assert new.ship("Redoutable").rigging_lost == (0, 0, 0, 0)
    new, _ = _critical(s, _fire("Mast May Fall", 8, "rigging", rng=2), 3, 4, 1, 2)  # falls; optional VIII: over the right
    assert new.ship("Redoutable").rigging_lost == (6, 0, 0, 0) and new.ship("Redoutable").mast_over == "right"
    new, _ = _critical(s, _fire("Steering Damage", 8), 5)
    assert new.ship("Redoutable").turning_lost == 1
    new, _ = _critical(s, _fire("Steering Damage", 8), 2)
    assert new.ship("Redoutable").turning_lost == 0
    new, _ = _critical(s, _fire("Crew Demoralized", 7), 3)  # 3 + Average 3 - 0 = 6: drops a level
    assert new.ship("Redoutable").quality == "Gr"
    new, _ = _critical(s, _fire("Crew Demoralized", 7), 4)
    assert new.ship("Redoutable").quality == "Av"
    new, _ = _critical(s, _fire("Leader Casualty", 3, rng=1), 6, 1)  # 7 + 5 at range 1 = 12: Lucas dies
    assert new.ship("Redoutable").leaders == ()
    anchored = s.with_ship(evolve(s.ship("Redoutable"), anchored="AB"))
    new, _ = _critical(anchored, _fire("Anchor Cable", 4))
    assert new.ship("Redoutable").anchored == "" and new.ship("Redoutable").anchor_lost


def test_rake_bonus_readings(table: Table) -> None:
    s = table.state
    new, _ = _critical(s, _fire("Rake Bonus", 2, rng=3, rake="stern", hits="2H1C"))
    assert new.ship("Redoutable").hull_lost == 2 and new.ship("Redoutable").crew_lost == (1, 0, 0)
    new, events = _critical(s, _fire("Rake Bonus", 2, rng=4, rake="stern", hits="2H1C"))
    assert new.ship("Redoutable") == s.ship("Redoutable") and "more than 3" in events[0].outcome
    new, events = _critical(s, _fire("Rake Bonus", 7, "rigging", rng=5))
    assert "not a rake" in events[0].outcome
    new, _ = _critical(s, _fire("Rake Bonus", 13, "rigging", rng=5, rake="bow"), 3)  # the mast falls free
    assert new.ship("Redoutable").rigging_lost == (6, 0, 0, 0) and new.ship("Redoutable").mast_over == ""
    new, _ = _critical(s, _fire("Rake Bonus", 1, "rigging", rng=4, rake="bow"))
    assert new.ship("Redoutable").rigging_lost == (0, 0, 0, 0)


def test_criticals_apply_in_random_order_after_all_hits(table: Table) -> None:
    t = at(table, "H")
    t.state = evolve(t.state, fires=(
        _fire("Steering Damage", 8, hits="1H"),
        Fire(2, "Redoutable", "left", "Victory", 2, "hull", "R", "", 15, 20, 2, "1C", 8, "Steering Damage"),
    ))
    # a d2 picks which critical comes first (the second: Victory's steering, a 1), then Redoutable's (a 2)
    events = t.play("Umpire: next", 2, 1, 2)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("DamageMarked") < kinds.index("ShipChanged") < kinds.index("CriticalApplied")
    assert ev.CriticalApplied("Redoutable", "Steering Damage", "the steering holds") in events
    assert t.state.ship("Victory").turning_lost == 1 and t.state.ship("Redoutable").turning_lost == 0


def test_destroyed_hull_and_sinking_in_a_later_unfouling_phase(table: Table) -> None:
    t = at(table, "H", Redoutable={"hull_lost": 18})
    t.play("Umpire: mark Redoutable 2H", 5)
    assert (t.state.ship("Redoutable").status, t.state.ship("Redoutable").doom) == ("struck", "may sink")
    assert "no one may fire" in t.refused("British: fire Victory left Redoutable range 2").text
    at(t, "B", turn=2)
    events = t.play("Umpire: next", 6)
    assert t.state.ship("Redoutable").status == "sunk" and "it sinks" in " ".join(t.lines(events))


def test_melee_to_three_to_one(table: Table) -> None:
    t = at(table, "I", Victory={"grappled": ("Redoutable",), "parties": (Party("OBP", (1, 2), "Redoutable"),)},
           Redoutable={"grappled": ("Victory",)})
    # Victory: 20 Crack squares = 80; rolls 2 +1 (OBP vs DBP) -1 (class 1 vs 3) = 2: 4 squares lost
    # Redoutable's first section (8 Average = 24) defends: rolls 6 -2 (DBP) +2 (class 3 vs 1) = 6: none lost
    events = t.play("British: melee Victory Redoutable", 2, 6)
    assert ev.MeleeRound("Victory", "Redoutable", 1, 80, 24, 0, 4) in events
    assert t.state.ship("Redoutable").status == "captured" and t.state.melees == ()


def test_a_melee_carries_on_next_turn(table: Table) -> None:
    t = at(table, "I", Victory={"grappled": ("Redoutable",), "parties": (Party("OBP", (1,), "Redoutable"),), "quality": "Av"},
           Redoutable={"grappled": ("Victory",), "ship_class": 1})
    # 30 against 24, equal classes; three rounds of 5s and 6s: no losses, no decision
    t.play("British: melee Victory Redoutable", 5, 6, 5, 6, 5, 6)
    assert t.state.melees == (Melee("Victory", "Redoutable", (1,), (1,), 3),)
    assert "three rounds" in t.refused("British: melee Victory Redoutable").text
    at(t, "H", turn=2)
    t.play("Umpire: next")
    assert t.state.melees[0].rounds == 0


def test_grappling_and_fouling(table: Table) -> None:
    t = at(table, "F")
    t.play("British: grapple Victory Redoutable motionless 1", 3)  # 3 - 1 = 2: succeeds
    assert t.state.ship("Redoutable").grappled == ("Victory",)
    t.play("French: ungrapple Redoutable Victory", 5)
    assert t.state.ship("Redoutable").grappled == ("Victory",)
    at(t, "E")
    t.play("Umpire: collide Victory Redoutable", 2)
    assert t.state.ship("Victory").fouled == ("Redoutable",)
    at(t, "C")
    t.play("French: unfoul Redoutable Victory", 1)
    assert t.state.ship("Victory").fouled == ()


def test_repairs_take_three_turns(table: Table) -> None:
    t = at(keep_phases(table), "J", Victory={"hull_lost": 5})
    t.play("British: repair Victory hull")
    assert "under repair" in t.refused("British: load Victory left R").text
    for turn in (2, 3):
        at(t, "I", turn=turn)
        t.play("Umpire: next")
    assert t.state.ship("Victory").hull_lost == 3 and t.state.ship("Victory").repair == ""


def test_a_blast_under_optional_rule_x(table: Table) -> None:
    t = at(table, "I", Redoutable={"status": "exploded"})
    events = t.play("Umpire: blast Redoutable Victory", 3, 3, 2)
    f = t.state.fire(1)
    # twice the Fire Base of 9 guns at range 1 (13): 26 + 6 = 32; rigging hits from the printed row
    assert f is not None and (f.mfn, f.ffn, f.hits, f.blast) == (26, 32, None, True)
    assert t.state.ship("Victory").fire_turns == 2
    assert any("FFN 32, rigging column" in x for x in t.lines(events))
    t.play("Umpire: hits 1 2R1C")
    assert t.state.ship("Victory").rigging_lost == (2, 0, 0) and t.state.ship("Victory").crew_lost == (1, 0, 0)


def test_other_players_never_see_a_load(table: Table) -> None:
    t = at(keep_phases(table), "J", Victory={"broadsides": (Broadside("left"), Broadside("right", "R"))})
    events = t.play("British: load Victory left G")
    french = SYSTEM.view(t.state, "French").ship("Victory")
    assert [b.load for b in french.broadsides] == ["?", "?"]
    assert [b.load for b in SYSTEM.view(t.state, None).ship("Victory").broadsides] == ["?", "?"]
    assert [b.load for b in SYSTEM.view(t.state, "British").ship("Victory").broadsides] == ["G", "R"]
    assert [b.load for b in SYSTEM.view(t.state, "Umpire").ship("Victory").broadsides] == ["G", "R"]
    assert SYSTEM.event_for(events[0], "French").load == "?"
    assert SYSTEM.view(t.state, "French").seed == 0


@pytest.mark.parametrize(("text", "hits"), [("2H1C1R", (2, 1, 1)), ("1r3h", (3, 0, 1)), ("0", (0, 0, 0)), ("none", (0, 0, 0))])
def test_hit_notation(text: str, hits: tuple[int, int, int]) -> None:
    h = parse_hits(text)
    assert (h.hull, h.crew, h.rigging) == hits


@pytest.mark.parametrize("bad", ["2G", "H", "2H2H", "x"])
def test_bad_hit_notation(bad: str) -> None:
    from game.errors import ParseError

    with pytest.raises(ParseError):
        parse_hits(bad)


def _obscured(t: Table) -> bool:
    s = t.state
    calc = calculate(s.ship("Redoutable"), "left", s.ship("Victory"), 2, False, "", 0, s.wind, s.options, T, ())
    return ("broadside obscured", -2) in calc.parts


def test_broadside_obscured_lasts_the_next_three_turns(table: Table) -> None:
    """002 line 45: the modifier holds in the three Combat Phases after the one that caused it."""
    quote(__file__, "seed_002_tables.txt", 45, "Roll a die: 1,3,5 left bds., 2,4,6: right broadside. Apply modifier for the next 3 turns.")
    t = at(table, "H", turn=1)
    t.state = evolve(t.state, fires=(_fire("Broadside Obscured", 3, "rigging"),))
    events = t.play("Umpire: next", 3)  # odd: the left broadside
    assert "Redoutable: left broadside obscured for the next 3 turns (-2)." in t.lines(events)
    seen = []
    for turn in (2, 3, 4, 5):  # the Combat Phases after the one that caused it
        t.state = evolve(at(t, "H", turn=turn).state, fires=())
        seen.append(_obscured(t))
        ended = t.play("Umpire: next")
        if turn == 4:
            assert "Redoutable: the left broadside is no longer obscured." in t.lines(ended)
    assert seen == [True, True, True, False]


@pytest.mark.parametrize(("roll", "burning"), [(1, [-2, 0]), (2, [-4, -4, 0])])
def test_a_fire_burns_in_the_turns_after_it_breaks_out(table: Table, roll: int, burning: list[int]) -> None:
    """002 line 47: a roll of 1 is one turn of fire, and the MFN pays for it in the next Combat Phase."""
    quote(__file__, "seed_002_tables.txt", 47, "Any other roll is the number of turns needed to put out the fire. "
                                               "MFN reduced by twice this number for duration of fire.")
    t = at(table, "H", turn=1)
    t.state = evolve(t.state, fires=(_fire("Fire Breaks Out", 14),))
    events = t.play("Umpire: next", roll)
    assert f"Redoutable: fire on board for the next {roll} turn(s): MFN -{2 * roll}." in t.lines(events)
    seen = []
    for turn in range(2, 2 + len(burning)):
        t.state = evolve(at(t, "H", turn=turn).state, fires=())
        s = t.state
        calc = calculate(s.ship("Redoutable"), "left", s.ship("Victory"), 2, False, "", 0, s.wind, s.options, T, ())
        seen.append(dict(calc.parts).get("fire on board", 0))
        ended = t.play("Umpire: next")
        if turn == 1 + roll:
            assert "Redoutable: the fire is out." in t.lines(ended)
    assert seen == burning


def test_only_a_broadside_loaded_before_the_battle_fires_an_initial_broadside() -> None:
    """002 line 67 gives the Initial Broadside modifier; WS&IM loads broadsides "in the beginning of the scenario" and
    makes the first fire of each "the most carefully loaded and aimed": a broadside first loaded in play has none."""
    quote(__file__, "seed_002_tables.txt", 67, "<b>Initial Broadside</b>\t+4\t+3\t+3\t+2\t+1\t+1")
    doc = setup()
    doc["ship"][1]["load"] = {"left": "R", "right": ""}
    t = at(keep_phases(Table(SYSTEM, doc)), "J")
    loaded = t.play("French: load Redoutable right R")
    assert loaded == [ev.LoadChanged("Redoutable", "right", "R", False, "French", initial_used=True)]
    at(t, "H", turn=2)
    # the right broadside, loaded in play: 13 at range 1, Average 0, no initial broadside
    t.play("French: fire Redoutable right Victory range 1", 1, 1, 1)
    # the left, loaded before the battle: 13 + initial 4
    t.play("French: fire Redoutable left Victory range 1", 1, 1, 1)
    assert [(f.side, f.mfn) for f in t.state.fires] == [("right", 13), ("left", 17)]
    # a load stored before the flag existed decodes, and leaves the initial broadside as it was
    stored = SYSTEM.events.encode(ev.LoadChanged("Victory", "left", "R", False, "British"))
    assert "initial_used" in stored
    del stored["initial_used"]
    old = SYSTEM.events.decode(stored)
    assert old == ev.LoadChanged("Victory", "left", "R", False, "British")
    assert not apply(Table(SYSTEM, setup()).initial, old).ship("Victory").broadside("left").initial_used


def test_waterline_damage_keeps_a_crew_section_at_the_pumps(table: Table) -> None:
    """002 line 57: the section at the pumps (the last with crew left) neither works the guns nor boards nor fights."""
    quote(__file__, "seed_002_tables.txt", 57, "one crew section must be permanently assigned to keep the ship afloat for "
                                               "the rest of the game.")
    t = at(table, "G", Redoutable={"waterline": True, "grappled": ("Victory",)}, Victory={"grappled": ("Redoutable",)})
    r = t.state.ship("Redoutable")
    assert r.pumps == 3
    calc = calculate(r, "left", t.state.ship("Victory"), 2, False, "", 0, t.state.wind, t.state.options, T, ())
    assert calc.parts == (("Fire Base", 12), ("crew Av", 0), ("crew section at the pumps (waterline)", -2),
                          ("initial broadside", 3))
    t.state = SYSTEM.apply(t.state, od.OrdersOpened("board", (("French", "Redoutable"),), od.TOGETHER))
    assert "at the pumps" in t.refused("French: board Redoutable OBP1,2,3 Victory").text
    t.play("French: board Redoutable OBP1,2 Victory")
    # sections 1 and 2 wiped out: the last, at the pumps, cannot fire, defend or repair
    at(t, "H", Redoutable={"crew_lost": (8, 8, 0), "parties": (), "hull_lost": 2})
    assert "at the pumps" in t.refused("French: fire Redoutable left Victory range 2").text
    at(t, "I", Victory={"parties": (Party("OBP", (1,), "Redoutable"),)})
    assert "no crew section left to defend with" in t.refused("British: melee Victory Redoutable").text
    at(t, "J", Redoutable={"crew_lost": (8, 0, 0)})
    assert "besides the one at the pumps" in t.refused("French: repair Redoutable hull").text


def test_two_carronades_at_range_4_add_the_bonus_the_play_aid_prints_and_say_where(table: Table) -> None:
    # "2	+4	+3	+2	+1 … rules for 4+": a bonus at range 4, clean in the play aid's text though WS&IM's own
    # carronades reach 2 or 3 hexes; answered as printed, the calculation names the line
    printed = quote(__file__, "seed_002_tables.txt", 22, "2\t+4\t+3\t+2\t+1")
    assert printed.split("\t")[4] == "+1"
    t = at(table, "H")
    events = t.play("British: fire Victory left Redoutable range 4", 1, 1, 1)
    f = t.state.fire(1)
    assert f is not None and f.mfn == 15 + 1 + 4 + 2  # Fire Base 14 guns at 4, carronades, Crack, initial broadside
    line = next(x for x in t.lines(events) if x.startswith("Fire 1:"))
    assert "2 carronade(s) (as printed on line 22 of the play aid's text: WS&IM's own carronades reach 2" in line
    assert "+1, crew Cr +4" in line
    # a group whose printed sheet reads otherwise enters its own value, and the calculation says so
    t.play("Umpire: printed carronades 2 4 = 0")
    v = evolve(t.state.ship("Victory"), broadsides=(Broadside("left", "R", initial_used=True), Broadside("right", "R")))
    calc = calculate(v, "left", t.state.ship("Redoutable"), 4, False, "", 0, Wind(1, 3), Options(), T, t.state.printed)
    assert calc.parts == (("Fire Base", 15), ("2 carronade(s) (entered by the referee from the printed copy)", 0),
                          ("crew Cr", 4))


def test_three_carronades_at_range_5_answer_the_printed_plus_1() -> None:
    printed = quote(__file__, "seed_002_tables.txt", 23, "3\t+5\t+4\t+2\t+1\t+1")
    t = Table(SYSTEM, setup())
    v = evolve(t.state.ship("Victory"), carronades=3,
               broadsides=(Broadside("left", "R", initial_used=True), Broadside("right", "R")))
    calc = calculate(v, "left", t.state.ship("Redoutable"), 5, False, "", 0, Wind(1, 3), Options(), T, ())
    assert calc.parts[1] == (
        "3 carronade(s) (as printed on line 23 of the play aid's text: WS&IM's own carronades reach 2 (Basic) or 3 "
        "(Advanced) hexes; the CB play aid prints these bonuses at ranges 4-5)", int(printed.split("\t")[5]))
    assert calculate(v, "left", t.state.ship("Redoutable"), 6, False, "", 0, Wind(1, 3), Options(), T, ()).parts[1] == (
        "crew Cr", 4)  # blank beyond range 5: nothing added
