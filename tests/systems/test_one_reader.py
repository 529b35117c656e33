"""One reader for every notation (game/tokens.py): the assistant systems read a line's words as Oak
& Iron does, so an apostrophe is part of a name there too, and their formatted lines read back."""

from __future__ import annotations

import pytest

from game.errors import ParseError
from game.notation import parse as oak_parse
from game.systems.common import Line
from game.systems.wsim import SYSTEM as WSIM
from game.tokens import quote, read_words
from tests.systems.wsim.conftest import setup


def test_the_same_words_for_oak_and_iron_and_the_systems() -> None:
    line = 'Umpire: printed rake "Stern bow" 1 = 7 # a comment'
    assert read_words(line, ()) == ("Umpire", ["printed", "rake", "Stern bow", "1", "=", "7"])
    t = Line(line, ("printed",))
    assert (t.player, t.items) == ("Umpire", ["printed", "rake", "Stern bow", "1", "=", "7"])
    for bad in ("", "   # only a comment", 'A: "open quote'):
        with pytest.raises(ParseError):
            read_words(bad, ())
        with pytest.raises(ParseError):
            Line(bad, ())
        with pytest.raises(ParseError):
            oak_parse(bad)


def test_an_apostrophe_in_a_ship_name_round_trips_in_a_system() -> None:
    doc = setup()
    doc["ship"][0] = {**doc["ship"][0], "id": "Queen's Revenge"}
    state = WSIM.initial_state(doc)
    cmd = WSIM.parse("British: heading queen's 2", state)  # a unique prefix, apostrophe and all
    assert cmd.ship == "Queen's Revenge"
    assert WSIM.parse(WSIM.format(cmd), state) == cmd
    assert quote("Queen's Revenge") == '"Queen\'s Revenge"' and quote("Victory") == "Victory"
