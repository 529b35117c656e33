"""The web application: read-only routes over `GameService.web` (game/service/web_pages.py).

Every route is GET (and so HEAD); nothing here writes. A token that names nothing, a server that does
not list its games and a referee system's game all answer the same 404, so the answers tell a prober
nothing. Each response carries the security headers (`SECURITY_HEADERS`); each client is rate limited
(web/limits.py); a service error is a short page, never a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from game.errors import RulesError
from game.service.game_service import GameService
from game.service.web_pages import GAME, LEAGUE, Spectated, Target
from web import html
from web.images import Images, alt_for, frame_alt
from web.limits import Buckets, Limits, client_of
from web.live import POLL_SECONDS, Hub, TooMany
from web.snapshot import snapshot, when

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
TOKEN = r"[A-Za-z0-9_-]{16,32}"
KEEPALIVE_SECONDS = 20.0  # a comment line now and then keeps proxies from closing a quiet stream
SECURITY_HEADERS = {
    # no inline script or style, nothing from elsewhere, never framed; the page's own script and styles
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                                "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token in the address never leaves in a Referer
    "X-Frame-Options": "DENY",
    "X-Robots-Tag": "noindex, nofollow",  # an unlisted game's page stays out of search engines
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
SERVICE = web.AppKey("service", GameService)
HUB = web.AppKey("hub", Hub)
IMAGES = web.AppKey("images", Images)
BUCKETS = web.AppKey("buckets", Buckets)
TRUST_PROXY = web.AppKey("trust_proxy", bool)
CACHE = web.AppKey("cache", dict)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class NotThere(web.HTTPNotFound):
    def __init__(self) -> None:
        super().__init__(text=html.message_page("No such page", "There is no page at this address. A game's page "
                                                "is linked in its first message in Discord and in /game status."),
                         content_type="text/html")


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)
    if request.path.startswith("/static/"):
        response.headers.setdefault("Cache-Control", "public, max-age=3600")
    else:
        response.headers.setdefault("Cache-Control", "no-cache")


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    client = client_of(request.remote, request.headers.get("X-Forwarded-For"), request.app[TRUST_PROXY])
    wait = request.app[BUCKETS].take(client)
    if wait:
        return web.Response(status=429, text="Too many requests: wait a moment.",
                            headers={"Retry-After": str(max(1, round(wait)))})
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except RulesError:  # a game not found, another system's game: as any address that names nothing
        raise NotThere() from None
    except Exception:
        log.exception("web page %s", request.path)
        return web.Response(status=500, content_type="text/html",
                            text=html.message_page("Not now", "This page could not be read just now: try again shortly."))


# ---------------------------------------------------------------------- reading what a token names


async def _target(request: web.Request, kind: str) -> Target:
    found = await request.app[SERVICE].web.find(request.match_info["token"])
    if found is None or found.kind != kind:
        raise NotThere()
    return found


async def _spectated(request: web.Request) -> Spectated:
    return await request.app[SERVICE].web.spectate((await _target(request, GAME)).id)


async def _frames_events(request: web.Request, game_id: int) -> list[Any]:
    return list(await request.app[SERVICE].web.frames(game_id))


def _last_events(frames: list[Any]) -> tuple[Any, ...]:
    return frames[-1].events if frames else ()


async def _snapshot_bytes(request: web.Request, s: Spectated) -> bytes:
    """The page's data at one version, made once however many pages ask (the live updates' payload)."""
    cache: dict[tuple[int, int], bytes] = request.app[CACHE]
    key = (s.board.info.id, s.version)
    found = cache.get(key)
    if found is None:
        frames = await _frames_events(request, s.board.info.id)
        data = snapshot(s, alt_for(s.board.spectator, _last_events(frames)))
        found = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        if len(cache) > 1_000:
            cache.clear()
        cache[key] = found
    return found


# ---------------------------------------------------------------------- routes


async def home(request: web.Request) -> web.Response:
    return web.Response(content_type="text/html", text=html.message_page(
        "Quarterdeck", "Each game's page is linked in its first message in Discord and in /game status."))


async def slash(request: web.Request) -> web.Response:
    raise web.HTTPPermanentRedirect(request.path + "/")


async def game_page(request: web.Request) -> web.Response:
    s = await _spectated(request)
    frames = await _frames_events(request, s.board.info.id)
    total = len(frames)
    asked = request.query.get("frame", "")
    # a number of any length is refused before it is read (int() of thousands of digits raises)
    index = int(asked) if asked.isdigit() and len(asked) <= 6 and 1 <= int(asked) <= total else total
    frame = frames[index - 1] if total else None
    snap = json.loads(await _snapshot_bytes(request, s))
    text = html.game_page(snap, frame, index, total, frame_alt(frame) if frame is not None else "")
    return web.Response(content_type="text/html", text=text)


async def state_json(request: web.Request) -> web.Response:
    s = await _spectated(request)
    return web.Response(body=await _snapshot_bytes(request, s), content_type="application/json")


async def board_png(request: web.Request) -> web.Response:
    s = await _spectated(request)
    frames = await _frames_events(request, s.board.info.id)
    png = await request.app[IMAGES].board(s.board.info.id, s.version, s.board.spectator, _last_events(frames),
                                          s.board.rules)
    # the address names the version (board.png?v=N): the picture at it never changes
    kept = "private, max-age=86400" if request.query.get("v") == str(s.version) else "no-cache"
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": kept})


async def frames_json(request: web.Request) -> web.Response:
    target = await _target(request, GAME)
    frames = await _frames_events(request, target.id)
    data = [{"n": i + 1, "caption": list(f.caption), "alt": frame_alt(f)} for i, f in enumerate(frames)]
    return web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False, separators=(",", ":")))


async def frame_png(request: web.Request) -> web.Response:
    target = await _target(request, GAME)
    frames = await _frames_events(request, target.id)
    n = int(request.match_info["n"])
    if not 1 <= n <= len(frames):
        raise NotThere()
    rules = await request.app[SERVICE].reading.rules(target.id)
    png = await request.app[IMAGES].frame(target.id, frames[n - 1].command, frames[n - 1], rules)
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=60"})


async def log_json(request: web.Request) -> web.Response:
    target = await _target(request, GAME)
    service = request.app[SERVICE]
    if await service.web.ending(target.id) is None:  # the log holds every secret until the end
        raise NotThere()
    data = await service.web.log_file(target.id)
    return web.json_response(data, headers={"Content-Disposition": f"attachment; filename=game-{target.id}.json"})


async def events(request: web.Request) -> web.StreamResponse:
    """The page's live updates: the game's state each time it moves (Server-Sent Events)."""
    s = await _spectated(request)
    client = client_of(request.remote, request.headers.get("X-Forwarded-For"), request.app[TRUST_PROXY])
    try:
        async with request.app[HUB].watch(s.board.info.id, client, s.version) as woken:
            return await _stream(request, s.board.info.id, woken)
    except TooMany:
        return web.Response(status=429, text="Too many live pages open: close one.", headers={"Retry-After": "30"})


async def _stream(request: web.Request, game_id: int, woken: asyncio.Event) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                                           "X-Accel-Buffering": "no"})  # nginx: pass each event at once
    await response.prepare(request)
    await response.write(b"retry: 3000\n\n")
    last = request.headers.get("Last-Event-ID", "")
    sent = int(last) if last.isdigit() and len(last) < 12 else -1
    hub = request.app[HUB]
    try:
        while not hub.closing:
            woken.clear()
            s = await request.app[SERVICE].web.spectate(game_id)
            if s.version != sent:
                payload = await _snapshot_bytes(request, s)
                await response.write(b"id: %d\nevent: state\ndata: %s\n\n" % (s.version, payload))
                sent = s.version
            try:
                await asyncio.wait_for(woken.wait(), KEEPALIVE_SECONDS)
            except TimeoutError:
                await response.write(b": still here\n\n")
        return response  # the server is shutting down: the browser reconnects to the next one
    except ConnectionError:  # the reader left
        return response
    except RulesError:  # the game is gone (a server's data purged): nothing more to tell
        return response
    except Exception:  # the database away for a moment: the stream ends and the browser opens it again
        log.exception("live updates of game %s", game_id)
        return response


async def league_page(request: web.Request) -> web.Response:
    target = await _target(request, LEAGUE)
    league = await request.app[SERVICE].web.league(target.id)
    return web.Response(content_type="text/html",
                        text=html.league_page(league.table, league.games, when(league.table.league.deadline)))


async def index_page(request: web.Request) -> web.Response:
    guild = request.match_info["guild"]
    listed = await request.app[SERVICE].web.index(guild)
    if listed is None:  # unlisted: the same answer as a server that does not exist
        raise NotThere()
    return web.Response(content_type="text/html", text=html.index_page(guild, listed))


def make_app(service: GameService, limits: Limits | None = None, trust_proxy: bool = False,
             images: Images | None = None, poll_seconds: float = POLL_SECONDS) -> web.Application:
    limits = limits or Limits()
    app = web.Application(middlewares=[_guard], client_max_size=4096)  # no route takes a body
    app[SERVICE] = service
    app[HUB] = Hub(service.web, limits.streams, limits.streams_per_client, poll_seconds)
    app[IMAGES] = images or Images()
    app[BUCKETS] = Buckets(limits)
    app[TRUST_PROXY] = trust_proxy
    app[CACHE] = {}
    app.on_response_prepare.append(_headers)
    r = app.router
    r.add_get("/", home)
    r.add_get(f"/g/{{token:{TOKEN}}}", slash)
    r.add_get(f"/g/{{token:{TOKEN}}}/", game_page)
    r.add_get(f"/g/{{token:{TOKEN}}}/state.json", state_json)
    r.add_get(f"/g/{{token:{TOKEN}}}/board.png", board_png)
    r.add_get(f"/g/{{token:{TOKEN}}}/frames.json", frames_json)
    r.add_get(f"/g/{{token:{TOKEN}}}/frame/{{n:[0-9]{{1,5}}}}.png", frame_png)
    r.add_get(f"/g/{{token:{TOKEN}}}/events", events)
    r.add_get(f"/g/{{token:{TOKEN}}}/log.json", log_json)
    r.add_get(f"/l/{{token:{TOKEN}}}", slash)
    r.add_get(f"/l/{{token:{TOKEN}}}/", league_page)
    r.add_get("/s/{guild:[0-9]{1,21}}", slash)
    r.add_get("/s/{guild:[0-9]{1,21}}/", index_page)
    r.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)

    async def start(app: web.Application) -> None:
        app[HUB].start()

    async def stop(app: web.Application) -> None:
        await app[HUB].stop()

    async def close_streams(app: web.Application) -> None:
        app[HUB].close_streams()

    app.on_startup.append(start)
    app.on_shutdown.append(close_streams)
    app.on_cleanup.append(stop)
    return app
