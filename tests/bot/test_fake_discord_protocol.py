"""The fake Discord runs the interaction protocol, mentions and rate limits as Discord documents them
(tests/bot/discord_protocol.py and discord_ratelimits.py quote the pages). Each test states the rule
it checks; the requests are made as a bot's HTTP client would make them, straight to the fake."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.bot.discord_protocol import RESPONSE_DEADLINE, TOKEN_LIFETIME
from tests.bot.discord_ratelimits import GLOBAL_LIMIT, RateLimits
from tests.bot.fake_discord import APP_ID, CHANNEL_ID, OTHER_CHANNEL_ID, FakeDiscord, command, component

EVE = (333333333333333333, "Eve")
BOB = (222222222222222222, "Bob")


class Client:
    """Plain HTTP to the fake, as discord.py sends it."""

    def __init__(self, base: str, session: aiohttp.ClientSession) -> None:
        self.base, self.session = base, session

    async def call(self, method: str, path: str, body: Any = None, **query: str) -> tuple[int, Any, Any]:
        async with self.session.request(method, self.base + path, json=body, params=query or None,
                                        headers={"Authorization": "Bot fake-token"}) as r:
            data = await r.json() if r.content_type == "application/json" else None
            return r.status, data, r.headers

    async def callback(self, payload: dict[str, Any], kind: int, data: dict[str, Any] | None = None) -> int:
        status, _, _ = await self.call("POST", f"/interactions/{payload['id']}/{payload['token']}/callback",
                                       {"type": kind, **({"data": data} if data is not None else {})})
        return status

    async def followup(self, payload: dict[str, Any], body: dict[str, Any]) -> tuple[int, Any]:
        status, data, _ = await self.call("POST", f"/webhooks/{APP_ID}/{payload['token']}", body, wait="true")
        return status, data


@pytest.fixture
async def client() -> AsyncIterator[tuple[FakeDiscord, Client]]:
    fake = FakeDiscord()
    base = await fake.start()
    async with aiohttp.ClientSession() as session:
        yield fake, Client(base, session)
    await fake.stop()


async def test_the_first_follow_up_after_a_private_deferral_fills_it_and_stays_private(client: Any) -> None:
    """Create Followup Message: after DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE "no new message will be
    created, and the loading message will be edited instead. The ephemeral flag will be ignored"."""
    fake, c = client
    payload = command(EVE, "game", "create")
    fake.receive(payload)
    assert await c.callback(payload, 5, {"flags": 64}) == 204
    status, first = await c.followup(payload, {"content": "for everyone?", "flags": 0})
    assert status == 200 and first["flags"] & 64  # the deferral's visibility is kept
    status, second = await c.followup(payload, {"content": "now a new message", "flags": 0})
    assert status == 200 and second["id"] != first["id"] and not second["flags"] & 64
    assert fake.public_texts() == ["now a new message"]
    assert [m.content for m in fake.visible_to(EVE[0])] == ["for everyone?", "now a new message"]
    assert [m.content for m in fake.visible_to(BOB[0])] == ["now a new message"]


async def test_a_public_deferral_makes_even_a_private_follow_up_public(client: Any) -> None:
    fake, c = client
    payload = command(EVE, "game", "verify")
    fake.receive(payload)
    await c.callback(payload, 5)
    status, answer = await c.followup(payload, {"content": "❌ a refusal", "flags": 64})
    assert status == 200 and not answer["flags"] & 64 and "❌ a refusal" in fake.public_texts()


async def test_no_follow_up_before_the_acknowledgement(client: Any) -> None:
    """Without an initial response there is no webhook yet: 404 Unknown Webhook (10015)."""
    fake, c = client
    payload = command(EVE, "game", "handover")
    fake.receive(payload)
    status, body = await c.followup(payload, {"content": "❌ say who", "flags": 64})
    assert (status, body["code"]) == (404, 10015)
    status, body, _ = await c.call("PATCH", f"/webhooks/{APP_ID}/{payload['token']}/messages/@original",
                                   {"content": "x"})
    assert (status, body["code"]) == (404, 10015)
    assert not fake.messages


