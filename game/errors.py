"""Rules errors: a stable code for programs, a sentence for players saying what was wrong and what
is allowed instead. Raising one means the command changed nothing."""

from __future__ import annotations


class RulesError(Exception):
    code = "rules"

    def __init__(self, message: str, allowed: str = "", code: str | None = None) -> None:
        self.message = message
        self.allowed = allowed
        if code is not None:
            self.code = code
        super().__init__(self.text)

    @property
    def text(self) -> str:
        return f"{self.message} {self.allowed}".strip()


class ParseError(RulesError):
    """The line is not a command in the table notation."""

    code = "parse"


class UnknownName(RulesError):
    """A ship, card or player that does not exist in this game."""

    code = "unknown-name"


class WrongPhase(RulesError):
    code = "wrong-phase"


class NotYourTurn(RulesError):
    code = "not-your-turn"


class NotYourShip(RulesError):
    code = "not-your-ship"


class IllegalAction(RulesError):
    """The command names a real thing at the right time, but the rules forbid it."""

    code = "illegal"


class RollPending(RulesError):
    code = "roll-pending"


class GameOver(RulesError):
    code = "game-over"


class DiceNotAllowed(RulesError):
    code = "dice-not-allowed"


class DataError(RulesError, ValueError):
    """A file a user wrote (data file, scenario, squadron list) is refused. Names the file, the entry
    and the field so it can be fixed; like every RulesError, nothing was changed. (Also a ValueError,
    as it was before loader errors became rules errors.)"""

    code = "data"

    def __init__(self, file: str, entry: str, field_name: str, problem: str) -> None:
        self.file = file
        self.entry = entry
        self.field = field_name
        self.problem = problem
        super().__init__(f"{file}: entry {entry!r}, field {field_name!r}: {problem}")
