"""The first game `make run` opens without a Discord token, and `quarterdeck table` when no game is
stored: the quick start, the player as side A, the computer captain as side B (README.md). A stored
game is resumed instead; asking for the computer on a resumed game that has none is answered, not
ignored."""

from __future__ import annotations

import sys

from game.service.game_service import GameInfo

FIRST_GAME_AI = "B"  # the side the computer captain takes in a new game unless told otherwise


def ai_mismatch(game: GameInfo, vs_ai: str | None) -> bool:
    """True (having said why, as one `error:` line) when `--vs-ai` asks for a computer captain the game
    being resumed does not have: it keeps its sides, so the player is told how to get what they asked."""
    if vs_ai is None:
        return False
    computer = [s.player for s in game.seats if s.ai]
    if computer == [vs_ai.upper()]:
        return False
    has = f"the computer captain plays {', '.join(computer)}" if computer else "no computer captain (one screen)"
    print(f"error: game #{game.id} ({game.name}) has {has}, and a game keeps its sides: "
          f"`quarterdeck table --new --vs-ai {vs_ai.upper()}` starts a game against the computer captain "
          "as that side; `--game N` opens another stored game.", file=sys.stderr)
    return True
