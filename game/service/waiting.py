"""What a stored game waits on, read from its record: the one check every scheduled action and every
button makes before it acts (game/service/decision.py holds the rules of a wait)."""

from __future__ import annotations

from game.service.decision import Decision, Wait, current_waits, decision_of, still_waiting
from game.service.errors import AlreadyDecided
from game.service.repository import Loaded


def waits_of(loaded: Loaded) -> dict[str, Wait]:
    return current_waits(loaded.record.waits, loaded.state, loaded.seats, loaded.record.updated_at)


def decision_now(loaded: Loaded, player: str) -> Decision | None:
    """The decision the game waits on from this side, as it stands at this moment."""
    return decision_of(loaded.record.id or 0, waits_of(loaded), player, loaded.record.last_seq)


def is_waiting(loaded: Loaded, decision: Decision) -> bool:
    return still_waiting(loaded.record.id or 0, loaded.record.last_seq, loaded.state, loaded.seats,
                         waits_of(loaded), decision)


def require_waiting(loaded: Loaded, decision: Decision) -> None:
    if not is_waiting(loaded, decision):
        raise AlreadyDecided(f"The game no longer waits on the decision that was for player {decision.player}.",
                             "Nothing was done for them.")
