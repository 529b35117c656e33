"""The chapter-7 set-up of a drafted game, step by step with scripted draws and choices."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from typing import Any

import pytest

from game.apply import apply_all
from game.commands import (
    AddTerrain,
    ChooseRole,
    Command,
    Deploy,
    Draft,
    Enlist,
    FinishStep,
    PickCard,
    PlaceTerrain,
)
from game.dice import FairDice, ScriptedDice, seed_from_number
from game.engine import decide
from game.errors import IllegalAction, NotYourTurn, RulesError, WrongPhase
from game.model import Game, Phase, Status
from game.notation import format_command, parse
from game.phases.preparation import drafted_game
from game.rules_data import load_rules
from game.squadron import parse_squadron

RULES = load_rules()

ENGLISH = """
name = "Channel Squadron"
size = "skirmish"
faction = "English"
admiral = "Henry Morgan"
flagship = "Lion"
hand = ["Down!", "Careful Aim", "Take Courage", "Effective Fire", "Reload!", "Favorable Wind"]

[[ship]]
name = "Lion"
class = "Fifth Rate"

[[ship]]
name = "Hart"
class = "Sixth Rate"

[[ship]]
name = "Swallow"
class = "Sloop"

[[ship]]
name = "Dove"
class = "Corvette"
"""

DRAWS = [
    "Hold the Anchorage",  # the objective
    "Open Sea", "Coastal Waters", "Banks and Shallows",  # settings
    "Close Quarters", "Scattered", "Line of Battle",  # deployments
    "Well Provisioned", "Short-handed", "Fair Wind",  # advantages & conditions
]


def dutch() -> Any:
    text = resources.files("game.data").joinpath("oak_and_iron/squadrons/dutch_skirmish.toml").read_text()
    return parse_squadron(text)


class Table:
    """Decisions against the engine with scripted dice, keeping every event for the replay check."""

    def __init__(self, state: Game, faces: list[str] | None = None) -> None:
        self.initial = self.state = state
        self.dice = ScriptedDice(faces or [], fallback=FairDice(seed_from_number(7), 0))
        self.events: list[Any] = []

    def do(self, cmd: Command) -> list[Any]:
        events = decide(self.state, cmd, self.dice, RULES)
        self.state = apply_all(self.state, events)
        self.events += events
        return events

    def refused(self, cmd: Command, error: type[RulesError], words: str) -> None:
        before = self.state
        with pytest.raises(error) as info:
            self.do(cmd)
        assert words in str(info.value), str(info.value)
        assert self.state == before


def enlisted(faces: list[str]) -> Table:
    t = Table(drafted_game("skirmish", seed=3), faces)
    t.do(Enlist("A", dutch()))
    assert t.state.prep is not None and t.state.prep.step == "enlist"
    t.do(Enlist("B", parse_squadron(ENGLISH)))
    return t


def test_full_setup_sequence_with_scripted_choices() -> None:
    set_up_game(check=True)


def set_up_game(check: bool = False) -> Table:
    """The scripted set-up below, played to the first initiative pick (asserting each step when
    `check`). A is the attacker on the south edge, B the defender on the north edge."""
    t = enlisted(list(DRAWS))
    if not check:
        for cmd in SCRIPT:
            t.do(cmd)
        return t
    s = t.state
    assert s.prep is not None
    assert s.objective == "Hold the Anchorage"
    assert s.prep.offered == tuple(DRAWS[1:])
    assert sorted(s.event_deck) == sorted(RULES.events)  # the whole event deck, shuffled
    assert all(Status.UNDEPLOYED in ship.statuses and not ship.on_table for ship in s.ships)
    # A's admiral (value 2) beats B's (value 1): A chooses, and no Challenge Test is rolled
    assert (s.prep.step, s.prep.to_act) == ("role", "A")
    t.refused(ChooseRole("B", "attacker"), NotYourTurn, "player A's turn")
    t.do(ChooseRole("A", "attacker"))
    assert (t.state.prep.attacker, t.state.defender) == ("A", "B")

    # drafting alternates from the attacker, one card of each kind per player
    assert t.state.prep.to_act == "A"
    t.do(Draft("A", "Well Provisioned"))
    assert t.state.squadron("A").fortune == 4  # its effect: one more Fortune Point
    t.refused(Draft("A", "Close Quarters"), NotYourTurn, "player B's turn")
    t.do(Draft("B", "Short-handed"))
    t.refused(Draft("A", "Fair Wind"), IllegalAction, "already has a advantage card")
    t.do(Draft("A", "Close Quarters"))
    t.do(Draft("B", "Scattered"))
    t.do(Draft("A", "Open Sea"))
    t.do(Draft("B", "Coastal Waters"))
    prep = t.state.prep
    assert prep.offered == ()  # the rest are discarded
    assert prep.drafted_card("A", "setting") == "Open Sea" and prep.drafted_card("B", "deployment") == "Scattered"

    # terrain selection from the defender, within each player's setting
    assert (prep.step, prep.to_act) == ("select", "B")
    t.do(AddTerrain("B", "shoal"))
    t.refused(AddTerrain("A", "island"), IllegalAction, "does not allow a island")
    t.do(AddTerrain("A", "fog_bank"))
    t.refused(AddTerrain("B", "rock"), IllegalAction, "Allowed: island, landmass")  # Coastal Waters' requirement
    t.do(AddTerrain("B", "island"))
    prep = t.state.prep
    assert [p.id for p in prep.pool] == ["shoal-1", "fog-bank-1", "island-1"]

    # placement from the defender, never within Musket Shot of other terrain
    assert (prep.step, prep.to_act) == ("place", "B")
    t.do(PlaceTerrain("B", "island-1", 18, 18))
    t.refused(PlaceTerrain("A", "fog-bank-1", 21, 25), IllegalAction, "closer than Musket Shot (8\") to island-1")
    t.refused(PlaceTerrain("A", "fog-bank-1", 1, 30), IllegalAction, "not lie wholly on the table")
    t.do(PlaceTerrain("A", "fog-bank-1", 5, 30))
    t.do(PlaceTerrain("B", "shoal-1", 30, 4))
    assert [x.id for x in t.state.table.terrain] == ["island-1", "fog-bank-1", "shoal-1"]

    # adjustment from the defender: pieces wholly in one's own zone, up to Musket Shot
    prep = t.state.prep
    assert (prep.step, prep.to_act) == ("adjust", "B")
    t.refused(PlaceTerrain("B", "shoal-1", 30, 6), IllegalAction, "may not move 'shoal-1'")
    t.do(FinishStep("B"))
    t.refused(PlaceTerrain("A", "shoal-1", 30, 14), IllegalAction, "a piece moves at most Musket Shot")
    t.do(PlaceTerrain("A", "shoal-1", 28, 9))
    shoal = next(x for x in t.state.table.terrain if x.id == "shoal-1")
    assert min(p[1] for p in shoal.points) == pytest.approx(7.25, abs=0.01)

    # deployment from the defender: in the zone, spaced as Scattered says, never within Cannon Shot
    prep = t.state.prep
    assert (prep.step, prep.to_act) == ("deploy", "B")
    t.refused(Deploy("B", "Lion", 14, 20, 180), IllegalAction, "not wholly inside the deployment zone")
    t.do(Deploy("B", "Lion", 14, 25.8, 180))
    t.refused(Deploy("B", "Hart", 18, 26, 180), IllegalAction, "more than 4\" apart")
    for ship, x in (("Hart", 20), ("Swallow", 26), ("Dove", 32)):
        t.do(Deploy("B", ship, x, 26, 180))
    assert t.state.prep.to_act == "A"
    t.refused(Deploy("A", "Zeelandia", 14, 12, 0), IllegalAction, "within Cannon Shot (10.7\") of the enemy Lion")
    for i, ship in enumerate(("Zeelandia", "Vlissingen", "Brak", "Hazewind", "Zwaluw")):
        t.do(Deploy("A", ship, 4 + 4 * i, 3, 0))

    # Short-handed (B's condition on A) acts at the start; then each player picks a first card
    s = t.state
    assert s.phase is Phase.SETUP and s.prep.step == "done"
    assert s.ship("Zeelandia").fatigue == 1 and s.ship("Lion").fatigue == 0
    assert all(ship.on_table for ship in s.ships)
    assert apply_all(t.initial, t.events) == t.state
    t.do(PickCard("A", "Down!"))
    t.do(PickCard("B", "Careful Aim"))
    assert (t.state.phase, t.state.turn) == (Phase.INITIATIVE, 1)
    assert [q.face_up for q in t.state.squadrons] == ["Down!", "Careful Aim"]
    return t


SCRIPT: list[Command] = [
    ChooseRole("A", "attacker"), Draft("A", "Well Provisioned"), Draft("B", "Short-handed"),
    Draft("A", "Close Quarters"), Draft("B", "Scattered"), Draft("A", "Open Sea"), Draft("B", "Coastal Waters"),
    AddTerrain("B", "shoal"), AddTerrain("A", "fog_bank"), AddTerrain("B", "island"),
    PlaceTerrain("B", "island-1", 18, 18), PlaceTerrain("A", "fog-bank-1", 5, 30), PlaceTerrain("B", "shoal-1", 30, 4),
    FinishStep("B"), PlaceTerrain("A", "shoal-1", 28, 9),
    Deploy("B", "Lion", 14, 25.8, 180), *(Deploy("B", n, x, 26, 180) for n, x in (("Hart", 20), ("Swallow", 26),
                                                                                   ("Dove", 32))),
    *(Deploy("A", n, 4 + 4 * i, 3, 0) for i, n in enumerate(("Zeelandia", "Vlissingen", "Brak", "Hazewind", "Zwaluw"))),
]


def test_equal_admirals_roll_a_challenge_test_for_the_choice() -> None:
    # John Benbow has admiral value 2, as A's admiral: two more cards in the hand
    english_b = parse_squadron(ENGLISH.replace("Henry Morgan", "John Benbow").replace(
        '"Favorable Wind"]', '"Favorable Wind", "Adjust Position"]'))
    t = Table(drafted_game("skirmish"), [*DRAWS, *sorted(RULES.events)])
    t.do(Enlist("A", dutch()))
    # each Flagship rolls five dice for the Challenge Test, A first: B rolls more sails and swords
    t.dice.push(["skull"] * 5 + ["sail", "sword", "skull", "skull", "skull"])
    t.do(Enlist("B", english_b))
    rolls = [e for e in t.events if type(e).__name__ == "DiceRolled"]
    assert rolls and {e.player for e in rolls} == {"A", "B"}
    assert t.state.prep.to_act == "B"


def test_refusals_name_the_step_and_what_is_allowed() -> None:
    t = Table(drafted_game("skirmish"))
    t.refused(Draft("A", "Open Sea"), WrongPhase, "squadron lists step, not drafting")
    patrol = replace(dutch(), size="patrol")
    t.refused(Enlist("A", patrol), IllegalAction, "This game is a skirmish")
    t.refused(PickCard("A", "Down!"), WrongPhase, "Setup or Initiative Phase")


def test_a_piece_with_no_legal_place_is_removed() -> None:
    t = enlisted(list(DRAWS))
    t.do(ChooseRole("A", "defender"))
    for player, card in (("B", "Well Provisioned"), ("A", "Short-handed"), ("B", "Close Quarters"),
                         ("A", "Scattered"), ("B", "Banks and Shallows"), ("A", "Coastal Waters")):
        t.do(Draft(player, card))
    t.state = replace(t.state, table=replace(t.state.table, width=14.0, height=14.0))  # a small table
    for player, kind in (("A", "landmass"), ("B", "shoal"), ("A", "landmass"), ("B", "shoal")):
        t.do(AddTerrain(player, kind))
    events = t.do(PlaceTerrain("A", "landmass-1", 7, 3))
    removed = [e.piece for e in events if type(e).__name__ == "TerrainRemoved"]
    assert removed == ["shoal-1", "landmass-2", "shoal-2"]  # nothing else is Musket Shot clear of it
    assert t.state.prep.pool == () and t.state.prep.step in ("adjust", "deploy")


def test_setup_notation_round_trips() -> None:
    t = enlisted(list(DRAWS))
    for line in ("A: role attacker", "A: draft Well Provisioned", "B: terrain fog_bank", "A: place island-1 12 18 rot 30",
                 "B: finish", "A: deploy Zeelandia 10 4 heading 0"):
        cmd = parse(line, t.state if "island" not in line else None)
        assert format_command(cmd) == line
    assert parse("A: draft well prov", t.state) == Draft("A", "Well Provisioned")


def test_a_zone_with_no_room_left_widens_to_the_strip_along_the_edge() -> None:
    from game.model import Terrain, TerrainKind
    from game.phases.preparation import deployment_area

    t = enlisted(list(DRAWS))
    for cmd in SCRIPT[:15]:  # up to the deployment
        t.do(cmd)
    prep = t.state.prep
    assert prep is not None and (prep.step, prep.to_act) == ("deploy", "B")
    drafted = tuple(d if d[:2] != ("B", "deployment") else ("B", "deployment", "Corner Approach") for d in prep.drafted)
    corner = replace(t.state, prep=replace(prep, drafted=drafted))  # B's zone: 10" at the north-west corner
    t.state = corner
    t.refused(Deploy("B", "Lion", 20, 33, 180), IllegalAction, "not wholly inside the deployment zone")
    rock = Terrain("rock-9", TerrainKind.ROCK, ((0, 26), (10, 26), (10, 36), (0, 36)))  # fills the corner
    t.state = replace(corner, table=replace(corner.table, terrain=(*corner.table.terrain, rock)))
    assert deployment_area(t.state, RULES, "Lion").bounds == (0, 26, 36, 36)  # the edge, as deep as the zone
    t.do(Deploy("B", "Lion", 20, 33, 180))
    assert t.state.ship("Lion").on_table
