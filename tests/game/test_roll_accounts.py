"""Roll reports say what they mean (issue 12): exact account lines, played with scripted dice."""

from __future__ import annotations

from typing import Any

from game import events as ev
from game.account import account
from game.model import PendingRoll
from game.roll_text import reroll_choices, reroll_offer
from game.table_session import TableSession
from tests.game.test_attack import duel
from tests.game.test_cards import FRIGATE, GALLEON, start
from tests.helpers import S, default_orders, session, to_movement

FAIL5 = "dice skull cannon musket pistol skull"
PASS5 = "dice sail cannon musket pistol skull"


def lines(t: TableSession, start: int = 0) -> list[str]:
    return [text for e in t.events[start:] if (text := account(e))]


def test_broadside_reports_target_band_aim_hits_damage_and_fatigue() -> None:
    # the rulebook's broadside (Fig. 9): Light Galleon (Broadside 5) at a Sixth Rate 6" away,
    # Musket Shot: musket, musket, cannon and skull hit, the sail misses; Fortitude 2 -> 2 damage
    t = duel()
    begin = len(t.events)
    t.submit_line("dice musket musket cannon skull sail pistol")  # the last die is the critical check
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    got = lines(t, begin)
    assert got[:2] == [
        "Galleon Broadside at Frigate: [musket] [musket] [cannon] [skull] [sail] — 4 hits.",
        "Galleon's Broadside at Frigate: 4 hits, 1 die missed. Player A may re-roll — Fortune: 3 left — or keep.",
    ]
    assert "Galleon critical check on Frigate: [pistol] — no effect." in got
    assert ("Galleon's starboard Broadside at Frigate (Musket Shot, aimed at the hull): 4 hits — "
            "2 damage, 1 Fatigue.") in got
    assert not any("test" in line or "success" in line for line in got)


def test_raking_shot_at_the_crew_names_aim_and_rake() -> None:
    # bow on at Pistol Shot (Frigate at anchor heading west, its bow 2.85" off Galleon's starboard side)
    t = duel(target_x=15.2, target_heading=270, target_extra={"sail": "anchored"})
    begin = len(t.events)
    t.submit_line("dice sword sword")  # Broadside 5 halved at the crew: 2 dice, swords count
    t.submit_line("fire Galleon starboard Frigate aim crew")
    got = lines(t, begin)
    assert ("Galleon's starboard Broadside at Frigate (Pistol Shot, aimed at the crew, raking from the bow): "
            "2 hits — 0 damage, 2 Fatigue.") in got


