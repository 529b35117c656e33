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
