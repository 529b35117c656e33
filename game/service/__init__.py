"""The async game service: the one place a player's command becomes a durable, ordered,
replayable change. Database and asyncio code live here and nowhere else in game/."""
