"""The table notation round-trips: format(parse(line)) == line and parse(format(cmd)) == cmd."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.commands import (
    Activate,
    Advance,
    Crew,
    EndActivation,
    FixDice,
    KeepRoll,
    Pass,
    PickCard,
    Reroll,
    Seamanship,
    Turn,
    UseFortune,
)
from game.errors import ParseError
from game.notation import format_command, parse, resolve
from game.scenario import quickstart

CANONICAL = [
    "pick A Careful Aim",
    "pick B Fire as She Bears",
    "move Kestrel",
    "move Kestrel ahead",
    "move Kestrel as large adjust +1 turn end port 30 crew reload port",
    "move Kestrel heading starboard 12.5 ahead turn start starboard 45",
    "move Kestrel cutfree back",
    "move Kestrel hold turn start port 30",
    "move Kestrel crew repair aground",
    "move Kestrel crew board Otter edge bow",
    "move Kestrel crew landing 4.5 20",
    "A: move Kestrel crew flag Amazone",
    "seamanship Kestrel adjust -1",
    "advance Kestrel starboard",
    "crew Kestrel sail down",
    "crew Kestrel row",
    "done Kestrel",
    "reroll 1 3",
    "fortune",
    "keep",
    "pass Otter",
    "dice skull sail sword",
    'move "Petite Frégate" crew rally',
    "draft Flag Officer's Eye",  # an apostrophe is part of a name, never a quote
    "A: draft Lookout's Cry",
    "move Anne's crew board \"Queen Anne's Revenge\"",
]


@pytest.mark.parametrize("line", CANONICAL)
def test_canonical_lines_round_trip(line: str) -> None:
    cmd = parse(line)
    assert format_command(cmd) == line
    assert parse(format_command(cmd)) == cmd


def test_names_resolve_against_a_game() -> None:
    g = quickstart()
    assert parse("move kes", g) == Activate("Kestrel")
    assert parse("move AMAZONE", g) == Activate("Amazone")
    assert parse("pick a careful", g) == PickCard("A", "Careful Aim")
    with pytest.raises(ParseError):
        parse("move Nobody", g)


def test_a_typo_resolves_only_to_the_one_name_clearly_nearest() -> None:
    g = quickstart()
    assert parse("move Kestral", g) == Activate("Kestrel")
    assert parse("pass Otler", g) == Pass("Otter")
    assert parse("pick A Carefl Aim", g) == PickCard("A", "Careful Aim")
    with pytest.raises(ParseError, match="There is no ship called 'Nobody'"):
        parse("move Nobody", g)
    # two names about as near: refused naming both, never a guess
    with pytest.raises(ParseError, match="'Hawrk' is close to both Hawk and Hark"):
        resolve("Hawrk", ["Hawk", "Hark", "Otter"], "ship")
    assert resolve("Hawk", ["Hawk", "Hark"], "ship") == "Hawk"  # an exact name is never a typo


def test_a_hand_the_sender_may_not_see_is_never_matched() -> None:
    """Bob's typo of a card in Ann's hand stays as he wrote it: resolving it (or refusing it with the
    near names) would tell him what she holds."""
    g = quickstart()
    assert parse("pick A Carefl Aim", g, hands={"B"}) == PickCard("A", "Carefl Aim")


@pytest.mark.parametrize("line", ["", "fly Kestrel", "move", "move Kestrel turn sideways port 10",
                                  "move Kestrel adjust +2", "reroll", "reroll one", 'move "Kestrel'])
def test_malformed_lines_are_parse_errors(line: str) -> None:
    with pytest.raises(ParseError):
        parse(line)


names = st.sampled_from(["Kestrel", "Otter", "Petite Frégate", "Hoorn", "Anne's", "Queen Anne's Revenge"])
sides = st.sampled_from(["port", "starboard"])
degrees = st.integers(min_value=1, max_value=450).map(lambda d: d / 10)
players = st.sampled_from(["", "A", "B"])


@st.composite
def commands(draw: st.DrawFn) -> object:
    ship, player = draw(names), draw(players)
    seam = draw(st.one_of(
        st.none(),
        st.builds(lambda s, d: Seamanship(ship, "heading", side=s, degrees=d, player=player), sides, degrees),
        st.builds(lambda d: Seamanship(ship, "adjust", delta=d, player=player), st.sampled_from([1, -1])),
        st.just(Seamanship(ship, "cutfree", player=player)),
    ))
    turn = draw(st.one_of(st.none(), st.builds(Turn, st.sampled_from(["start", "end"]), sides, degrees)))
    direction = draw(st.sampled_from(["", "ahead", "back", "port", "starboard", "hold"]))
    adv = None if (direction == "" and turn is None) else Advance(ship, direction, turn, player=player)
    crew = draw(st.one_of(
        st.none(),
        st.builds(lambda s: Crew(ship, "reload", side=s, player=player), sides),
        st.sampled_from([Crew(ship, a, player=player) for a in ("rally", "repair", "repair_aground", "row")]),
        st.builds(lambda t, e: Crew(ship, "board", target=t, edge=e, player=player), names,
                  st.sampled_from(["", "bow", "port"])),
        st.builds(lambda t: Crew(ship, "flag", target=t, player=player), names),
        st.builds(lambda x, y: Crew(ship, "landing", x=x, y=y, player=player), degrees, degrees),
    ))
    return draw(st.sampled_from([
        Activate(ship, seam, adv, crew, player=player),
        EndActivation(ship, player),
        Pass(ship, player),
        KeepRoll(player),
        UseFortune(player),
        Reroll((1, 2), player),
        FixDice(("skull", "sail")),
        PickCard("A", "Down!"),
    ]))


@given(commands())
def test_any_command_round_trips(cmd: object) -> None:
    line = format_command(cmd)  # type: ignore[arg-type]
    assert parse(line) == cmd
    assert format_command(parse(line)) == line
