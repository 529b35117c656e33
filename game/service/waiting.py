"""What a stored game waits on, read from its record: the one check every scheduled action and every
button makes before it acts (game/service/decision.py holds the rules of a wait). Any system's game."""

from __future__ import annotations

from typing import Any

from game.service.decision import Decision, Wait, current_waits, decision_of, still_waiting
from game.service.errors import AlreadyDecided
from game.service.repository import Stored
from game.service.sides import moment


def waits_of(loaded: Stored[Any]) -> dict[str, Wait]:
    return current_waits(loaded.record.waits, moment(loaded.system, loaded.state), loaded.seats,
                         loaded.record.updated_at)


def decision_now(loaded: Stored[Any], player: str) -> Decision | None:
    """The decision the game waits on from this side, as it stands at this moment."""
    return decision_of(loaded.record.id or 0, waits_of(loaded), player, loaded.record.last_seq)


def is_waiting(loaded: Stored[Any], decision: Decision) -> bool:
    return still_waiting(loaded.record.id or 0, loaded.record.last_seq, moment(loaded.system, loaded.state),
                         loaded.seats, waits_of(loaded), decision)


def require_waiting(loaded: Stored[Any], decision: Decision) -> None:
    if not is_waiting(loaded, decision):
        raise AlreadyDecided(f"The game no longer waits on the decision that was for player {decision.player}.",
                             "Nothing was done for them.")
