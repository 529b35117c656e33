"""The read-only web pages (docs/web.md): a page per game at an unguessable address, a page per league,
and a server's index when its GM lists its games. Served by aiohttp, from the service's spectator
reads only (game/service/web_pages.py); it has no write route, no login and opens no database session."""
