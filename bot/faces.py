"""How the die's faces read in Discord: one emoji a face, used by the posts and the re-roll menu."""

from __future__ import annotations

from bot.markup import chat

FACES = {"skull": "💀", "cannon": "💥", "musket": "🎯", "pistol": "🔫", "sail": "⛵", "sword": "⚔️"}


def faces(text: str) -> str:
    """An account line as a post says it: a roll report's `[face]` marks as the faces' emoji, and the
    members and times it names as Discord markup (bot/markup.py)."""
    for face, emoji in FACES.items():
        text = text.replace(f"[{face}]", f"{emoji}")
    return chat(text)
