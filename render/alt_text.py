"""What a board image shows, in words: its alt text (Discord's attachment description), for readers
who cannot see the picture, and `/board text:` for anyone. Like the drawing it reads only a viewer's
view (render/ never sees the full state): whose turn it is, the last action drawn on the board, and
each ship with its state, in at most Discord's 1,024 characters."""

from __future__ import annotations

from collections.abc import Sequence

from game.model import Ship
from game.views import View
from render.options import AttackLine

LIMIT = 1024  # an attachment's description (Discord's Attachment Object)


def _ship_line(ship: Ship) -> str:
    state = [f"{ship.damage} damage" if ship.damage else "", f"{ship.fatigue} fatigue" if ship.fatigue else "",
             *ship.status_names()]
    said = ", ".join(s.replace("_", " ") for s in state if s) or "undamaged"
    return f"{ship.id} ({ship.cls}): {said}"


def board_alt(view: View, last_move: tuple[str, Sequence[object]] | None = None,
              last_attacks: Sequence[AttackLine] = (), limit: int = LIMIT) -> str:
    """The board in words. The ships are listed by side, the side to act first; what does not fit is
    cut at a whole ship, with the number left out said."""
    g = view.game
    if g.winner or g.result:
        head = f"{g.name}, the end: {g.result or f'player {g.winner} wins'}."
    else:
        acting = f"; player {g.active_player} to act" if g.active_player else ""
        head = f"{g.name}, turn {g.turn}, {g.phase.value.replace('_', ' ')} phase{acting}."
    last = []
    if last_move is not None:
        last.append(f"{last_move[0]} moved (its path is drawn).")
    for a in last_attacks:
        side = f" {a.side}" if a.side else ""
        last.append(f"{a.ship} fired{side} at {a.target}: {a.label or f'{a.hits} hits'}.")
    shown = [s for s in g.ships if s.on_table or s.out_of_action]
    sides = sorted({s.owner for s in shown}, key=lambda p: (p != g.active_player, p))
    said = " ".join([head, *last])
    room = limit - 40  # kept for the count of ships left out
    listed = 0
    for player in sides:
        line = ""
        for ship in (s for s in shown if s.owner == player):
            more = (f" Player {player}: " if not line else "; ") + _ship_line(ship)
            if len(said) + len(line) + len(more) + 1 > room:
                break
            line += more
            listed += 1
        if line:
            said += line + "."
    if listed < len(shown):
        said += f" {len(shown) - listed} more ship(s) not listed."
    return said if len(said) <= limit else said[: limit - 1] + "…"


def rating_alt(name: str, history: Sequence[float]) -> str:
    """The plot said in words (the image's description): the same figures, nothing more."""
    if not history:
        return f"{name} has no ranked games in this server yet."
    low, high = min(history), max(history)
    return (f"Line chart of {name}'s rating after each of {len(history)} ranked games: from {history[0]:.1f} "
            f"to {history[-1]:.1f} now, lowest {low:.1f}, highest {high:.1f}.")
