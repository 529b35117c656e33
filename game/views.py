"""What one player (or a spectator) may see. Front ends and the renderer only ever get these.

At the table a player sees everything but the other side's hand and face-down card (and, as a
spectator, neither side's). A view is a `Game` with those fields emptied, plus the hand sizes,
so every read-out written for a state works on a view and cannot show a secret.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from game import events as ev
from game.model import Game

SPECTATOR = None


@dataclass(frozen=True)
class View:
    viewer: str | None  # the player who looks, or None for a spectator
    game: Game
    hand_sizes: tuple[tuple[str, int], ...]

    def hand_size(self, player: str) -> int:
        return dict(self.hand_sizes).get(player, 0)


def view_of(state: Game, viewer: str | None) -> View:
    squadrons = []
    for q in state.squadrons:
        if q.player == viewer:
            squadrons.append(q)
        else:
            squadrons.append(replace(q, hand=(), face_down=None))
    pending = state.pending
    if pending is not None and pending.player != viewer:
        pending = replace(pending, remaining=())  # the rest of an order is its giver's business
    game = replace(state, squadrons=tuple(squadrons), pending=pending)
    return View(viewer, game, tuple((q.player, len(q.hand)) for q in state.squadrons))


def event_for(event: Any, viewer: str | None) -> Any:
    """An event as the viewer may see it: another player's face-down choice shows no card."""
    if isinstance(event, ev.CardPicked) and event.player != viewer:
        return ev.CardPicked(event.player, None)
    if isinstance(event, ev.SquadronEnlisted) and event.squadron.player != viewer:
        return ev.SquadronEnlisted(replace(event.squadron, hand=()), event.ships)  # the hand stays secret
    if isinstance(event, ev.RollAwaitsChoice) and event.pending.player != viewer:
        return ev.RollAwaitsChoice(replace(event.pending, remaining=()))
    return event
