"""Issue 27, item 5: a campaign squadron carried from battle to battle (game/campaign.py). The ended
game is scripted: its events are the engine's own (damage, capture, sinking, the end), folded by
`apply` from the battle's real starting state."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources

import pytest

from game import events as ev
from game.apply import apply_all
from game.campaign import (
    CampaignError,
    CampaignSquadron,
    CarryOver,
    battle_list,
    battle_start,
    carry_over,
    from_list,
)
from game.model import Phase, Status
from game.rules_data import load_rules
from game.squadron import parse_squadron

RULES = load_rules()
LIST = parse_squadron(resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text())
ANN, BOB = "100000000000000111", "100000000000000222"


def squadrons() -> dict[str, CampaignSquadron]:
    return {ANN: from_list(ANN, LIST), BOB: from_list(BOB, replace(LIST, name="Maas Admiralty"))}


def ended(start_state, *events):  # type: ignore[no-untyped-def]
    return apply_all(start_state, [*events, ev.GameEnded("A", "B's squadron struck")])


def test_the_battle_puts_each_members_ships_on_the_table_by_name() -> None:
    sq = squadrons()
    start = battle_start("Battle 1", [sq[ANN]], [sq[BOB]], RULES)
    assert start.roster.players == (("A", ANN), ("B", BOB))
    # the same ship names in both lists: each gets its player's letter, and the roster says whose it is
    assert ("Zeelandia-A", ANN, "Zeelandia") in start.roster.ships
    assert ("Zeelandia-B", BOB, "Zeelandia") in start.roster.ships
    assert {s.id for s in start.state.ships} == {i for i, _, _ in start.roster.ships}
    assert all(s.damage == 0 for s in start.state.ships)


def test_sunk_and_captured_ships_leave_a_prize_joins_its_captor_and_damage_is_kept() -> None:
    sq = squadrons()
    start = battle_start("Battle 1", [sq[ANN]], [sq[BOB]], RULES)
    final = ended(start.state,
                  ev.TrackChanged("Brak-B", "damage", 3, 3),
                  ev.StatusGained("Hazewind-B", Status.SUNK),
                  ev.StatusGained("Vlissingen-B", Status.CAPTURED), ev.ControlChanged("Vlissingen-B", "A", "captured"),
                  ev.TrackChanged("Vlissingen-B", "damage", 7, 7),
                  ev.TrackChanged("Zeelandia-A", "damage", 2, 2))
    assert final.phase is Phase.OVER
    carried = carry_over(sq, final, start.roster, CarryOver(damage="kept", points=((ANN, 3), (BOB, 1))), 1)
    ann, bob = carried.squadrons
    assert [(s.name, s.fate, s.damage) for s in bob.ships] == [
        ("Zeelandia", "afloat", 0), ("Vlissingen", "captured", 7), ("Brak", "afloat", 3), ("Hazewind", "sunk", 0),
        ("Zwaluw", "afloat", 0)]
    assert [s.name for s in bob.afloat] == ["Zeelandia", "Brak", "Zwaluw"]
    # the prize keeps its damage; its name is Ann's own ship's already, so it is numbered
    prize = ann.ships[-1]
    assert (prize.name, prize.entry.cls, prize.damage, prize.prize_of) == ("Vlissingen 2", "Sixth Rate", 7, BOB)
    assert (prize.entry.captain, prize.entry.cards, prize.entry.skill) == ("", (), 0)  # a prize crew, no officers
    assert ann.ships[0].damage == 2
    assert "Vlissingen (Maas Admiralty) was captured and joins Zeeland Admiralty." in carried.lines
    # the next battle: Bob sails with three ships, Ann with six, the kept damage on them as they start
    nxt = battle_start("Battle 2", [ann], [bob], RULES)
    by_id = {s.id: s for s in nxt.state.ships}
    assert sorted(i for i, m, _ in nxt.roster.ships if m == BOB) == ["Brak-B", "Zeelandia-B", "Zwaluw-B"]
    assert by_id["Vlissingen 2"].damage == 7 and by_id["Vlissingen 2"].crippled
    assert by_id["Zeelandia-A"].damage == 2 and by_id["Brak-B"].damage == 3


def test_repaired_returned_and_no_prizes() -> None:
    sq = squadrons()
    start = battle_start("Battle 1", [sq[ANN]], [sq[BOB]], RULES)
    final = ended(start.state, ev.TrackChanged("Brak-B", "damage", 3, 3),
                  ev.StatusGained("Vlissingen-B", Status.CAPTURED), ev.ControlChanged("Vlissingen-B", "A", "captured"))
    repaired = carry_over(sq, final, start.roster, CarryOver(), 1)
    assert all(s.damage == 0 for q in repaired.squadrons for s in q.ships)
    no_prize = carry_over(sq, final, start.roster, CarryOver(prizes="none"), 1)
    assert len(no_prize.squadrons[0].ships) == 5 and no_prize.squadrons[1].ships[1].fate == "captured"
    home = carry_over(sq, final, start.roster, CarryOver(losses="return"), 1)
    assert all(s.afloat for q in home.squadrons for s in q.ships) and len(home.squadrons[0].ships) == 5


def test_fortune_reset_or_kept() -> None:
    sq = squadrons()
    start = battle_start("Battle 1", [sq[ANN]], [sq[BOB]], RULES)
    full = start.state.squadron("A").fortune
    final = ended(start.state)  # the Fortune player A has left at the end: 1
    final = replace(final, squadrons=tuple(replace(q, fortune=1) if q.player == "A" else q for q in final.squadrons))
    kept = carry_over(sq, final, start.roster, CarryOver(fortune="kept"), 1)
    assert kept.squadrons[0].fortune == 1
    assert battle_start("Battle 2", [kept.squadrons[0]], [kept.squadrons[1]], RULES).state.squadron("A").fortune == 1
    reset = carry_over(sq, final, start.roster, CarryOver(), 1)
    assert reset.squadrons[0].fortune is None
    assert battle_start("Battle 2", [reset.squadrons[0]], [reset.squadrons[1]], RULES).state.squadron("A").fortune == full


def test_a_battle_not_over_carries_nothing_and_bad_choices_are_named() -> None:
    sq = squadrons()
    start = battle_start("Battle 1", [sq[ANN]], [sq[BOB]], RULES)
    with pytest.raises(CampaignError, match="has not ended"):
        carry_over(sq, start.state, start.roster, CarryOver(), 1)
    with pytest.raises(CampaignError, match="damage cannot be 'sunk'"):
        CarryOver(damage="sunk").check()
    with pytest.raises(CampaignError, match="one side of a battle"):
        battle_start("x", [sq[ANN]], [sq[ANN]], RULES)


def test_a_lost_flagship_passes_the_flag_and_a_squadron_with_nothing_afloat_cannot_sail() -> None:
    sq = from_list(ANN, LIST)
    sunk = replace(sq, ships=tuple(replace(s, fate="sunk") if s.name == "Zeelandia" else s for s in sq.ships))
    assert battle_list(sunk).flagship == "Vlissingen"
    gone = replace(sq, ships=tuple(replace(s, fate="sunk") for s in sq.ships))
    with pytest.raises(CampaignError, match="no ship afloat"):
        battle_list(gone)


def test_a_fleet_battle_of_two_members_a_side() -> None:
    sq = squadrons()
    cat, dee = from_list("3", replace(LIST, name="Cat")), from_list("4", replace(LIST, name="Dee"))
    start = battle_start("Fleet", [sq[ANN], cat], [sq[BOB], dee], RULES)
    assert [(q.player, q.team) for q in start.state.squadrons] == [("A1", "A"), ("A2", "A"), ("B1", "B"), ("B2", "B")]
    assert len({s.id for s in start.state.ships}) == 20


def test_the_squadron_reads_back_from_its_json() -> None:
    sq = squadrons()[ANN]
    sq = replace(sq, fortune=2, ships=(replace(sq.ships[0], damage=4, fate="sunk", lost_in=3, prize_of="9"),
                                       *sq.ships[1:]))
    assert CampaignSquadron.from_json(sq.to_json()) == sq
