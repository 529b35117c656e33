"""Attack Phase with scripted dice (the online rules' The Attack Phase)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cli.play import run_script
from game import events as ev
from game.errors import IllegalAction
from game.model import Phase, Sail, ShipSide, Status
from game.table_session import TableSession
from tests.helpers import S, default_orders, plain, session

ROOT = Path(__file__).resolve().parents[2]


def to_attack(ships: list[S], **kw: object) -> TableSession:
    """Everyone lies head to wind (In the Wind's Eye) so nobody moves; A has the initiative."""
    t = session(ships, **kw)
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!"):
        t.submit_line(line)
    default_orders(t)
    assert t.state.phase is Phase.ATTACK and t.state.active_player == "A"
    return t


def duel(target_x: float = 17.5, target_heading: float = 0, target_cls: str = "Sixth Rate",
         target_extra: dict[str, object] | None = None, **kw: object) -> TableSession:
    # Light Galleon: Broadside 5, Crew 3, large base (beam 1.6); starboard side at x = 10.8
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"),
             S("Frigate", target_cls, target_x, 18, target_heading, "B", target_extra or {})]
    return to_attack(ships, **kw)


def test_rulebook_broadside_script_reproduces_fig_9() -> None:
    out = io.StringIO()
    import json

    assert run_script(ROOT / "examples" / "rulebook_broadside.txt", True, None, None, out) == 0
    frigate = next(s for s in json.loads(out.getvalue())["ships"] if s["name"] == "Frigate")
    galleon = next(s for s in json.loads(out.getvalue())["ships"] if s["name"] == "Galleon")
    assert (frigate["damage"], frigate["fatigue"]) == (2, 1)
    assert galleon["reload_markers"] == ["starboard"]


def test_rulebook_broadside_four_hits_on_fortitude_two() -> None:
    t = duel()  # 6" apart: Musket Shot
    t.submit_line("dice musket musket cannon skull sail pistol")
    t.submit_line("fire Galleon starboard Frigate")
    assert t.state.pending is not None  # the sail missed: Mike may re-roll
    t.submit_line("keep")
    f = t.state.ship("Frigate")
    assert (f.damage, f.fatigue) == (2, 1)
    assert t.state.ship("Galleon").reload == {ShipSide.STARBOARD}
    resolved = [e for e in t.events if isinstance(e, ev.AttackResolved)][-1]
    assert (resolved.band, resolved.hits, resolved.damage, resolved.fatigue) == ("musket", 4, 2, 1)
    assert t.state.active_player == "B"


def test_hits_depend_on_range_band() -> None:
    t = duel(target_x=10.8 + 0.7 + 10)  # 10" apart: Cannon Shot: only cannon and skull hit
    t.submit_line("dice musket musket cannon pistol pistol")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert [e for e in t.events if isinstance(e, ev.AttackResolved)][-1].hits == 1


def test_all_hits_need_no_reroll_prompt() -> None:
    t = duel(target_x=10.8 + 0.7 + 3)  # Pistol Shot
    t.submit_line("dice pistol pistol cannon musket musket")
    t.submit_line("fire Galleon starboard Frigate")
    assert t.state.pending is None
    assert t.state.ship("Frigate").damage == 2


def test_fatigue_reduces_dice_but_never_below_crew() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"fatigue": 4}), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    t = to_attack(ships)
    t.submit_line("dice musket musket musket musket musket")
    t.submit_line("fire Galleon starboard Frigate")
    rolled = [e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "broadside"][-1]
    assert len(rolled.faces) == 3  # 5 - 4 = 1, but never below Crew 3


