"""A small fake of Discord's REST API on loopback, and interaction payloads fed through discord.py's
own parsing into the real command tree. Only the network is fake: the bot, discord.py's HTTP client,
webhook adapter, command tree and views are the real ones."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from aiohttp import web

from tests.bot import contract
from tests.bot import discord_limits as limits
from tests.bot.discord_protocol import (
    CHANNEL_MESSAGE,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    LOADING,
    RESPONSE_DEADLINE,
    TOKEN_LIFETIME,
    UPDATE_MESSAGE,
    Interaction,
    Message,
    Nonces,
    notified_users,
)
from tests.bot.discord_ratelimits import TEST_SCALE, RateLimits
from tests.bot.fake_guilds import FakeGuilds
from tests.bot.routes import OPERATIONS

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 800000000000000001
CHANNEL_ID = 700000000000000001
OTHER_CHANNEL_ID = 700000000000000009  # another text channel of the same server
TOKEN = "fake-token"

_ids = itertools.count(1_000_000_000_000_000_000)


def snowflake() -> str:
    return str(next(_ids))


def user_json(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name, "avatar": None, "bot": bot,
            "public_flags": 0, "flags": 0, "primary_guild": None}


BOT_USER = user_json(BOT_ID, "Quarterdeck", bot=True)
# the bot's own account as /users/@me tells it: a user with the fields only its owner sees
BOT_ACCOUNT: dict[str, Any] = {**BOT_USER, "mfa_enabled": False, "locale": "en-US"}
APPLICATION: dict[str, Any] = {
    "id": str(APP_ID), "name": "Quarterdeck", "description": "", "icon": None, "type": None, "bot_public": True,
    "bot_require_code_grant": False, "owner": user_json(1, "owner"), "verify_key": "0", "flags": 0, "flags_new": "0",
    "summary": "", "team": None, "redirect_uris": [], "interactions_endpoint_url": None,
    "role_connections_verification_url": None, "approximate_guild_count": 1, "approximate_user_install_count": 0,
    "approximate_user_authorization_count": 0, "explicit_content_filter": 0, "eligible_oauth2_scopes": [],
}


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def answered_command(command: dict[str, Any], guild_id: str | None) -> dict[str, Any]:
    """A command as Discord answers its registration: given ids and a version, its unset fields
    left out rather than null (bar `default_member_permissions`, which is null when unset)."""
    answered: dict[str, Any] = {
        "type": 1, "description": "", **_without_nulls(command), "id": snowflake(), "application_id": str(APP_ID),
        "version": snowflake(), "default_member_permissions": command.get("default_member_permissions"),
    }
    if guild_id is not None:
        answered["guild_id"] = guild_id
    return answered


def answered_components(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A message's components as Discord answers them: each numbered (components-reference.mdx: "The
    `id` ... is generated sequentially if left empty"), a select's bounds filled in, and the nulls a
    request may carry (a unicode emoji's `id`) left out."""
    counter = itertools.count(1)

    def answer(item: Any) -> Any:
        if isinstance(item, list):
            return [answer(x) for x in item]
        if not isinstance(item, dict):
            return item
        out = {k: answer(v) for k, v in item.items() if v is not None}
        if "type" in out:  # a component (an option or an emoji has no type)
            out["id"] = out.get("id") or next(counter)
            if out["type"] in (3, 5, 6, 7, 8):
                out.setdefault("min_values", 1)
                out.setdefault("max_values", 1)
        return out

    answered: list[dict[str, Any]] = answer(rows)
    return answered


@dataclass
class Sent:
    """A request the bot made: where it went and what it carried."""

    method: str
    path: str
    payload: dict[str, Any]
    files: list[tuple[str, bytes]] = field(default_factory=list)
    query: dict[str, str] = field(default_factory=dict)
    parts: list[str] = field(default_factory=list)  # a multipart body's file parts, by name (files[n])
    response_message_id: str = ""  # for an interaction callback or a channel post: the message Discord made of it
    status: int = 0  # what the fake answered
    message: Message | None = None  # the message the request made or edited, as Discord keeps it

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        """Whether what this request made is seen by its interaction's user alone: the message's own
        flag as Discord kept it (a follow-up filling a deferral keeps the deferral's), else the flag asked."""
        if self.message is not None:
            return self.message.ephemeral
        flags = self.payload.get("flags") or (self.payload.get("data") or {}).get("flags") or 0
        return bool(int(flags) & EPHEMERAL)

    @property
    def in_channel(self) -> bool:
        return self.method == "POST" and self.path.startswith("/api/v10/channels/") and self.path.endswith("/messages")


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # exactly "application/json", as Discord sends it: discord.py compares the header verbatim
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


def _error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return _json(body, status)


