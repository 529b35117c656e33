"""The table words that teach: `hand` with each card's effect and the lines it needs, and `rules NAME`
for a card, trait or term. The answers come from game/glossary.py, read from the game's own data, so
that what the table says a card does is what the engine does with it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from cli.common import LOCAL, print_events
from game.errors import RulesError
from game.glossary import card_entry, look_up
from game.service.game_service import GameService

TEACHING_WORDS = ("rules",)


async def print_hands(service: GameService, game_id: int, out: TextIO, wanted: list[str], humans: list[str]) -> None:
    """Each wanted side's hand, a card to a paragraph: value, effect, how to play it. A computer's
    side is never shown (its hand is not on this screen's side of the table)."""
    rules = await service.reading.rules(game_id)
    for p in wanted:
        if p not in humans:
            print(f"refused: player {p}'s hand is not yours to see.", file=out)
            continue
        q = (await service.reading.view(LOCAL, game_id, player=p)).game.squadron(p)
        down = f"; face down: {q.face_down}" if q.face_down else ""
        print(f"Player {p}'s hand ({len(q.hand)} cards{down}; Fortune {q.fortune}):" if q.hand
              else f"Player {p}'s hand: empty{down}; Fortune {q.fortune}.", file=out)
        for name in q.hand:
            card = rules.cards.get(name)
            if card is None:  # a card the data no longer knows: its name is all there is to say
                print(f"  {name}", file=out)
                continue
            entry = card_entry(card, p)
            print(f"  {card.name} ({card.value}): {entry.text}", file=out)
            for line in entry.play:
                print(f"      {line}", file=out)


async def print_rules(service: GameService, game_id: int, query: str, out: TextIO) -> None:
    try:
        entry = look_up(await service.reading.rules(game_id), query)
    except RulesError as exc:
        print(f"refused: {exc.text}", file=out)
        return
    print("\n".join(entry.lines()), file=out)


async def print_told(service: GameService, game_id: int, events: Sequence[Any], out: TextIO) -> None:
    """A command's events as the table tells them, with what no event says: an on-reveal card that
    found nothing to do is read against the state after (its face-up cards are public)."""
    game = await service.reading.state_for_audit(game_id)  # hot-seat: both sides share the screen
    print_events(events, out, game, await service.reading.rules(game_id))
