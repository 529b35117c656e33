"""Issue 28: a read-only page per game at an unguessable address, over the same service as the bot.
The routes, their headers and their refusals, on a real socket (aiohttp's test server)."""

from __future__ import annotations

import asyncio
import json
import re

from aiohttp.test_utils import TestClient

from game.service.game_service import GameService
from tests.web.games import ANN, BOB, GM, GUILD, picks, seated_game
from web.app import SECURITY_HEADERS, make_app
from web.limits import Limits


async def test_every_route_only_reads() -> None:
    """No write route at all: every route answers GET (and HEAD) and nothing else."""
    from tests.web.fakes import no_service

    app = make_app(no_service())
    methods = {route.method for route in app.router.routes()}
    assert methods <= {"GET", "HEAD"}, methods


async def test_a_game_page_reads_whole_without_script(service: GameService, client: TestClient) -> None:  # type: ignore[type-arg]
    gid = await seated_game(service)
    await picks(service, gid)
    await service.commands.submit(ANN, gid, "move Kestrel")
    token = await service.web.game_token(gid)
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", token)
    assert await service.web.game_token(gid) == token  # one page per game, kept

    moved = await client.get(f"/g/{token}", allow_redirects=False)
    assert moved.status == 308 and moved.headers["Location"] == f"/g/{token}/"
    page = await client.get(f"/g/{token}/")
    text = await page.text()
    assert page.status == 200 and page.content_type == "text/html"
    for name, value in SECURITY_HEADERS.items():
        assert page.headers[name] == value
    assert "<script>" not in text and " style=" not in text and "onclick" not in text  # the CSP forbids inline
    assert "Waiting for player" in text
    assert "Kestrel" in text and "Otter" in text  # the squadrons' ships
    assert re.search(r'<img id="board-img" src="board.png\?v=\d+" alt="test, turn 1, movement phase', text)
    assert "Move <output id=\"frame-no\" for=\"frame\">" in text  # the replay at its newest move
    assert "SHA-256" in text and "dice seed was" not in text
    board = await client.get(f"/g/{token}/board.png")
    assert board.status == 200 and board.content_type == "image/png"
    assert (await board.read())[:8] == b"\x89PNG\r\n\x1a\n"
    frames = await (await client.get(f"/g/{token}/frames.json")).json()
    assert frames[0]["n"] == 1 and any("moved" in line or "Kestrel" in line for line in frames[-1]["caption"])
    first = await client.get(f"/g/{token}/?frame=1")
    assert 'value="1"' in await first.text()
    frame = await client.get(f"/g/{token}/frame/1.png")
    assert frame.status == 200 and frame.content_type == "image/png"
    state = await (await client.get(f"/g/{token}/state.json")).json()
    assert state["id"] == gid and state["turn"] == 1 and state["frames"] == len(frames)
    assert state["ending"] is None
    log = await client.get(f"/g/{token}/log.json")
    assert log.status == 404  # the log holds every secret until the end


async def test_addresses_that_name_nothing_all_answer_the_same(service: GameService,
                                                                client: TestClient) -> None:  # type: ignore[type-arg]
    gid = await seated_game(service)
    token = await service.web.game_token(gid)
    answers = []
    for path in ("/g/AAAAAAAAAAAAAAAAAAAAAA/", f"/l/{token}/", f"/s/{GUILD}/", "/g/short/", "/nothing",
                 f"/g/{token}/frame/99999.png", "/static/../game/service/models.py", "/static/"):
        r = await client.get(path)
        answers.append((path, r.status))
        for name in SECURITY_HEADERS:
            assert name in r.headers, (path, name)
    assert all(status in (403, 404) for _, status in answers), answers
    same = [await (await client.get(p)).text() for p in ("/g/AAAAAAAAAAAAAAAAAAAAAA/", f"/l/{token}/", f"/s/{GUILD}/")]
    assert len(set(same)) == 1  # an unlisted server, a league token used as a game's: no oracle
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = await client.request(method, f"/g/{token}/")
        assert r.status == 405, method


async def test_a_server_lists_its_games_only_when_a_gm_says_so(service: GameService,
                                                               client: TestClient) -> None:  # type: ignore[type-arg]
    gid = await seated_game(service)
    assert (await client.get(f"/s/{GUILD}/")).status == 404  # unlisted by default
    try:
        await service.web.set_listed(BOB, True)
        raise AssertionError("a member who is not a GM listed the server's pages")
    except Exception as exc:
        assert "GM" in str(exc) or getattr(exc, "code", "") == "not-permitted", exc
    await service.web.set_listed(GM, True)
    listed = await client.get(f"/s/{GUILD}/")
    text = await listed.text()
    assert listed.status == 200
    token = await service.web.game_token(gid)
    assert f'href="../../g/{token}/"' in text
    await service.web.set_listed(GM, False)
    assert (await client.get(f"/s/{GUILD}/")).status == 404


