"""Step 3 of the Initiative Phase: effects that act 'immediately' on reveal."""

from __future__ import annotations

from game.context import Decision


def resolve(ctx: Decision) -> None:
    """On-reveal effects of the face-up cards, initiative player first. The quick-start cards with
    on-reveal effects are resolved by the effect engine (game.effects) once attacks exist."""
    return None
