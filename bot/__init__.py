"""The Discord bot (a later issue builds it on the game service and the renderer)."""