def test_skill_rerolls_chosen_misses_and_fortune_rerolls_all() -> None:
    t = to_attack([S("Galleon", "Light Galleon", 10, 18, 0, "A", {"skill": 2}), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")])
    t.submit_line("dice sail sail sail musket musket")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("dice cannon cannon")
    t.submit_line("reroll 1 2")
    p = t.state.pending
    assert p is not None and p.faces[:2] == ("cannon", "cannon")
    with pytest.raises(IllegalAction):
        t.submit_line("reroll 3")  # Skill 2 used up
    t.submit_line("dice musket musket musket musket musket")
    t.submit_line("fortune")
    assert t.state.pending is None
    assert t.state.ship("Frigate").damage == 2
    assert t.state.squadron("A").fortune == 2


def test_critical_one_skull_one_damage() -> None:
    t = duel()
    t.submit_line("dice skull sail sail sail sail skull")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    f = t.state.ship("Frigate")
    assert (f.damage, f.fatigue) == (1, 1)  # 1 hit < Fortitude 2; critical skull: 1 damage


def test_critical_two_skulls_cripple() -> None:
    t = duel()
    t.submit_line("dice skull skull sail sail sail skull skull")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    f = t.state.ship("Frigate")
    assert f.crippled and f.damage == 7 and not f.out_of_action


def test_critical_two_skulls_on_a_crippled_ship_put_it_out_of_action() -> None:
    t = duel(target_extra={"damage": 7})
    t.submit_line("dice skull skull sail sail sail skull skull")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    f = t.state.ship("Frigate")
    assert f.out_of_action and f.shaken and f.crippled


def test_critical_sails_lower_sail_and_two_ground_the_ship() -> None:
    t = duel()
    t.submit_line("dice skull sail sail sail sail sail")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").sail is Sail.MINIMAL and not t.state.ship("Frigate").aground
    t2 = duel()
    t2.submit_line("dice skull skull sail sail sail sail sail")
    t2.submit_line("fire Galleon starboard Frigate")
    t2.submit_line("keep")
    f = t2.state.ship("Frigate")
    assert f.sail is Sail.MINIMAL and f.aground


def test_critical_swords_fatigue_and_helm_struck() -> None:
    t = duel()
    t.submit_line("dice skull sail sail sail sail sword")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").fatigue == 2
    t2 = duel(target_x=19)
    t2.submit_line("dice skull skull sail sail sail sword sword sword")
    t2.submit_line("fire Galleon starboard Frigate helm port")
    t2.submit_line("keep")
    f = t2.state.ship("Frigate")
    assert f.heading == pytest.approx(315)  # a Full Turn to port with the speed-2 tool (45°)
    assert f.fatigue == 2
    assert t2.state.squadron("B").admiral_lost  # Frigate is the Flagship: the sword hit the Admiral
    assert any(isinstance(e, ev.OfficerLost) for e in t2.events)


def test_raking_from_the_stern_counts_fortitude_one_and_adds_fatigue() -> None:
    # Frigate sails east, its stern toward the Galleon's starboard side
    t = duel(target_x=10.8 + 6 + 1.55, target_heading=90, target_extra={"sail": "anchored"})
    t.submit_line("dice musket musket sail sail sail")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    r = [e for e in t.events if isinstance(e, ev.AttackResolved)][-1]
    f = t.state.ship("Frigate")
    assert r.rake == "stern"
    assert (f.damage, f.fatigue) == (2, 2)  # Fortitude counts as 1; +1 Fatigue for raking


def test_raking_from_the_bow_counts_cannon_toward_criticals() -> None:
    t = duel(target_x=10.8 + 6 + 1.55, target_heading=270, target_extra={"sail": "anchored"})
    t.submit_line("dice cannon sail sail sail sail skull")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    r = [e for e in t.events if isinstance(e, ev.AttackResolved)][-1]
    f = t.state.ship("Frigate")
    assert r.rake == "bow"
    assert (f.damage, f.fatigue) == (1, 2)  # no damage from 1 hit on Fortitude 2; the cannon's critical skull


def test_small_ship_counts_fortitude_two_at_cannon_shot() -> None:
    t = duel(target_x=10.8 + 10 + 0.6, target_cls="Corvette")
    t.submit_line("dice cannon cannon cannon sail sail")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    assert t.state.ship("Frigate").damage == 1  # 3 hits on Fortitude 2 (Small at Cannon Shot)


def test_rigging_shot_halves_dice_and_only_sails_count() -> None:
    t = duel()
    t.submit_line("dice sail skull")
    t.submit_line("fire Galleon starboard Frigate aim rigging")
    t.submit_line("keep")
    rolled = [e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "broadside"][-1]
    f = t.state.ship("Frigate")
    assert len(rolled.faces) == 2  # 5 // 2
    assert f.sail is Sail.MINIMAL and f.damage == 0 and f.fatigue == 0


def test_crew_shot_needs_pistol_shot_and_swords_fatigue() -> None:
    t = duel()
    with pytest.raises(IllegalAction) as err:
        t.submit_line("fire Galleon starboard Frigate aim crew")
    assert "Pistol Shot" in err.value.text
    t2 = duel(target_x=10.8 + 0.7 + 3)
    t2.submit_line("dice sword skull")
    t2.submit_line("fire Galleon starboard Frigate aim crew")
    t2.submit_line("keep")
    f = t2.state.ship("Frigate")
    assert f.fatigue == 1 and f.damage == 0


@pytest.mark.parametrize(
    ("ships_b", "terrain", "line", "message"),
    [
        ([S("Frigate", "Sixth Rate", 10.8 + 0.7 + 12.5, 18, 0, "B")], [], "fire Galleon starboard Frigate", "Cannon Shot"),
        ([S("Frigate", "Sixth Rate", 10, 26, 0, "B")], [], "fire Galleon starboard Frigate", "broadside path"),
        ([S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")], [("island", [(13, 15), (15, 15), (15, 21), (13, 21)])],
         "fire Galleon starboard Frigate", "Land blocks"),
        ([S("Frigate", "Sixth Rate", 10.8 + 0.7 + 9, 18, 0, "B")], [], "partial Galleon Frigate", "Musket Shot"),
        ([S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")], [], "melee Galleon Frigate", "not Entangled"),
        ([S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")], [], "fire Galleon starboard Tender", "friendly"),
    ],
)
def test_illegal_attacks_say_why(ships_b: list[S], terrain: list, line: str, message: str) -> None:  # type: ignore[type-arg]
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Tender", "Sloop", 4, 30, 0, "A"), *ships_b]
    t = to_attack(ships, terrain=terrain)
    before = t.state
    with pytest.raises(IllegalAction) as err:
        t.submit_line(line)
    assert message in err.value.text
    assert t.state == before


def test_reloading_guns_cannot_fire() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A", {"reload": ["starboard"]}), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    t = to_attack(ships)
    with pytest.raises(IllegalAction) as err:
        t.submit_line("fire Galleon starboard Frigate")
    assert "reload marker" in err.value.text
    t.submit_line("dice musket musket sail")
    t.submit_line("partial Galleon Frigate")  # Partial Fire ignores reload markers, Crew 3 dice
    t.submit_line("keep")
    rolled = [e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "partial"][-1]
    assert len(rolled.faces) == 3
    assert t.state.ship("Galleon").reload == {ShipSide.STARBOARD}


def test_enemy_entangled_with_a_friend_cannot_be_shot() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Tender", "Sloop", 17.5 + 0.7 + 0.6, 18, 0, "A"),
             S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    t = session(ships)
    from dataclasses import replace

    tender = t.state.ship("Tender")
    frig = t.state.ship("Frigate")
    t.state = t.state.with_ship(replace(tender, entangled_with=frozenset({"Frigate"})))
    t.state = t.state.with_ship(replace(frig, entangled_with=frozenset({"Tender"})))
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!",
                 "move Galleon", "move Frigate", "move Tender"):
        t.submit_line(plain(t, line))
    with pytest.raises(IllegalAction) as err:
        t.submit_line("fire Galleon starboard Frigate")
    assert "Entangled with a friendly ship" in err.value.text
    t.submit_line("pass Galleon")
    t.submit_line("pass Frigate")
    t.submit_line("dice skull pistol sword musket")
    t.submit_line("melee Tender Frigate")  # Tender's side lies along Frigate: skull, pistol, sword hit
    t.submit_line("keep")
    assert t.state.ship("Frigate").fatigue == 3


def test_formation_adds_a_die() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Tender", "Sloop", 10, 18 - 1.95 - 3 - 1.2, 0, "A"),
             S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")]
    t = to_attack(ships, flagships={"A": "Galleon"})
    t.submit_line("dice musket musket musket musket musket musket")
    t.submit_line("fire Galleon starboard Frigate")
    rolled = [e for e in t.events if isinstance(e, ev.DiceRolled) and e.purpose == "broadside"][-1]
    assert len(rolled.faces) == 6


def test_fog_bank_makes_the_shot_one_band_longer() -> None:
    fog = [("fog_bank", [(12, 10), (14, 10), (14, 26), (12, 26)])]
    t = to_attack([S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B")],
                  terrain=fog)
    t.submit_line("dice musket musket cannon cannon sail")
    t.submit_line("fire Galleon starboard Frigate")
    t.submit_line("keep")
    r = [e for e in t.events if isinstance(e, ev.AttackResolved)][-1]
    assert r.band == "cannon" and r.hits == 2


def test_attack_phase_alternates_and_ends_the_turn() -> None:
    t = duel()
    t.submit_line("pass Galleon")
    assert t.state.active_player == "B"
    t.submit_line("pass Frigate")
    assert t.state.phase is Phase.INITIATIVE and t.state.turn == 2
    assert Status.OUT_OF_ACTION not in t.state.ship("Frigate").statuses


def test_close_combat_between_landing_parties() -> None:
    island = [("island", [(14, 10), (18, 10), (18, 26), (14, 26)])]
    ships = [S("Galleon", "Light Galleon", 12, 18, 0, "A", {"sail": "anchored"}),
             S("Frigate", "Sixth Rate", 20, 18, 0, "B", {"sail": "anchored"})]
    t = session(ships, terrain=island)
    for line in ("pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!",
                 "move Galleon crew landing 15 18", "move Frigate crew landing 17 18"):
        t.submit_line(line)
    assert t.state.phase is Phase.ATTACK
    with pytest.raises(IllegalAction):
        t.submit_line("melee Galleon Frigate")  # the ships are not Entangled
    t.submit_line("dice skull pistol sword musket cannon sail")  # 3 + Crew 3 dice
    t.submit_line("melee Galleon Frigate landing")
    t.submit_line("keep")
    assert t.state.ship("Frigate").fatigue == 3  # the defending party's ship takes skull, pistol, sword


def test_helm_struck_on_a_captained_ship_can_lose_the_captain() -> None:
    ships = [S("Galleon", "Light Galleon", 10, 18, 0, "A"), S("Tender", "Sloop", 4, 30, 0, "A"),
             S("Frigate", "Sixth Rate", 19, 18, 0, "B", {"captain": "Bold Captain"}),
             S("Cutter", "Corvette", 30, 30, 0, "B")]
    t = to_attack(ships, flagships={"B": "Cutter"})
    t.submit_line("dice skull skull sail sail sail sword sword skull")
    t.submit_line("fire Galleon starboard Frigate helm starboard")
    t.submit_line("keep")
    f = t.state.ship("Frigate")
    assert f.captain == "" and f.heading == pytest.approx(45)
    assert any(isinstance(e, ev.OfficerLost) and e.officer == "captain" for e in t.events)
