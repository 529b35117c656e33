"""Issue 28: a stranger probes the web pages. Markup in a name the players chose is shown as text, never
run; odd numbers in the address or the live stream's Last-Event-ID are answered, never a fault; a
forged X-Forwarded-For does not dodge the rate limit unless the host trusts its proxy; one web_client
cannot hold every live stream; HEAD reads as GET without a body; and a token is never guessed from
another (each is random, none derived from the game's number)."""

from __future__ import annotations

import asyncio

from aiohttp.test_utils import TestClient, TestServer

from game.service.game_service import Actor, GameService
from tests.web.games import ANN, new_game, picks, seated_game
from web.app import make_app
from web.limits import Buckets, Limits, client_of

SCRIPT = '<script>alert(1)</script><img src=x onerror="alert(2)">'


async def test_markup_in_a_players_name_is_text(web_service: GameService, web_client: TestClient) -> None:  # type: ignore[type-arg]
    gid = await new_game(web_service)
    await web_service.lobby.join(ANN, gid, "A", SCRIPT)
    await web_service.lobby.join(Actor("222", ANN.guild_id), gid, "B", "Bob")
    token = await web_service.web.game_token(gid)
    page = await (await web_client.get(f"/g/{token}/")).text()
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown, as text
    state = await (await web_client.get(f"/g/{token}/state.json")).json()
    assert any(SCRIPT in q["who"] for q in state["squadrons"])  # the script sets it as text (textContent)


async def test_odd_numbers_in_the_address_are_answered(web_service: GameService, web_client: TestClient) -> None:  # type: ignore[type-arg]
    gid = await seated_game(web_service)
    await picks(web_service, gid)
    token = await web_service.web.game_token(gid)
    for query in ("frame=0", "frame=-1", "frame=99999999999999999999", "frame=1e3", "frame=%00", "frame=" + "9" * 5000):
        r = await web_client.get(f"/g/{token}/?{query}")
        assert r.status in (200, 400, 414), (query, r.status)
        assert r.status != 500
    for n in ("0", "99999", "00001"):
        r = await web_client.get(f"/g/{token}/frame/{n}.png")
        assert r.status in (200, 404), (n, r.status)
    stream = await web_client.get(f"/g/{token}/events", headers={"Last-Event-ID": "9" * 40})
    assert stream.status == 200
    line = await asyncio.wait_for(stream.content.readline(), 5)
    assert line.startswith(b"retry:")
    stream.close()
    head = await web_client.head(f"/g/{token}/")
    assert head.status == 200 and await head.read() == b""


async def test_a_forged_forwarded_for_does_not_dodge_the_limit(web_service: GameService) -> None:
    app = make_app(web_service, Limits(burst=3, per_second=0.1))
    async with TestClient(TestServer(app)) as c:
        statuses = [(await c.get("/", headers={"X-Forwarded-For": f"10.0.0.{i}"})).status for i in range(5)]
        assert statuses == [200, 200, 200, 429, 429]  # the proxy is not trusted: the socket's address counts
    trusted = make_app(web_service, Limits(burst=3, per_second=0.1), trust_proxy=True)
    async with TestClient(TestServer(trusted)) as c:
        # behind a trusted proxy the last address it appended is the web_client; what a web_client forged before it is not
        statuses = [(await c.get("/", headers={"X-Forwarded-For": f"6.6.6.6, 10.0.0.{i}"})).status for i in range(5)]
        assert statuses == [200] * 5
        statuses = [(await c.get("/", headers={"X-Forwarded-For": f"10.0.0.{i}, 10.9.9.9"})).status for i in range(5)]
        assert statuses == [200, 200, 200, 429, 429]


def test_a_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    buckets = Buckets(Limits(burst=2, per_second=1.0, clients=2), now=lambda: now[0])
    assert [buckets.take("a"), buckets.take("a")] == [0.0, 0.0]
    assert buckets.take("a") == 1.0
    now[0] = 1.0
    assert buckets.take("a") == 0.0
    buckets.take("b")
    buckets.take("c")  # remembering only two clients: "a", the least recent, is forgotten (a full bucket again)
    assert buckets.take("a") == 0.0 and buckets.take("a") == 0.0
    assert client_of("1.2.3.4", "9.9.9.9", trust_proxy=False) == "1.2.3.4"
    assert client_of("1.2.3.4", "9.9.9.9, 5.5.5.5", trust_proxy=True) == "5.5.5.5"


async def test_one_client_cannot_hold_every_live_stream(web_service: GameService) -> None:
    gid = await seated_game(web_service)
    token = await web_service.web.game_token(gid)
    app = make_app(web_service, Limits(burst=1000, per_second=100.0, streams_per_client=3, streams=5))
    async with TestClient(TestServer(app)) as c:
        streams = [await c.get(f"/g/{token}/events") for _ in range(3)]
        assert [s.status for s in streams] == [200, 200, 200]
        refused = await c.get(f"/g/{token}/events")
        assert refused.status == 429 and "Retry-After" in refused.headers
        streams[0].close()
        await asyncio.sleep(0.3)  # the server sees the reader leave at its next write or keep-alive
        for s in streams[1:]:
            s.close()


async def test_tokens_are_random_not_numbered(web_service: GameService) -> None:
    tokens = set()
    for i in range(6):
        gid = await seated_game(web_service, channel=f"chan-{i}")
        tokens.add(await web_service.web.game_token(gid))
    assert len(tokens) == 6 and all(len(t) == 22 for t in tokens)  # 128 random bits each
    assert await web_service.web.find(min(tokens)) is not None
    assert await web_service.web.find("A" * 22) is None and await web_service.web.find("x") is None


async def test_the_pages_show_no_discord_id(web_service: GameService, web_client: TestClient) -> None:  # type: ignore[type-arg]
    """The log names members by id (a GM's clock change, a hand-over): the page says their names."""
    ann, gm = Actor("111111111111111111", "900000000000000001"), Actor("555555555555555555", "900000000000000001",
                                                                       gm=True)
    gid = await new_game(web_service)
    await web_service.lobby.join(ann, gid, "A", "Ann")
    await web_service.lobby.join(Actor("222222222222222222", ann.guild_id), gid, "B", "Bob")
    await web_service.clock.pause(gm, gid)
    token = await web_service.web.game_token(gid)
    said = [await (await web_client.get(f"/g/{token}/{path}")).text() for path in ("", "state.json", "frames.json")]
    assert any("Clock" in text for text in said), said[1][:500]  # the clock change is told
    for text in said:
        for user in ("111111111111111111", "222222222222222222", "555555555555555555"):
            assert user not in text
    assert "a member" in said[0] or "by a member" in said[1]  # the GM without a seat, said as a member