async def test_rate_limited_per_client(service: GameService) -> None:
    app = make_app(service, Limits(burst=5, per_second=0.5))
    async with TestClient(__import__("aiohttp").test_utils.TestServer(app)) as c:
        statuses = [(await c.get("/")).status for _ in range(8)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3
        r = await c.get("/")
        assert r.status == 429 and int(r.headers["Retry-After"]) >= 1
        for name in SECURITY_HEADERS:
            assert name in r.headers


async def test_the_page_follows_the_game_live(service: GameService, client: TestClient) -> None:  # type: ignore[type-arg]
    gid = await seated_game(service)
    await picks(service, gid)
    token = await service.web.game_token(gid)
    stream = await client.get(f"/g/{token}/events")
    assert stream.status == 200 and stream.headers["Content-Type"] == "text/event-stream"

    async def next_state() -> dict:  # type: ignore[type-arg]
        data = b""
        while True:
            line = await asyncio.wait_for(stream.content.readline(), 5)
            if line.startswith(b"data: "):
                data = line[6:]
            elif line == b"\n" and data:
                return json.loads(data)  # type: ignore[no-any-return]

    first = await next_state()
    await service.commands.submit(ANN, gid, "move Kestrel")
    second = await next_state()
    assert second["version"] > first["version"]
    assert any("Kestrel" in line for line in second["account"][-3:])
    assert second["frames"] == first["frames"] + 1
    stream.close()


async def test_a_league_page_shows_standings_and_links_each_game(service: GameService,
                                                                 client: TestClient) -> None:  # type: ignore[type-arg]
    leagues = service.leagues
    await leagues.create(GM, "league-chan", "Autumn Cup", scenario="quickstart")
    await leagues.join(ANN, "Autumn Cup", "Ann")
    await leagues.join(BOB, "Autumn Cup", "Bob")
    await leagues.start(GM, "Autumn Cup")
    token = await service.web.league_token(GUILD, "autumn cup")
    assert token == await service.web.league_token(GUILD, "Autumn Cup")
    page = await client.get(f"/l/{token}/")
    text = await page.text()
    assert page.status == 200 and "Autumn Cup" in text and "Standings" in text
    assert "Ann" in text and "Bob" in text
    table = (await leagues.show(GUILD, "Autumn Cup")).pairings[0]
    assert table.game_id is not None
    game_token = await service.web.game_token(table.game_id)
    assert f'href="../../g/{game_token}/"' in text  # each pairing links its game's page
    assert (await client.get(f"/g/{game_token}/")).status == 200
    assert (await client.get(f"/l/{game_token}/")).status == 404  # a game's token names no league


async def test_many_asking_at_once_make_one_page(service: GameService) -> None:
    """Several posts asking for a new game's link at the same moment (two processes, a retry): one token."""
    gid = await seated_game(service)
    other = GameService(service.store.repo.engine)  # another process's service on the same database
    tokens = await asyncio.gather(*(s.web.game_token(gid) for s in [service, other] * 5))
    assert len(set(tokens)) == 1


async def test_a_shutdown_ends_the_open_streams_instead_of_waiting_for_them(service: GameService) -> None:
    """aiohttp waits for running handlers when a server stops (its docs, "Graceful shutdown": the
    `on_shutdown` signal is where long-lived streams are to be closed): an open page must end its
    stream there, not hold the stop until its next keep-alive, 20 s away."""
    from aiohttp import ClientSession, web

    from web.app import KEEPALIVE_SECONDS

    gid = await seated_game(service)
    token = await service.web.game_token(gid)
    runner = web.AppRunner(make_app(service))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    async with ClientSession() as session, session.get(f"http://127.0.0.1:{port}/g/{token}/events") as stream:
        assert stream.status == 200
        while not (await asyncio.wait_for(stream.content.readline(), 5)).startswith(b"data: "):
            pass  # until the first state is in: the handler then waits for a move or the keep-alive
        await asyncio.wait_for(runner.cleanup(), KEEPALIVE_SECONDS / 4)
        assert await asyncio.wait_for(stream.content.read(), 5) is not None  # the stream was ended, not left open
