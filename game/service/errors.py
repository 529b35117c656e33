"""The service's refusals. Each is a RulesError, so every front end shows it as a plain sentence with what
is allowed instead, never as a crash."""

from __future__ import annotations

from game.errors import RulesError


class ServiceError(RulesError):
    code = "service"


class GameNotFound(ServiceError):
    code = "game-not-found"


class GameDamaged(ServiceError):
    code = "game-damaged"


class WrongGuild(ServiceError):
    code = "wrong-guild"


class NotSeated(ServiceError):
    code = "not-seated"


class NotPermitted(ServiceError):
    code = "not-permitted"


class SeatTaken(ServiceError):
    code = "seat-taken"


class ChannelBusy(ServiceError):
    code = "channel-busy"


class UndoRefused(ServiceError):
    code = "undo-refused"


class SquadronRefused(ServiceError):
    code = "squadron-refused"


class AlreadyDecided(ServiceError):
    """A button or menu answers a decision the game has moved past (a roll since settled, last turn's pick)."""

    code = "already-decided"


class OtherSystem(ServiceError):
    """The game is one of the referee-assistant systems, which the Oak & Iron commands do not play."""

    code = "other-system"