def test_failed_and_passed_skill_tests_show_target_faces_successes_and_result() -> None:
    t = session([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")], fortune=0)
    to_movement(t)
    t.submit_line(FAIL5)
    begin = len(t.events)
    t.submit_line("move Otter adjust +1")  # Skill 0, no Fortune Point: nothing to re-roll
    got = lines(t, begin)
    assert got[1] == ("Otter Skill Test (Seamanship Action), needs 1 success: "
                      "[skull] [cannon] [musket] [pistol] [skull] — 0 successes: failed.")
    assert got[2] == "Otter: adjust fails."
    t.submit_line("dice sail sword musket pistol skull")
    begin = len(t.events)
    t.submit_line("move Kestrel adjust +1")
    assert lines(t, begin)[1] == ("Kestrel Skill Test (Seamanship Action), needs 1 success: "
                                  "[sail] [sword] [musket] [pistol] [skull] — 2 successes: passed.")


def test_critical_dice_name_their_effect() -> None:
    t = duel()  # Musket Shot
    begin = len(t.events)
    t.submit_line("dice skull skull musket cannon musket sword sail")  # five hits, two critical dice
    t.submit_line("fire Galleon starboard Frigate")
    got = lines(t, begin)
    assert "Galleon critical check on Frigate: [sword] [sail] — Sail Setting down; 1 Fatigue." in got
    assert ("Galleon's starboard Broadside at Frigate (Musket Shot, aimed at the hull): 5 hits — "
            "2 damage, 2 Fatigue.") in got


def test_two_critical_skulls_name_the_escalation() -> None:
    t = duel()
    begin = len(t.events)
    t.submit_line("dice skull skull musket cannon musket skull skull")
    t.submit_line("fire Galleon starboard Frigate")
    assert ("Galleon critical check on Frigate: [skull] [skull] — 2 skulls: damage and Crippled "
            "(Out of Action if Crippled already).") in lines(t, begin)
    assert t.state.ship("Frigate").crippled


def test_careful_aim_rerolled_critical_die_reads_with_the_dice_kept() -> None:
    t = start([GALLEON, FRIGATE], "Careful Aim", "Down!", a_next="Effective Fire")
    default_orders(t)
    begin = len(t.events)
    # two skulls hit at Musket Shot; critical dice: sword and pistol; the pistol is re-rolled: skull
    t.submit_line("dice skull skull sail sail sail sword pistol skull")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    got = lines(t, begin)
    assert "Galleon critical check on Frigate: [sword] [pistol] — 1 Fatigue." in got
    assert "Galleon re-rolls 1 critical die: [skull] (kept [sword]) — 1 damage; 1 Fatigue." in got


def test_collision_dice_name_their_effect() -> None:
    ships = [S("Kestrel", "Sloop", 20, 15, 90, "A"), S("Otter", "Corvette", 20, 19.5, 180, "B")]
    t = session(ships)
    to_movement(t)
    t.submit_line("dice skull musket cannon pistol")  # Otter (Corvette, Large 4) runs into Kestrel
    begin = len(t.events)
    t.submit_line("move Otter")
    assert ("Otter collision dice (hitting Kestrel): [skull] [musket] [cannon] [pistol] — Otter takes 1 damage."
            in lines(t, begin))


def skilled() -> TableSession:
    t = session([S("Kestrel", "Sloop", 8, 20, 180, "A", {"skill": 1}), S("Otter", "Corvette", 28, 20, 180, "B")],
                fortune=2)
    to_movement(t)
    t.submit_line("move Otter")
    return t


def test_reroll_offer_names_skill_and_fortune_left() -> None:
    t = skilled()
    t.submit_line(FAIL5)
    begin = len(t.events)
    t.submit_line("move Kestrel adjust +1")
    assert lines(t, begin)[-1] == (
        "Kestrel's Skill Test (Seamanship Action) failed (0 successes, needs 1). Player A may re-roll — "
        "Skill 1: re-roll up to 1 die; Fortune: 2 left — or keep.")
    assert reroll_offer(t.state) == "Skill 1: re-roll up to 1 die; Fortune: 2 left"
    t.submit_line("dice pistol")
    begin = len(t.events)
    t.submit_line("reroll 1")
    assert lines(t, begin) == [
        "Kestrel re-rolls die 1 with Skill: [pistol] [cannon] [musket] [pistol] [skull] — 0 successes, needs 1: "
        "failed."]
    assert reroll_offer(t.state) == "Fortune: 2 left"  # the Skill re-roll is spent
    t.submit_line("dice sword cannon musket pistol skull")
    begin = len(t.events)
    t.submit_line("fortune")
    got = lines(t, begin)
    assert got[:3] == [
        "Player A spends a Fortune Point (1 left).",
        "Kestrel re-rolls all 5 dice with a Fortune Point: [sword] [cannon] [musket] [pistol] [skull] — "
        "1 success, needs 1: passed.",
        "Kestrel's Skill Test (Seamanship Action) passed.",
    ]
    assert reroll_offer(t.state) == ""


def test_reroll_choices_count_the_dice_skill_still_allows() -> None:
    p = PendingRoll("A", "Kestrel", "broadside", "hit_musket", ("sail", "musket", "sail"), ("musket",),
                    skill_rerolled=(0,), skill=2)
    assert reroll_choices(p, 1) == "Skill 2: re-roll up to 1 die (not die 1 again); Fortune: 1 left"
    assert reroll_choices(p, 0) == "Skill 2: re-roll up to 1 die (not die 1 again)"
    spent = PendingRoll("A", "Kestrel", "broadside", "hit_musket", ("sail", "sail"), ("musket",),
                        skill_rerolled=(0, 1), fortune_used=True, skill=2)
    assert reroll_choices(spent, 2) == "no re-roll left"


def test_events_stored_before_the_new_fields_still_decode_and_read() -> None:
    from game.events import EVENTS

    rolled: dict[str, Any] = {"type": "DiceRolled", "purpose": "boarding", "kind": "skill_test",
                              "faces": ["sail"], "successes": 1, "player": "A", "ship": "Kestrel"}
    old = EVENTS.decode(rolled)
    assert (old.needed, old.target, old.kept) == (0, "", ())
    assert account(old) == "Kestrel Skill Test (Boarding), needs 1 success: [sail] — 1 success: passed."
    rerolled = EVENTS.decode({"type": "DiceRerolled", "player": "A", "ship": "Kestrel", "positions": [0],
                              "faces": ["sail"], "successes": 1, "means": "skill"})
    assert account(rerolled) == "Kestrel re-rolls die 1 with Skill: [sail] — 1 success."
    pending = {"player": "A", "ship": "Galleon", "purpose": "broadside", "kind": "hit_musket",
               "faces": ["sail"], "success": ["musket"], "skill": 1}
    waiting = EVENTS.decode({"type": "RollAwaitsChoice", "pending": pending})
    assert waiting.fortune_left == -1
    assert account(waiting) == ("Galleon's Broadside: 0 hits, 1 die missed. Player A may re-roll — "
                                "Skill 1: re-roll up to 1 die; Fortune: re-roll every die — or keep.")
    resolved = EVENTS.decode({"type": "AttackResolved", "ship": "Galleon", "target": "Frigate", "kind": "close",
                              "side": "", "aim": "hull", "band": "", "hits": 1, "damage": 0, "fatigue": 1})
    assert account(resolved) == "Galleon's Close Combat against Frigate: 1 hit — 0 damage, 1 Fatigue."
    began = EVENTS.decode({"type": "ActivationBegan", "activation": {
        "ship": "Kestrel", "player": "A", "point_of_sail": "large", "speed": 4}})
    assert account(began) == "Kestrel activates: large, speed 4."
    assert EVENTS.decode(EVENTS.encode(ev.DiceRolled("critical_reroll", "critical_damage", ("skull",), 1,
                                                     kept=("sword",)))).kept == ("sword",)
