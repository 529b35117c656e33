"""How the die's faces read in Discord: one emoji a face, used by the posts and the re-roll menu."""

from __future__ import annotations

FACES = {"skull": "💀", "cannon": "💥", "musket": "🎯", "pistol": "🔫", "sail": "⛵", "sword": "⚔️"}


def faces(text: str) -> str:
    """A roll report's `[face]` marks as the faces' emoji."""
    for face, emoji in FACES.items():
        text = text.replace(f"[{face}]", f"{emoji}")
    return text
