"""Board rendering from a player's view of the game (a later issue)."""