async def test_three_seconds_to_answer_then_the_interaction_is_unknown(client: Any) -> None:
    """"you must send an initial response within 3 seconds of receiving the event. If the 3 second
    deadline is exceeded, the token will be invalidated." """
    fake, c = client
    late = command(EVE, "game", "status")
    fake.receive(late, age=RESPONSE_DEADLINE + 0.1)  # the gateway delivered it late
    status, body, _ = await c.call("POST", f"/interactions/{late['id']}/{late['token']}/callback", {"type": 5})
    assert (status, body["code"]) == (404, 10062)
    assert (await c.followup(late, {"content": "x"}))[0] == 404
    on_time = command(EVE, "game", "status")
    fake.receive(on_time)
    assert await c.callback(on_time, 5) == 204
    status, body, _ = await c.call("POST", f"/interactions/{on_time['id']}/{on_time['token']}/callback", {"type": 5})
    assert (status, body["code"]) == (400, 40060)  # acknowledged already


async def test_a_token_expires_after_fifteen_minutes(client: Any) -> None:
    """"Interaction tokens are valid for 15 minutes"; after that Discord answers 401 Invalid Webhook
    Token (discord/discord-api-docs#6851), which counts as an invalid request."""
    fake, c = client
    payload = command(EVE, "game", "status")
    fake.receive(payload)
    await c.callback(payload, 5, {"flags": 64})
    fake.advance(TOKEN_LIFETIME - 1)
    assert (await c.followup(payload, {"content": "just in time"}))[0] == 200
    fake.advance(2)
    status, body = await c.followup(payload, {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)
    assert fake.invalid_requests == 1


async def test_an_answer_lands_in_the_channel_the_interaction_came_from(client: Any) -> None:
    fake, c = client
    payload = command(EVE, "game", "status", channel_id=OTHER_CHANNEL_ID)
    fake.receive(payload)
    await c.callback(payload, 4, {"content": "here"})
    status, later = await c.followup(payload, {"content": "and here"})
    assert {m.channel_id for m in fake.messages.values()} == {str(OTHER_CHANNEL_ID)} and later["channel_id"] == str(
        OTHER_CHANNEL_ID)


async def test_a_component_deferral_edits_its_own_message(client: Any) -> None:
    """DEFERRED_UPDATE_MESSAGE: `@original` is the message the component is on."""
    fake, c = client
    payload = component(EVE, "qd:pick:1", message_id="123")
    fake.receive(payload)
    assert await c.callback(payload, 6) == 204
    status, edited, _ = await c.call("PATCH", f"/webhooks/{APP_ID}/{payload['token']}/messages/@original",
                                     {"components": []})
    assert status == 200 and edited["id"] == "123" and fake.messages["123"].components == []


async def test_mentions_ping_in_new_messages_only(client: Any) -> None:
    """allowed_mentions decides who a new message pings; an edit pings nobody
    (discord/discord-api-docs#1419, #5497)."""
    fake, c = client
    me = f"<@{EVE[0]}> and <@{BOB[0]}>"
    status, posted, _ = await c.call("POST", f"/channels/{CHANNEL_ID}/messages",
                                     {"content": me, "allowed_mentions": {"parse": [], "users": [str(EVE[0])]}})
    assert status == 200 and fake.notified == [(posted["id"], str(EVE[0]))]
    await c.call("PATCH", f"/channels/{CHANNEL_ID}/messages/{posted['id']}",
                 {"content": me + "!", "allowed_mentions": {"parse": ["users"]}})
    assert fake.pinged(BOB[0]) == 0
    await c.call("POST", f"/channels/{CHANNEL_ID}/messages", {"content": me, "allowed_mentions": {"parse": []}})
    await c.call("POST", f"/channels/{CHANNEL_ID}/messages", {"content": me})  # by default users are parsed
    assert (fake.pinged(EVE[0]), fake.pinged(BOB[0])) == (2, 1)


async def test_a_thread_is_created_with_201(client: Any) -> None:
    """Start Thread without Message answers 201 Created (resources-channel.mdx)."""
    fake, c = client
    status, thread, _ = await c.call("POST", f"/channels/{CHANNEL_ID}/threads", {"name": "Oak & Iron", "type": 11})
    assert status == 201 and thread["parent_id"] == str(CHANNEL_ID)


async def test_a_quiet_thread_archives_itself_and_a_post_reopens_it(client: Any) -> None:
    """"Threads automatically archive after a period of inactivity" (topics-threads.mdx)."""
    fake, c = client
    _, thread, _ = await c.call("POST", f"/channels/{CHANNEL_ID}/threads", {"name": "game", "type": 11})
    fake.advance(thread["thread_metadata"]["auto_archive_duration"] * 60 - 10)
    await c.call("POST", f"/channels/{thread['id']}/messages", {"content": "still here"})
    fake.advance(thread["thread_metadata"]["auto_archive_duration"] * 60 - 10)
    assert (await c.call("GET", f"/channels/{thread['id']}"))[1]["thread_metadata"]["archived"] is False
    fake.advance(20)
    assert (await c.call("GET", f"/channels/{thread['id']}"))[1]["thread_metadata"]["archived"] is True
    assert (await c.call("POST", f"/channels/{thread['id']}/messages", {"content": "back"}))[0] == 200
    assert (await c.call("GET", f"/channels/{thread['id']}"))[1]["thread_metadata"]["archived"] is False


async def test_per_route_buckets_send_headers_and_refuse_beyond_them(client: Any) -> None:
    fake, c = client
    fake.rates.scale = 1.0  # Discord's own windows: 5 messages in 5 s in one channel
    answers = [await c.call("POST", f"/channels/{CHANNEL_ID}/messages", {"content": str(i)}) for i in range(6)]
    assert [s for s, _, _ in answers] == [200] * 5 + [429]
    headers = answers[0][2]
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert float(headers["X-RateLimit-Reset-After"]) <= 5 and headers["X-RateLimit-Bucket"]
    status, body, refused = answers[-1]
    assert body["global"] is False and 0 < body["retry_after"] <= 5 and refused["X-RateLimit-Scope"] == "user"
    assert refused["Via"] and refused["Retry-After"]  # discord.py reads a 429 without Via as a ban
    # another channel is another bucket ("top-level resources … calculate limits independently")
    assert (await c.call("POST", f"/channels/{OTHER_CHANNEL_ID}/messages", {"content": "x"}))[0] == 200
    assert fake.invalid_requests == 1
    fake.advance(5)
    assert (await c.call("POST", f"/channels/{CHANNEL_ID}/messages", {"content": "again"}))[0] == 200


def test_the_global_limit_spares_interaction_routes() -> None:
    """"All bots can make up to 50 requests per second" and "Interaction endpoints are not bound to
    the bot's Global Rate Limit"."""
    now = [0.0]
    rates = RateLimits(scale=1.0, clock=lambda: now[0])
    for n in range(GLOBAL_LIMIT):  # fifty guilds: fifty buckets, one global limit
        assert rates.check("GET", f"/guilds/{n}").refused is None
    refused = rates.check("GET", "/guilds/1")
    assert refused.refused is not None and refused.refused["global"] is True
    assert refused.headers["X-RateLimit-Global"] == "true" and refused.scope == "global"
    assert rates.check("POST", "/webhooks/1/tok-1").refused is None  # a follow-up still goes
    now[0] = 1.0
    assert rates.check("GET", "/guilds/1").refused is None


def test_a_shared_limit_is_not_held_against_the_bot() -> None:
    """"429 errors returned with X-RateLimit-Scope: shared are not counted against you"."""
    rates = RateLimits()
    rates.answered(429, "/channels/1/messages", rates.shared_refusal(1.0).scope)
    rates.answered(403, "/channels/1/messages")
    rates.answered(404, "/channels/1/messages")
    assert rates.invalid_in_ten_minutes() == 1


async def test_discord_py_paces_itself_by_the_headers(client: Any) -> None:
    """discord.py reads the bucket headers and waits before a sixth message, so a bot that posts
    through it is never refused by a bucket (only a scaled window keeps the test short)."""
    fake, c = client
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    old = discord.http.Route.BASE
    discord.http.Route.BASE = c.base
    try:
        await http.static_login("fake-token")
        for i in range(12):
            await http.send_message(CHANNEL_ID, params=discord.http.handle_message_parameters(content=str(i)))
    finally:
        await http.close()
        discord.http.Route.BASE = old
    assert not fake.rates.refused and [m.content for m in fake.messages.values()] == [str(i) for i in range(12)]
