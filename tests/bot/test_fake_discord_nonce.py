"""The fake Discord answers Create Message's `nonce` as Discord documents it (resources-message.mdx,
Create Message, JSON/Form Params, quoted in tests/bot/discord_protocol.py):

- `nonce`: "integer or string ... (up to 25 characters)"; the OpenAPI document (tests/bot/discord_api/)
  types `MessageCreateRequest.nonce` as an int64 or a string of `maxLength` 25;
- `enforce_nonce`: "If true and nonce is present, it will be checked for uniqueness in the past few
  minutes. If another message was created by the same author with the same nonce, that message will be
  returned and no new message will be created."

The requests go straight to the fake, as a bot's HTTP client sends them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.bot.discord_protocol import NONCE_WINDOW
from tests.bot.fake_discord import CHANNEL_ID, OTHER_CHANNEL_ID, FakeDiscord
from tests.bot.test_fake_discord_protocol import Client


@pytest.fixture
async def client() -> AsyncIterator[tuple[FakeDiscord, Client]]:
    fake = FakeDiscord()
    base = await fake.start()
    async with aiohttp.ClientSession() as session:
        yield fake, Client(base, session)
    await fake.stop()


async def post(c: Client, body: dict[str, Any], channel: int = CHANNEL_ID) -> tuple[int, Any]:
    status, data, _ = await c.call("POST", f"/channels/{channel}/messages", body)
    return status, data


async def test_the_same_nonce_enforced_returns_the_first_message_and_makes_no_second(client: Any) -> None:
    """"If another message was created by the same author with the same nonce, that message will be
    returned and no new message will be created" — the first message as it is, not the second body."""
    fake, c = client
    status, first = await post(c, {"content": "board of turn 1", "nonce": "qd17", "enforce_nonce": True})
    assert status == 200 and first["nonce"] == "qd17"
    status, again = await post(c, {"content": "board of turn 1 (retried)", "nonce": "qd17", "enforce_nonce": True})
    assert status == 200 and again["id"] == first["id"] and again["content"] == "board of turn 1"
    assert [m.content for m in fake.messages.values()] == ["board of turn 1"]
    assert fake.nonce_replays == 1


async def test_the_author_s_nonce_is_matched_in_any_channel(client: Any) -> None:
    """The match is "by the same author", the page names no channel: a nonce the bot used in one
    channel answers a post to another with that first message (so each message needs its own nonce)."""
    fake, c = client
    _, first = await post(c, {"content": "here", "nonce": 5, "enforce_nonce": True})
    _, other = await post(c, {"content": "there", "nonce": 5, "enforce_nonce": True}, OTHER_CHANNEL_ID)
    assert other["id"] == first["id"] and other["channel_id"] == str(CHANNEL_ID)
    assert len(fake.messages) == 1


async def test_without_enforce_nonce_every_request_makes_a_message(client: Any) -> None:
    """"If true and nonce is present": a nonce alone (or enforce_nonce false) only tags the message."""
    fake, c = client
    _, a = await post(c, {"content": "one", "nonce": "same"})
    _, b = await post(c, {"content": "two", "nonce": "same", "enforce_nonce": False})
    _, d = await post(c, {"content": "three", "enforce_nonce": True})  # enforced, but no nonce to check
    _, e = await post(c, {"content": "four", "enforce_nonce": True})
    assert len({a["id"], b["id"], d["id"], e["id"]}) == 4 and len(fake.messages) == 4
    _, f = await post(c, {"content": "five", "nonce": "same", "enforce_nonce": True})
    assert f["id"] not in (a["id"], b["id"])  # the earlier ones were not made under enforce_nonce
    assert fake.nonce_replays == 0


async def test_a_nonce_is_checked_only_in_the_past_few_minutes(client: Any) -> None:
    """"checked for uniqueness in the past few minutes": after the window a retry makes a second message
    (the fake keeps NONCE_WINDOW, the least "a few minutes" can mean)."""
    fake, c = client
    _, first = await post(c, {"content": "late", "nonce": "qd9", "enforce_nonce": True})
    fake.advance(NONCE_WINDOW - 1)
    _, inside = await post(c, {"content": "late", "nonce": "qd9", "enforce_nonce": True})
    assert inside["id"] == first["id"]
    fake.advance(2)
    _, after = await post(c, {"content": "late", "nonce": "qd9", "enforce_nonce": True})
    assert after["id"] != first["id"] and len(fake.messages) == 2


@pytest.mark.parametrize("nonce", ["x" * 25, 9223372036854775807, -9223372036854775808, 0, "é" * 25])
async def test_a_nonce_in_the_documented_form_is_taken(client: Any, nonce: object) -> None:
    """OpenAPI MessageCreateRequest.nonce: int64 (minimum -2^63, maximum 2^63-1) or a string of
    maxLength 25 (characters, as Discord counts lengths)."""
    fake, c = client
    status, made = await post(c, {"content": "ok", "nonce": nonce, "enforce_nonce": True})
    assert status == 200 and made["nonce"] == nonce
    assert not fake.violations


@pytest.mark.parametrize("nonce", ["x" * 26, 9223372036854775808, -9223372036854775809, 1.5, True, ["qd1"]])
async def test_a_nonce_outside_the_documented_form_is_refused(client: Any, nonce: object) -> None:
    """"up to 25 characters", an int64 or a string: anything else is 400 Invalid Form Body (50035) on
    the `nonce` field, and no message is made."""
    fake, c = client
    fake.expect_violation("nonce")
    status, body = await post(c, {"content": "no", "nonce": nonce, "enforce_nonce": True})
    assert status == 400 and body["code"] == 50035 and "nonce" in body["errors"]
    assert not fake.messages
    assert fake.violations and all("nonce" in str(v) for v in fake.violations)


async def test_enforce_nonce_must_be_a_boolean(client: Any) -> None:
    """OpenAPI MessageCreateRequest.enforce_nonce: boolean (or null)."""
    fake, c = client
    fake.expect_violation("enforce_nonce")
    status, body = await post(c, {"content": "no", "nonce": "qd1", "enforce_nonce": "yes"})
    assert status == 400 and "enforce_nonce" in body["errors"] and not fake.messages
