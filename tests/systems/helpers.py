"""Playing a system through its public interface, with scripted dice, for the system tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.dice import ScriptedDice
from game.errors import RulesError
from game.systems.base import GameSystem


class Table:
    """A game in one process: lines in, events out."""

    def __init__(self, system: GameSystem[Any, Any, Any], setup: dict[str, Any]) -> None:
        self.system = system
        self.initial = system.initial_state(setup)
        self.state = self.initial
        self.events: list[Any] = []

    def play(self, line: str, *faces: int) -> list[Any]:
        """Decide one line with exactly these dice (all must be used); return its events."""
        dice = ScriptedDice(str(f) for f in faces)
        events = self.system.decide(self.state, self.system.parse(line, self.state), dice)
        assert dice.remaining == (), f"{line!r} left dice unused: {dice.remaining}"
        for e in events:
            self.state = self.system.apply(self.state, e)
        self.events.extend(events)
        return events

    def lines(self, events: list[Any], viewer: str | None = None) -> list[str]:
        out = [self.system.account(self.system.event_for(e, viewer)) for e in events]
        return [x for x in out if x]

    def refused(self, line: str, *faces: int) -> RulesError:
        """The line is refused with a typed error and changes nothing."""
        before = self.state
        try:
            self.system.decide(self.state, self.system.parse(line, self.state), ScriptedDice(str(f) for f in faces))
        except RulesError as exc:
            assert self.state == before
            return exc
        raise AssertionError(f"{line!r} was accepted")


def fixture(test_file: str, name: str) -> list[str]:
    return (Path(test_file).parent / name).read_text(encoding="utf-8").split("\n")


def quote(test_file: str, name: str, line: int, text: str) -> str:
    """A seed's line, quoted by a test: it must stand, word for word, on that line (1-based) of the seed's whole
    copy beside the test."""
    lines = (Path(test_file).parent / name).read_text(encoding="utf-8").split("\n")
    assert text in lines[line - 1], f"{name} line {line} is {lines[line - 1]!r}, not {text!r}"
    return text
