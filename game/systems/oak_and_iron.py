"""Oak & Iron as a GameSystem (game/systems/base.py), served by the same service as the
referee-assistant systems, with every capability the interface names. Its modules fit as they are,
so this only names them; they are imported when first called, which keeps `game.systems` light
for the referee systems."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.dice import DiceSource
from game.systems.base import DEADLINE_ACTIONS, GM_AUTHORITY, OPTIONS, PICKS
from game.systems.tables import TableSet

# the order an undo's refusal names its reasons in
_BARRIER_ORDER = ("it revealed a card", "its dice have been rolled and seen", "the game has ended",
                  "a new phase has begun")


class OakAndIron:
    """Oak & Iron's own modules behind the interface, unchanged: the engine, the notation, the views and
    the account are called as they are."""

    name = "oak_and_iron"
    title = "Oak & Iron"
    capabilities = frozenset({GM_AUTHORITY, OPTIONS, DEADLINE_ACTIONS, PICKS})

    def __init__(self) -> None:
        from game.commands import COMMANDS
        from game.events import EVENTS
        from game.model import Game

        self.events, self.commands, self.state_type = EVENTS, COMMANDS, Game

    def initial_state(self, setup: Mapping[str, Any]) -> Any:
        from game.scenario import scenario_from_doc

        return scenario_from_doc(setup, "setup")

    def parse(self, line: str, state: Any = None) -> Any:
        from game.notation import parse

        return parse(line, state)

    def format(self, command: Any) -> str:
        from game.notation import format_command

        return format_command(command)

    def decide(self, state: Any, command: Any, dice: DiceSource) -> list[Any]:
        from game.engine import decide

        return decide(state, command, dice)

    def apply(self, state: Any, event: Any) -> Any:
        from game.apply import apply

        return apply(state, event)

    def view(self, state: Any, viewer: str | None) -> Any:
        from game.views import view_of

        return view_of(state, viewer)

    def event_for(self, event: Any, viewer: str | None) -> Any:
        from game.views import event_for

        return event_for(event, viewer)

    def account(self, event: Any) -> str:
        from game.account import account

        return account(event)

    def deciders(self, state: Any) -> set[str]:
        from game.phases.flow import deciders

        return deciders(state)

    def tables(self) -> TableSet:
        return TableSet("oak_and_iron")

    def over(self, state: Any) -> bool:
        from game.model import Phase

        return bool(state.phase is Phase.OVER)

    def restored(self, state: Any, reason: str, by: str, undid: int = 0) -> Any:
        from game.events import StateRestored

        return StateRestored(state, reason, by)

    def undo_refused(self, taken: Sequence[Any], state: Any) -> str | None:
        """An activation may be taken back unless it rolled dice, revealed a card, ended the game or
        began a new End or Initiative Phase; a pick, a hand-over or a clock change is no activation."""
        from game import events as ev
        from game.model import Phase

        kinds = {type(e) for e in taken}
        if kinds <= {ev.UndoRequested, ev.CardPicked, ev.SeatHandedOver, ev.ClockChanged, ev.ActedFor}:
            return None
        reasons = set()
        for e in taken:
            if isinstance(e, ev.CardsRevealed | ev.EventCardDrawn):
                reasons.add("it revealed a card")
            elif isinstance(e, ev.GameEnded):
                reasons.add("the game has ended")
            elif isinstance(e, ev.PhaseBegan) and e.phase in (Phase.END, Phase.INITIATIVE):
                reasons.add("a new phase has begun")
            elif isinstance(e, ev.DiceRolled | ev.DiceRerolled | ev.SetupCardsDrawn):
                reasons.add("its dice have been rolled and seen")
        return " and ".join(sorted(reasons, key=_BARRIER_ORDER.index)[:2])


SYSTEM = OakAndIron()