@dataclass
class Failure:
    """The next `count` requests to paths starting with `prefix` fail: a server error (`status` 503:
    discord.py gives up at once, where it retries a 500 itself), or a 429 whose `retry_after` is
    longer than the bot waits for in place (through Discord's proxy, so discord.py reads it)."""

    prefix: str
    status: int
    count: int = 1
    method: str | None = None
    retry_after: float = 0.0
    failed: int = 0

    def take(self, method: str, path: str) -> web.Response | None:
        if self.failed >= self.count or not path.startswith(self.prefix) or (self.method and method != self.method):
            return None
        self.failed += 1
        if self.status == 429:
            return _json({"message": "You are being rate limited.", "retry_after": self.retry_after, "global": False},
                         429, {"Via": "1.1 google", "Retry-After": str(round(self.retry_after))})
        return _json({"message": "Service Unavailable", "code": 0}, self.status)


@dataclass
class Violation:
    """A request Discord would have refused for breaking its contract (answered 400 50035), or an
    answer of the fake's own that breaks the contract (`answer`: a bug of the fake's, which no test
    may expect)."""

    method: str
    path: str
    errors: list[str]  # "field.path: message (CODE)"
    expected: bool = False
    answer: bool = False

    def __str__(self) -> str:
        return ("the fake's answer to " if self.answer else "") + f"{self.method} {self.path}: " + "; ".join(self.errors)


@dataclass
class Budget:
    """A rate limit: `limit` requests to paths starting with `prefix` per `window` seconds; beyond it
    Discord answers 429 with how long to wait."""

    prefix: str
    limit: int
    window: float
    method: str | None = None
    started: float = 0.0
    used: int = 0
    refused: int = 0  # 429s answered

    def take(self, method: str, path: str, now: float) -> float | None:
        """None if the request may pass, else the seconds until the budget refills."""
        if not path.startswith(self.prefix) or (self.method is not None and method != self.method):
            return None
        if now - self.started >= self.window:
            self.started, self.used = now, 0
        if self.used < self.limit:
            self.used += 1
            return None
        self.refused += 1
        return max(0.001, self.window - (now - self.started))


