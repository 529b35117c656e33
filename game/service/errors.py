"""What the service answers instead of carrying out a request: a refusal or a fault, told apart because
players are told them differently.

- A *refusal* (`ServiceRefusal` and its kinds) is about the request itself: not permitted, not seated,
  the seat taken, no such game, a decision already past. It is also a RulesError, so every front end
  shows it as the rules' own refusals are shown: what was wrong and what is allowed instead.
- A *fault* (`ServiceFault`, and a `ServiceError` raised as it is) is the service's own trouble: the
  game busy with other orders past every retry, a stored game that cannot be read, a missing data
  version, a bad seed source. The request may well be fine, so a fault is never a RulesError: the
  front ends say it is their problem and what to do (try again, tell whoever runs the bot), never that
  the order was wrong (bot/actions.py `fault`, cli/main.py).

`except RulesError` catches the refusals and not the faults; `except ServiceError` catches both."""

from __future__ import annotations

from game.errors import RulesError


class ServiceError(Exception):
    """Anything the service answers instead of doing what was asked. Raised as it is, a fault; its
    two kinds say which they are."""

    code = "service"

    def __init__(self, message: str, allowed: str = "", code: str | None = None) -> None:
        self.message = message
        self.allowed = allowed  # for a fault: what to do about it
        if code is not None:
            self.code = code
        Exception.__init__(self, self.text)  # not super(): a refusal's next class is RulesError

    @property
    def text(self) -> str:
        return f"{self.message} {self.allowed}".strip()


def is_fault(exc: BaseException) -> bool:
    """The service's own trouble, not a refusal of the request."""
    return isinstance(exc, ServiceError) and not isinstance(exc, RulesError)


class ServiceFault(ServiceError):
    code = "fault"


class GameBusy(ServiceFault):
    """Other orders kept changing the game past every retry (or while this one was made): nothing was
    done, and the same request may well go through a moment later."""

    code = "game-busy"


class GameDamaged(ServiceFault):
    """A stored game (or the data it was made with) cannot be read: nobody's order is to blame."""

    code = "game-damaged"


class ServiceRefusal(ServiceError, RulesError):
    """The request is refused, as the rules refuse an order; nothing was changed."""

    code = "refused"


class GameNotFound(ServiceRefusal):
    code = "game-not-found"


class WrongGuild(ServiceRefusal):
    code = "wrong-guild"


class NotSeated(ServiceRefusal):
    code = "not-seated"


class NotPermitted(ServiceRefusal):
    code = "not-permitted"


class SeatTaken(ServiceRefusal):
    code = "seat-taken"


class ChannelBusy(ServiceRefusal):
    """The channel already has a game: the request names the wrong place (a thread, or another channel)."""

    code = "channel-busy"


class UndoRefused(ServiceRefusal):
    code = "undo-refused"


class SquadronRefused(ServiceRefusal):
    code = "squadron-refused"


class AlreadyDecided(ServiceRefusal):
    """A button or menu answers a decision the game has moved past (a roll since settled, last turn's pick)."""

    code = "already-decided"


class OtherSystem(ServiceRefusal):
    """The game is one of the referee-assistant systems, which the Oak & Iron commands do not play: the
    request used the wrong commands (the /ref ones play it), which the player can put right."""

    code = "other-system"
