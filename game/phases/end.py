"""End Phase: return cards, clear wakes, and begin the next turn (or end the game)."""

from __future__ import annotations

from game import events as ev
from game.context import Decision
from game.model import Phase


def run_end_phase(ctx: Decision) -> None:
    ctx.emit(ev.PhaseBegan(Phase.END, ctx.state.turn))
    ctx.emit(ev.ActivePlayer(None))
    return_cards(ctx)
    for s in ctx.state.ships:
        if s.wake:
            ctx.emit(ev.WakeMarker(s.id, False))
    if ctx.state.turn >= ctx.state.last_turn:
        ctx.emit(ev.GameEnded(ctx.state.defender, f"end of turn {ctx.state.turn}"))
        return
    from game.phases.initiative import begin_turn

    begin_turn(ctx, ctx.state.turn + 1)


def return_cards(ctx: Decision) -> None:
    for q in ctx.state.squadrons:
        if q.face_up is None:
            continue
        card = ctx.rules.cards.get(q.face_up)
        if card is not None and card.discard:
            ctx.emit(ev.CardsReturned(q.player, q.hand, q.discards + (q.face_up,)))
        else:
            ctx.emit(ev.CardsReturned(q.player, q.hand + (q.face_up,), q.discards))
