"""A game told again, one frame per command: the state after it and what happened, as a chosen
viewer may see them (a spectator, for anything posted: hands and picks stay hidden)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from game import events as ev
from game.account import account
from game.apply import apply
from game.model import Game
from game.names import plain
from game.views import View, event_for, view_of

# what a frame's caption never shows: who is to act is on the board, a face-down pick says nothing
_QUIET = (ev.ActivePlayer, ev.CardPicked)


@dataclass(frozen=True)
class Frame:
    command: int  # the command's number in the game's log
    view: View  # the state after the command, as the viewer sees it
    events: tuple[Any, ...]  # the command's events, as the viewer sees them
    caption: tuple[str, ...]  # what happened, one line per event worth telling


def frames(initial: Game, log: Iterable[tuple[int, Any]], viewer: str | None = None) -> list[Frame]:
    """One frame per command that changed something the viewer can read about. The states are
    rebuilt from the whole log (the events the viewer may not see still move the game on)."""
    out: list[Frame] = []
    state = initial
    group: list[Any] = []
    current: int | None = None

    def close() -> None:
        if current is None or not group:
            return
        seen = tuple(event_for(e, viewer) for e in group)
        caption = tuple(line for e in seen if not isinstance(e, _QUIET) for line in [plain(account(e))] if line)
        if caption:
            out.append(Frame(current, view_of(state, viewer), seen, caption))

    for command, event in log:
        if command != current:
            close()
            current, group = command, []
        state = apply(state, event)
        group.append(event)
    close()
    return out