class FakeDiscord:
    """Discord's REST API as far as the bot uses it, answering as Discord does when a request breaks
    a documented limit (tests/bot/discord_limits.py: 400 with code 50035 and the fields at fault;
    413 for files over the upload limit), a rate limit (tests/bot/discord_ratelimits.py: buckets,
    the global limit, 429 with `retry_after`), the interaction protocol (tests/bot/discord_protocol.py:
    3 s to acknowledge, a follow-up only after that, the first one after a deferral filling it, tokens
    that expire), names an unknown channel or message (404, codes 10003 and 10008), or lacks a
    permission (403: 50013, or 50007 for a closed DM). Each refusal for a broken limit is kept in
    `violations`: the shared fixtures fail the test at teardown unless it said it expected it
    (`expect_violation`)."""

    def __init__(self, rate_scale: float = TEST_SCALE) -> None:
        self.requests: list[Sent] = []
        self.violations: list[Violation] = []
        self.expected: list[str] = []  # substrings of the violations a test provokes on purpose
        self.closed_dms: set[str] = set()
        self.no_files_in: set[str] = set()
        self.forbidden: set[str] = set()  # channels where the bot may not post (50013)
        self.dm_channels: dict[str, str] = {}
        # the channels that exist: the server's two text channels, then the threads and DMs made
        self.channels: dict[str, dict[str, Any]] = {
            str(c): {"id": str(c), "type": 0, "guild_id": str(GUILD_ID), "name": "oak-and-iron", "position": 0,
                     "nsfw": False, "parent_id": None, "permission_overwrites": [], "flags": 0}
            for c in (CHANNEL_ID, OTHER_CHANNEL_ID)
        }
        self.servers = FakeGuilds(BOT_USER, TOKEN, self.channels, GUILD_ID)  # roles and overwrites (--check)
        self.messages: dict[str, Message] = {}  # every message there is, by id
        self.nonces = Nonces()  # Create Message's enforce_nonce (discord_protocol.py)
        self.nonce_replays = 0  # Create Message requests answered with the message their nonce made before
        self.interactions: dict[str, Interaction] = {}  # by token: the interactions Discord sent the bot
        self.operations: set[str] = set()  # the API document's operations the requests were for
        self.thread_activity: dict[str, float] = {}  # thread id -> when its last message came (fake clock)
        self.notified: list[tuple[str, str]] = []  # (message id, user id): each ping a new message gave
        self.skew = 0.0  # seconds the fake's clock runs ahead of the machine's (`advance`)
        self.rates = RateLimits(scale=rate_scale, clock=self.now)
        self.budgets: list[Budget] = []
        self.failures: list[Failure] = []
        self.max_upload = limits.UPLOAD
        self.expired: set[str] = set()  # interaction ids answered too late, whatever the clock says
        self.uploads: dict[str, bytes] = {}
        self.listeners: list[Callable[[Sent], None]] = []  # told of each request as it arrives
        self.sync_status = 200  # what a slash-command sync answers (503: Discord is down)
        self.channel_webhooks: dict[str, str] = {}  # token -> channel: webhooks a server made (OWNER_WEBHOOK_URL)
        self.runner: web.AppRunner | None = None
        self.port = 0

    # -------------------------------------------------------------- what a test arranges

    def now(self) -> float:
        return time.monotonic() + self.skew

    def advance(self, seconds: float) -> None:
        """Time passes for Discord (tokens age, rate-limit windows end) without the test waiting."""
        self.skew += seconds

    def receive(self, payload: dict[str, Any], age: float = 0.0) -> None:
        """Discord sends the bot this interaction (`age` seconds ago: a gateway that delivered it late).
        A component's message is one Discord has, whoever made it; the member who sent it is one of the
        server's."""
        member, guild_id = payload.get("member"), payload.get("guild_id")
        if member is not None and guild_id is not None and str(guild_id) in self.servers.guilds:
            self.servers.add_member(guild_id, member["user"]["id"], member["user"]["username"],
                                    tuple(member.get("roles") or ()))
        message = payload.get("message")
        if message is not None and message["id"] not in self.messages:
            self.messages[message["id"]] = Message(
                message["id"], str(payload["channel_id"]), message.get("content") or "", int(message.get("flags") or 0),
                list(message.get("components") or []), [])
        self.interactions[payload["token"]] = Interaction(
            str(payload["id"]), payload["token"], str((payload.get("member") or {}).get("user", {}).get("id")
                                                      or (payload.get("user") or {}).get("id")),
            str(payload["channel_id"]), self.now() - age, int(payload["type"]),
            message_id=message["id"] if message else None)

    def expect_violation(self, match: str) -> None:
        """A test that provokes a refusal on purpose: violations whose text contains `match` are fine."""
        self.expected.append(match)
        for v in self.violations:
            v.expected = v.expected or (match in str(v) and not v.answer)

    def unexpected_violations(self) -> list[Violation]:
        return [v for v in self.violations if not v.expected]

    def rate_limit(self, prefix: str, limit: int, window: float = 0.05, method: str | None = None) -> Budget:
        """From now on, `limit` requests per `window` seconds to paths starting with `prefix`
        (e.g. f"/channels/{CHANNEL_ID}/messages"); more are answered 429 as a limit on a shared
        resource, which the bot could not have known of."""
        budget = Budget("/api/v10" + prefix, limit, window, method, started=time.monotonic())
        self.budgets.append(budget)
        return budget

    def fail(self, prefix: str, status: int = 503, count: int = 1, method: str | None = "POST",
             retry_after: float = 0.0) -> Failure:
        """The next `count` requests to `prefix` (e.g. f"/channels/{CHANNEL_ID}/messages") fail."""
        failure = Failure("/api/v10" + prefix, status, count, method, retry_after)
        self.failures.append(failure)
        return failure

    def forbid(self, channel_id: int | str) -> None:
        """The bot loses its permissions in this channel: posts, edits and threads there get 403 50013."""
        self.forbidden.add(str(channel_id))

    def archive(self, thread_id: int | str, locked: bool = False) -> None:
        """A thread goes quiet and is archived (locked: only moderators may reopen it). A post to an
        archived thread that is not locked reopens it, as Discord does for anyone who may send
        messages in threads; a locked one refuses (400, code 50083)."""
        meta = self.channels[str(thread_id)]["thread_metadata"]
        meta["archived"], meta["locked"] = True, locked

    def delete_channel(self, channel_id: int | str) -> None:
        self.channels.pop(str(channel_id), None)

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == 11]

    # -------------------------------------------------------------- server

    async def start(self) -> str:
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self.servers.authorise])
        app.router.add_route("*", "/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    async def handle(self, request: web.Request) -> web.Response:
        if request.path.startswith("/cdn/"):
            return web.Response(body=self.uploads[request.path.split("/")[2]])
        payload: Any = {}
        files: list[tuple[str, bytes]] = []
        parts: list[str] = []
        multipart = request.content_type.startswith("multipart/")
        if multipart:
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    parts.append(part.name or "")
                    files.append((part.filename or part.name or "", await part.read()))
        elif request.can_read_body:
            text = await request.text()
            payload = json.loads(text) if text else {}
        sent = Sent(request.method, request.path, payload if isinstance(payload, dict) else {"items": payload},
                    files, dict(request.query), parts)
        self.requests.append(sent)
        found = contract.operation(sent.method, sent.path)
        if found is not None:
            self.operations.add(found[0].operation_id)
            if found[0].operation_id not in OPERATIONS:  # a call nobody listed, so no test is known to cover it
                self.violations.append(Violation(sent.method, sent.path, [
                    f"{found[0].operation_id} is not listed in tests/bot/routes.py (with why and its test)"],
                    answer=True))
        for listener in self.listeners:
            listener(sent)
        response, scope = self._respond(sent, payload if request.body_exists else None, multipart)
        sent.status = response.status
        self.rates.answered(response.status, sent.path, scope)
        self._check_answer(request.method, request.path, response)
        return response

    def _respond(self, sent: Sent, payload: Any, multipart: bool) -> tuple[web.Response, str | None]:
        """The answer, and the scope of a 429 (a refusal on a shared resource is not held against the bot)."""
        path = sent.path.removeprefix("/api/v10")
        now = time.monotonic()
        for budget in self.budgets:
            wait = budget.take(sent.method, sent.path, now)
            if wait is not None:
                verdict = self.rates.shared_refusal(wait)
                return _json(verdict.refused, 429, verdict.headers), verdict.scope
        verdict = self.rates.check(sent.method, path)
        if verdict.refused is not None:
            return _json(verdict.refused, 429, verdict.headers), verdict.scope
        for failure in self.failures:
            failed = failure.take(sent.method, sent.path)
            if failed is not None:
                return failed, None
        response = self._check(sent, payload, multipart) or self.answer(sent)
        response.headers.update(verdict.headers)
        return response, None

    def _check(self, sent: Sent, payload: Any, multipart: bool) -> web.Response | None:
        """Discord's own checks of a request before it does anything: the upload limit, then the
        request against Discord's contract (tests/bot/contract.py)."""
        if sent.files and limits.upload_too_large(sent.files, self.max_upload):
            return _error(413, 40005, "Request entity too large")
        refusal = contract.request_errors(sent.method, sent.path, sent.query, payload, sent.parts, multipart)
        if refusal is None:
            return None
        violation = Violation(sent.method, sent.path.removeprefix("/api/v10"), refusal.errors)
        violation.expected = any(m in str(violation) for m in self.expected)
        self.violations.append(violation)
        return _json(refusal.body, refusal.status)

    def _check_answer(self, method: str, path: str, response: web.Response) -> None:
        """An answer of the fake's that breaks the document is the fake's bug: kept as a violation
        no test can expect, so the test fails."""
        raw = response.body
        body = json.loads(raw) if response.content_type == "application/json" and isinstance(raw, bytes) and raw else None
        faults = contract.response_errors(method, path, response.status, body)
        if faults:
            self.violations.append(Violation(method, path.removeprefix("/api/v10"), faults, answer=True))

    # -------------------------------------------------------------- messages

    def _new_message(self, channel_id: str, body: dict[str, Any], files: list[tuple[str, bytes]],
                     interaction: Interaction | None = None, flags: int | None = None) -> Message:
        """A message Discord makes, and the pings it gives: in a new message only, never in an edit."""
        flags = int(body.get("flags") or 0) if flags is None else flags
        message = Message(snowflake(), channel_id, str(body.get("content") or ""), flags,
                          list(body.get("components") or []), list(files), token=interaction.token if interaction else None,
                          nonce=body.get("nonce") if interaction is None else None)
        if message.ephemeral and interaction is not None:
            message.ephemeral_to = interaction.user_id
        message.shown.append(message.content)
        self.messages[message.id] = message
        if not message.ephemeral and channel_id not in self.dm_channels.values():
            for user in notified_users(message.content, body.get("allowed_mentions")):
                self.notified.append((message.id, user))
        return message

    @staticmethod
    def _edit(message: Message, body: dict[str, Any], files: list[tuple[str, bytes]]) -> Message:
        """An edit changes the fields it carries; the ephemeral flag of a message never changes, and an
        edit pings nobody."""
        if "content" in body:
            message.content = str(body.get("content") or "")
        if "components" in body:
            message.components = list(body.get("components") or [])
        if "attachments" in body or files:
            kept = {str(a.get("id")) for a in body.get("attachments") or []}
            message.files = [f for i, f in enumerate(message.files) if f"{message.id}{i:02d}" in kept] + list(files)
        message.flags &= ~LOADING
        message.edits += 1
        message.shown.append(message.content)
        return message

    def _message_json(self, message: Message) -> dict[str, Any]:
        return {
            "id": message.id, "channel_id": message.channel_id, "author": BOT_USER,
            "content": message.content, "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": datetime.now(UTC).isoformat() if message.edits else None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [
                {"id": f"{message.id}{i:02d}", "filename": name, "size": len(body), "url": f"https://cdn.invalid/{name}",
                 "proxy_url": f"https://cdn.invalid/{name}"} for i, (name, body) in enumerate(message.files)
            ],
            "embeds": [], "pinned": False, "type": 0, "flags": message.flags,
            "components": answered_components(message.components),
            **({"nonce": message.nonce} if message.nonce is not None else {}),
        }

    def _answer_message(self, sent: Sent, message: Message, status: int = 200) -> web.Response:
        sent.message = message
        sent.response_message_id = message.id
        return _json(self._message_json(message), status)

    def _channel(self, channel_id: str) -> dict[str, Any] | None:
        """The channel as it is now: "Threads automatically archive after a period of inactivity"
        (topics-threads.mdx), here exactly their `auto_archive_duration` minutes after their last message."""
        channel = self.channels.get(channel_id)
        meta = channel.get("thread_metadata") if channel is not None else None
        if meta is not None and not meta["archived"] and \
                self.now() - self.thread_activity.get(channel_id, 0.0) > meta["auto_archive_duration"] * 60:
            meta["archived"], meta["archive_timestamp"] = True, datetime.now(UTC).isoformat()
        return channel

    def _refuse_channel(self, channel_id: str, sent: Sent) -> web.Response | None:
        """Why Discord would refuse a post or an edit in this channel, if it would."""
        channel = self._channel(channel_id)
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        recipient = next((u for u, c in self.dm_channels.items() if c == channel_id), None)
        if recipient is not None and recipient in self.closed_dms:
            return _error(403, 50007, "Cannot send messages to this user")
        if channel_id in self.forbidden or (channel_id in self.no_files_in and sent.files):
            return _error(403, 50013, "Missing Permissions")
        meta = channel.get("thread_metadata")
        if meta is not None and meta["archived"]:
            if meta["locked"]:
                return _error(400, 50083, "Thread is archived")
            meta["archived"] = False  # a post reopens an archived thread that is not locked
        if meta is not None:
            self.thread_activity[channel_id] = self.now()
        return None

    # -------------------------------------------------------------- the interaction protocol

    def _callback(self, sent: Sent, interaction_id: str, token: str) -> web.Response:
        """The initial response: within 3 s, once (interactions-receiving-and-responding.mdx)."""
        found = self.interactions.get(token)
        if found is None or found.id != interaction_id or found.invalidated:
            return _error(404, 10062, "Unknown interaction")
        if found.response is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if interaction_id in self.expired or self.now() - found.received > RESPONSE_DEADLINE:
            found.invalidated = True  # "If the 3 second deadline is exceeded, the token will be invalidated."
            return _error(404, 10062, "Unknown interaction")
        kind = int(sent.payload.get("type") or 0)
        data = sent.payload.get("data") or {}
        found.response = kind
        message: Message | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._new_message(found.channel_id, data, sent.files, found)
        elif kind == DEFERRED_MESSAGE:  # "Bot is thinking…": a message to fill, private if the defer said so
            message = self._new_message(found.channel_id, {}, [], found, flags=(int(data.get("flags") or 0) & EPHEMERAL)
                                        | LOADING)
            found.loading = True
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and found.message_id in self.messages:
            message = self.messages[found.message_id]
            if kind == UPDATE_MESSAGE:
                self._edit(message, data, sent.files)
        if message is not None:
            found.original = message.id
            sent.message, sent.response_message_id = message, message.id
        if sent.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        body: dict[str, Any] = {"interaction": {"id": interaction_id, "type": found.kind}}
        if message is not None:  # not for autocomplete or a modal: no message of its own
            body["interaction"] |= {"response_message_id": message.id, "response_message_loading": found.loading,
                                    "response_message_ephemeral": message.ephemeral}
        if message is not None and kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            # the document's resource holds a message the response made or changed (4, 7), or an activity
            body["resource"] = {"type": kind, "message": self._message_json(message)}
        return _json(body)

    def _webhook(self, sent: Sent, token: str, rest: list[str]) -> web.Response:
        """Follow-ups and edits under an interaction's token; a post through a channel's webhook."""
        if token in self.channel_webhooks and not rest and sent.method == "POST":
            return self._answer_message(sent, self._new_message(self.channel_webhooks[token], sent.payload, sent.files))
        found = self.interactions.get(token)
        if found is not None and self.now() - found.received > TOKEN_LIFETIME:
            return _error(401, 50027, "Invalid Webhook Token")
        if found is None or found.invalidated or found.response is None:
            return _error(404, 10015, "Unknown Webhook")  # not acknowledged (yet): there is no webhook
        method, payload = sent.method, sent.payload
        if not rest and method == "POST":
            original = self.messages.get(found.original or "")
            if found.loading and original is not None:
                # the first follow-up after a deferral fills the loading message, keeping its visibility
                found.loading = False
                return self._answer_message(sent, self._edit(original, payload, sent.files))
            return self._answer_message(sent, self._new_message(found.channel_id, payload, sent.files, found))
        if len(rest) == 2 and rest[0] == "messages":
            target = found.original if rest[1] == "@original" else rest[1]
            message = self.messages.get(target or "")
            if message is None or (rest[1] != "@original" and message.token != token):
                return _error(404, 10008, "Unknown Message")
            if method == "PATCH":
                if rest[1] == "@original":
                    found.loading = False
                return self._answer_message(sent, self._edit(message, payload, sent.files))
            if method == "DELETE":
                self.messages.pop(message.id, None)
                return web.Response(status=204)
            if method == "GET":
                return _json(self._message_json(message))
        return _json({"message": f"fake Discord has no route {method} {sent.path}", "code": 0}, status=404)

    # -------------------------------------------------------------- routes

    def answer(self, sent: Sent) -> web.Response:
        served = self.servers.answer(sent)  # servers, roles, members, and channels hidden from the bot
        if served is not None:
            return served
        path, method = sent.path.removeprefix("/api/v10"), sent.method
        parts = path.strip("/").split("/")
        if path == "/users/@me" and method == "GET":
            return _json(BOT_ACCOUNT)
        if path == "/oauth2/applications/@me":
            return _json(APPLICATION)
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            if self.sync_status != 200:
                return _json({"message": "Internal Server Error", "code": 0}, status=self.sync_status)
            guild = parts[3] if len(parts) > 3 and parts[2] == "guilds" else None
            return _json([answered_command(cmd, guild) for cmd in sent.payload["items"]])
        if parts[0] == "interactions" and parts[-1] == "callback" and len(parts) == 4:
            return self._callback(sent, parts[1], parts[2])
        if parts[0] == "webhooks" and len(parts) >= 3:
            return self._webhook(sent, parts[2], parts[3:])
        if parts[:2] == ["users", "@me"] and parts[-1] == "channels":
            recipient = str(sent.payload.get("recipient_id"))
            channel_id = self.dm_channels.setdefault(recipient, snowflake())
            self.channels[channel_id] = {"id": channel_id, "type": 1, "last_message_id": None, "flags": 0,
                                         "recipients": [user_json(int(recipient), f"user{recipient}")]}
            return _json(self.channels[channel_id])
        if parts[0] == "users" and method == "GET":
            return _json(user_json(int(parts[1]), f"user{parts[1]}"))
        if parts[0] == "channels" and len(parts) == 2 and method in ("GET", "DELETE"):
            found = self._channel(parts[1]) if method == "GET" else self.channels.pop(parts[1], None)
            return _json(found) if found is not None else _error(404, 10003, "Unknown Channel")
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            refused = self._refuse_channel(parts[1], sent)
            if refused is not None:
                return refused
            first = self.nonces.first(sent.payload, self.now())
            if first is not None and first in self.messages:  # the message that nonce made: no second one
                self.nonce_replays += 1
                return self._answer_message(sent, self.messages[first])
            message = self._new_message(parts[1], sent.payload, sent.files)
            self.nonces.made(sent.payload, message.id, self.now())
            return self._answer_message(sent, message)
        if parts[0] == "channels" and parts[-2] == "messages" and method == "PATCH":
            refused = self._refuse_channel(parts[1], sent)
            if refused is not None:
                return refused
            message = self.messages.get(parts[-1])
            # an ephemeral message is reached only through its interaction's token
            if message is None or message.channel_id != parts[1] or message.ephemeral:
                return _error(404, 10008, "Unknown Message")
            return self._answer_message(sent, self._edit(message, sent.payload, sent.files))
        if parts[0] == "channels" and parts[-1] == "threads" and method == "POST":
            parent = self.channels.get(parts[1])
            if parent is None:
                return _error(404, 10003, "Unknown Channel")
            if parts[1] in self.forbidden:
                return _error(403, 50013, "Missing Permissions")
            # resources-channel.mdx, Start Thread from Message: "The id of the created thread will be the
            # same as the id of the source message, and as such a message can only have a single thread"
            from_message = parts[3] if len(parts) == 5 and parts[2] == "messages" else None
            if from_message is not None:
                source = self.messages.get(from_message)
                if source is None or source.channel_id != parts[1]:
                    return _error(404, 10008, "Unknown Message")
                if from_message in self.channels:
                    return _error(400, 160004, "A thread has already been created for this message")
            thread = {"id": from_message or snowflake(), "type": 11, "guild_id": str(GUILD_ID),
                      "name": sent.payload.get("name", "thread"), "parent_id": parts[1],
                      "owner_id": str(BOT_ID), "message_count": 0, "member_count": 1, "total_message_sent": 0,
                      "flags": 0,
                      "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                          "archive_timestamp": datetime.now(UTC).isoformat(), "locked": False}}
            self.channels[thread["id"]] = thread
            self.thread_activity[thread["id"]] = self.now()
            return _json(thread, 201)  # resources-channel.mdx, Start Thread without Message: "201 Created"
        return _json({"message": f"fake Discord has no route {method} {path}", "code": 0}, status=404)

    def channel_webhook(self, channel_id: int) -> str:
        """A webhook's URL for posting into the channel, as a server's Integrations page gives it."""
        token = f"hook{snowflake()}".ljust(68, "x")  # discord.py reads 60 characters or more as a token
        self.channel_webhooks[token] = str(channel_id)
        return f"https://discord.com/api/webhooks/{snowflake()}/{token}"

    def attach(self, filename: str, body: bytes) -> dict[str, Any]:
        """An attachment a user uploads with a command; the bot downloads it from this server."""
        att_id = snowflake()
        self.uploads[att_id] = body
        url = f"http://127.0.0.1:{self.port}/cdn/{att_id}/{filename}"
        return {"id": att_id, "filename": filename, "size": len(body), "url": url, "proxy_url": url,
                "content_type": "text/plain"}

    # -------------------------------------------------------------- what the bot said

    def channel_messages(self) -> list[Sent]:
        return [r for r in self.requests if r.in_channel]

    @property
    def invalid_requests(self) -> int:
        """401, 403 and 429 answers in the last ten minutes: Discord bans an IP at 10,000."""
        return self.rates.invalid_in_ten_minutes()

    def pinged(self, user_id: int | str) -> int:
        """How many new messages notified this user."""
        return sum(1 for _, user in self.notified if user == str(user_id))

    def public_texts(self) -> list[str]:
        """Everything anyone in the server could read at some moment: each text every message there
        showed that was not ephemeral (an edited message counts with each of its versions)."""
        dms = set(self.dm_channels.values())
        return [text for m in self.messages.values() if not m.ephemeral and m.channel_id not in dms for text in m.shown]

    def visible_to(self, user_id: int | str) -> list[Message]:
        """The messages this user could see: the server's, their own ephemeral answers, their DMs."""
        dm = self.dm_channels.get(str(user_id))
        dms = set(self.dm_channels.values())
        return [m for m in self.messages.values()
                if (m.channel_id not in dms and (not m.ephemeral or m.ephemeral_to == str(user_id)))
                or m.channel_id == dm]


# ---------------------------------------------------------------- interactions


def _member(user_id: int, name: str, roles: tuple[int, ...] = (), permissions: int = 0) -> dict[str, Any]:
    return {"user": user_json(user_id, name), "roles": [str(r) for r in roles], "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False, "mute": False, "flags": 0, "permissions": str(permissions), "nick": None, "avatar": None}


def _base(user: tuple[int, str], channel_id: int, kind: int, data: dict[str, Any],
          message: dict[str, Any] | None = None, roles: tuple[int, ...] = (), permissions: int = 0) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": snowflake(), "application_id": str(APP_ID), "type": kind, "data": data, "guild_id": str(GUILD_ID),
        "channel_id": str(channel_id),
        "channel": {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": "oak-and-iron",
                    "position": 0, "nsfw": False, "parent_id": None, "permission_overwrites": []},
        "member": _member(user[0], user[1], roles, permissions), "token": f"tok-{snowflake()}", "version": 1,
        "locale": "en-GB", "guild_locale": "en-GB", "app_permissions": str(discord.Permissions.all().value),
        "entitlements": [], "attachment_size_limit": limits.UPLOAD, "authorizing_integration_owners": {},
        "context": 0,
    }
    if message is not None:
        payload["message"] = message
    return payload


def _options(values: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, value in values.items():
        if value is None:
            continue
        kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 10 if isinstance(value, float) else 3
        out.append({"name": name, "type": kind, "value": value})
    return out


def command(user: tuple[int, str], name: str, sub: str | None = None, /, channel_id: int = CHANNEL_ID,
            roles: tuple[int, ...] = (), permissions: int = 0, attachments: dict[str, dict[str, Any]] | None = None,
            members: dict[str, tuple[int, str]] | None = None, channels: dict[str, int] | None = None,
            **values: Any) -> dict[str, Any]:
    """An APPLICATION_COMMAND interaction for /name [sub] with these options (and uploaded files,
    members chosen in USER options, text channels chosen in CHANNEL options)."""
    opts = _options(values)
    for option, channel in (channels or {}).items():
        opts.append({"name": option, "type": 7, "value": str(channel)})
    for option, att in (attachments or {}).items():
        opts.append({"name": option, "type": 11, "value": att["id"]})
    for option, (member_id, _) in (members or {}).items():
        opts.append({"name": option, "type": 6, "value": str(member_id)})
    if sub is not None:
        opts = [{"name": sub, "type": 1, "options": opts}]
    data: dict[str, Any] = {"id": snowflake(), "name": name, "type": 1, "options": opts, "guild_id": str(GUILD_ID)}
    resolved: dict[str, Any] = {}
    if attachments:
        resolved["attachments"] = {a["id"]: a for a in attachments.values()}
    if members:
        # interactions-receiving-and-responding, Resolved Data Structure: a member's user comes in
        # `users`, and the partial member in `members` lacks user, deaf and mute
        resolved["users"] = {str(i): user_json(i, n) for i, n in members.values()}
        resolved["members"] = {str(i): {k: v for k, v in _member(i, n).items() if k not in ("user", "deaf", "mute")}
                               for i, n in members.values()}
    if channels:
        # Resolved Data Structure: partial channels (id, name, type, permissions, …)
        resolved["channels"] = {str(c): {"id": str(c), "name": "chronicle", "type": 0, "permissions": "2147483647"}
                                for c in channels.values()}
    if resolved:
        data["resolved"] = resolved
    return _base(user, channel_id, 2, data, roles=roles, permissions=permissions)


def component(user: tuple[int, str], custom_id: str, message_id: str, component_type: int = 2,
              values: list[str] | None = None, channel_id: int = CHANNEL_ID) -> dict[str, Any]:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    # the message the component lives on, with that component in it (discord.py looks it up there)
    if component_type == 2:
        item: dict[str, Any] = {"type": 2, "style": 1, "label": "button", "custom_id": custom_id}
    else:
        item = {"type": component_type, "custom_id": custom_id, "min_values": 1, "max_values": max(1, len(values or [])),
                "options": [{"label": v, "value": v} for v in values or []]}
    message = {"id": message_id, "channel_id": str(channel_id), "author": BOT_USER, "content": "", "timestamp":
               datetime.now(UTC).isoformat(), "edited_timestamp": None, "tts": False, "mention_everyone": False,
               "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "pinned": False, "type": 0,
               "flags": 0, "components": [{"type": 1, "components": [item]}]}
    return _base(user, channel_id, 3, data, message=message)


async def dispatch(bot: discord.Client, payload: dict[str, Any], fake: FakeDiscord, settle: float = 5.0) -> list[Sent]:
    """Feed the payload to discord.py as the gateway would, and wait until the bot has answered."""
    before = len(fake.requests)
    fake.receive(payload)
    bot._connection.parse_interaction_create(payload)  # type: ignore[attr-defined]
    deadline = asyncio.get_running_loop().time() + settle
    token = payload["token"]
    # the interaction is finished when its last follow-up (ephemeral "done"/error) has gone out
    while asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.005)
        mine = [r for r in fake.requests[before:] if token in r.path]
        # (an edit of the interaction's own message, which comes first, is not its answer)
        followups = [r for r in mine if r.path.startswith("/api/v10/webhooks/") and r.method == "POST"]
        answered = any(r.payload.get("type") in (4, 8) for r in mine if "/callback" in r.path)
        if followups or answered:
            await asyncio.sleep(0.01)  # the answer is the interaction's last request; this only settles it
            break
    return fake.requests[before:]


def guild_payload(guild_id: int = GUILD_ID) -> dict[str, Any]:
    """A server as a GUILD_CREATE event carries it (https://discord.com/developers/docs/events/gateway-events
    #guild-create): the guild object with its channels and roles; no members (the bot asks for no
    privileged intent)."""
    return {"id": str(guild_id), "name": "Harbour", "icon": None, "owner_id": "1", "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [], "emojis": [], "features": [], "mfa_level": 0, "system_channel_flags": 0,
            "premium_tier": 0, "preferred_locale": "en-US", "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "joined_at": datetime.now(UTC).isoformat(), "large": False, "member_count": 3, "members": [],
            "channels": [], "threads": [], "presences": [], "voice_states": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "unavailable": False}


def guild_create(bot: discord.Client, guild_id: int = GUILD_ID) -> None:
    """The bot joins a server (GUILD_CREATE, dispatched as on_guild_join: a new server has no
    `unavailable` field, one coming back from an outage has it false)."""
    payload = guild_payload(guild_id)
    del payload["unavailable"]
    bot._connection.parse_guild_create(payload)  # type: ignore[attr-defined]


def guild_delete(bot: discord.Client, guild_id: int = GUILD_ID, outage: bool = False) -> None:
    """GUILD_DELETE (https://discord.com/developers/docs/events/gateway-events#guild-delete): an
    unavailable guild object. With `unavailable` true the server is in an outage (on_guild_unavailable);
    without it the bot was removed from the server, or the server deleted (on_guild_remove)."""
    payload: dict[str, Any] = {"id": str(guild_id)}
    if outage:
        payload["unavailable"] = True
    bot._connection.parse_guild_delete(payload)  # type: ignore[attr-defined]
