"""What one player (or a spectator) may see. Front ends, the renderer, name resolution and the computer
captain only ever get these.

At the table a player sees everything but the other sides' hands and face-down cards, the order of the
event deck, and the dice to come (and a spectator sees no hand at all). A view is a `Game` with those
fields emptied, plus the hand sizes, so every read-out written for a state works on a view and cannot
show a secret. Events are redacted the same way before anyone but the log sees them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from game import events as ev
from game.model import Choice, Game

SPECTATOR = None


@dataclass(frozen=True)
class View:
    viewer: str | None  # the player who looks, or None for a spectator
    game: Game
    hand_sizes: tuple[tuple[str, int], ...]
    event_deck_size: int = 0

    def hand_size(self, player: str) -> int:
        return dict(self.hand_sizes).get(player, 0)


def _players(viewer: str | None | Collection[str]) -> frozenset[str]:
    if viewer is None:
        return frozenset()
    if isinstance(viewer, str):
        return frozenset((viewer,))
    return frozenset(viewer)


def redact(state: Game, viewer: str | None | Collection[str]) -> Game:
    """The state as these players know it: their own hands and picks, nobody else's; no seed, no
    position in the dice stream, no event deck."""
    mine = _players(viewer)
    squadrons = tuple(q if q.player in mine else replace(q, hand=(), face_down=None) for q in state.squadrons)
    pending = state.pending
    if pending is not None and pending.player not in mine:
        pending = replace(pending, remaining=())  # the rest of an order is its giver's business
    return replace(state, squadrons=squadrons, pending=pending, choices=_choices_for(state.choices, mine), seed=0,
                   log_position=0, event_deck=())


def _choices_for(choices: tuple[Choice, ...], mine: frozenset[str]) -> tuple[Choice, ...]:
    """Another player's choices without their options: what a choice offers is its chooser's business
    (Await New Orders offers the rest of the chooser's hand)."""
    return tuple(ch if ch.player in mine else replace(ch, options=()) for ch in choices)


def view_of(state: Game, viewer: str | None, also: Collection[str] = ()) -> View:
    """A player's view (with `also`, the other squadrons the same person commands)."""
    game = redact(state, {viewer, *also} if viewer is not None else set(also))
    return View(viewer, game, tuple((q.player, len(q.hand)) for q in state.squadrons), len(state.event_deck))


def event_for(event: Any, viewer: str | None | Collection[str]) -> Any:
    """An event as the viewer may see it: another player's cards show as hidden, a restored state as
    the viewer's view of it, the event deck's order as nothing."""
    mine = _players(viewer)
    if isinstance(event, ev.CardPicked) and event.player not in mine:
        return ev.CardPicked(event.player, None)
    if isinstance(event, ev.SquadronEnlisted) and event.squadron.player not in mine:
        return ev.SquadronEnlisted(replace(event.squadron, hand=()), event.ships)  # the hand stays secret
    if isinstance(event, ev.RollAwaitsChoice) and event.pending.player not in mine:
        return replace(event, pending=replace(event.pending, remaining=()))
    if isinstance(event, ev.HandTrimmed) and event.player not in mine:
        return ev.HandTrimmed(event.player, ())
    if isinstance(event, ev.CardsReturned) and event.player not in mine:
        return ev.CardsReturned(event.player, (), event.discards)
    if isinstance(event, ev.ChoicesSet):
        return ev.ChoicesSet(_choices_for(event.choices, mine))
    if isinstance(event, ev.SetupCardsDrawn):
        return replace(event, event_deck=())
    if isinstance(event, ev.StateRestored):
        return replace(event, state=redact(event.state, mine))
    return event
