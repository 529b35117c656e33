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

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        flags = self.payload.get("flags") or (self.payload.get("data") or {}).get("flags") or 0
        return bool(int(flags) & 64)

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
    413 for files over the upload limit), a rate limit (429 with `retry_after`), names an unknown
    channel or message (404, codes 10003 and 10008), or lacks a permission (403: 50013, or 50007 for
    a closed DM). Each refusal for a broken limit is kept in `violations`: the shared fixtures fail
    the test at teardown unless it said it expected it (`expect_violation`)."""

    def __init__(self) -> None:
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
        self.messages: dict[str, str] = {}  # message id -> channel id, for the ones the bot made
        self.acknowledged: set[str] = set()  # interactions already answered
        self.budgets: list[Budget] = []
        self.failures: list[Failure] = []
        self.max_upload = limits.UPLOAD
        self.expired: set[str] = set()
        self.uploads: dict[str, bytes] = {}
        self.listeners: list[Callable[[Sent], None]] = []  # told of each request as it arrives
        self.sync_status = 200  # what a slash-command sync answers (500: Discord is down)
        self.runner: web.AppRunner | None = None
        self.port = 0

    # -------------------------------------------------------------- what a test arranges

    def expect_violation(self, match: str) -> None:
        """A test that provokes a refusal on purpose: violations whose text contains `match` are fine."""
        self.expected.append(match)
        for v in self.violations:
            v.expected = v.expected or (match in str(v) and not v.answer)

    def unexpected_violations(self) -> list[Violation]:
        return [v for v in self.violations if not v.expected]

    def rate_limit(self, prefix: str, limit: int, window: float = 0.05, method: str | None = None) -> Budget:
        """From now on, `limit` requests per `window` seconds to paths starting with `prefix`
        (e.g. f"/channels/{CHANNEL_ID}/messages"); more are answered 429."""
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
        app = web.Application(client_max_size=64 * 1024 * 1024)
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
        response = await self._respond(request)
        if not request.path.startswith("/cdn/"):
            self._check_answer(request.method, request.path, response)
        return response

    async def _respond(self, request: web.Request) -> web.Response:
        if request.path.startswith("/cdn/"):
            return web.Response(body=self.uploads[request.path.split("/")[2]])
        payload: Any = {}
        files: list[tuple[str, bytes]] = []
        parts: list[str] = []
        if request.content_type.startswith("multipart/"):
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
        for listener in self.listeners:
            listener(sent)
        limited = self._rate_limited(sent)
        if limited is not None:
            return limited
        for failure in self.failures:
            failed = failure.take(sent.method, sent.path)
            if failed is not None:
                return failed
        refused = self._check(sent, payload if request.body_exists else None,
                              request.content_type.startswith("multipart/"))
        return refused if refused is not None else self.answer(sent)

    def _rate_limited(self, sent: Sent) -> web.Response | None:
        now = time.monotonic()
        for budget in self.budgets:
            wait = budget.take(sent.method, sent.path, now)
            if wait is not None:
                # discord.py retries a 429 only if it came through Discord's proxy (`Via`), after retry_after
                return _json({"message": "You are being rate limited.", "retry_after": round(wait, 3), "global": False},
                             429, {"Via": "1.1 google", "Retry-After": str(max(1, round(wait))),
                                   "X-RateLimit-Limit": str(budget.limit), "X-RateLimit-Remaining": "0",
                                   "X-RateLimit-Reset": f"{time.time() + wait:.3f}",
                                   "X-RateLimit-Reset-After": f"{wait:.3f}",
                                   "X-RateLimit-Bucket": f"fake-{abs(hash(budget.prefix)):x}",
                                   "X-RateLimit-Scope": "shared"})
        return None

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

    def _message(self, channel_id: str, payload: dict[str, Any], files: list[tuple[str, bytes]],
                 message_id: str | None = None) -> dict[str, Any]:
        data = payload.get("data", payload)
        message_id = message_id or snowflake()
        self.messages[message_id] = channel_id
        return {
            "id": message_id, "channel_id": channel_id, "author": BOT_USER,
            "content": data.get("content") or "", "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [
                {"id": snowflake(), "filename": name, "size": len(body), "url": f"https://cdn.invalid/{name}",
                 "proxy_url": f"https://cdn.invalid/{name}"} for name, body in files
            ],
            "embeds": [], "pinned": False, "type": 0, "flags": data.get("flags") or 0,
            "components": answered_components(data.get("components") or []),
        }

    def _refuse_channel(self, channel_id: str, sent: Sent) -> web.Response | None:
        """Why Discord would refuse a post or an edit in this channel, if it would."""
        channel = self.channels.get(channel_id)
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
        return None

    def answer(self, sent: Sent) -> web.Response:
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
        if parts[0] == "interactions" and parts[-1] == "callback":
            interaction_id = parts[1]
            if interaction_id in self.expired:
                return _error(404, 10062, "Unknown interaction")
            if interaction_id in self.acknowledged:
                return _error(400, 40060, "Interaction has already been acknowledged.")
            self.acknowledged.add(interaction_id)
            kind = sent.payload.get("type")
            data = sent.payload.get("data") or {}
            message_id = snowflake()
            sent.response_message_id = message_id
            flags = int(data.get("flags") or 0)
            body: dict[str, Any] = {
                "interaction": {"id": interaction_id, "type": 2, "response_message_id": message_id,
                                "response_message_loading": kind == 5, "response_message_ephemeral": bool(flags & 64)},
            }
            if kind in (4, 5):
                message = self._message(str(CHANNEL_ID), sent.payload, sent.files, message_id)
                if kind == 4:  # the document's resource holds a message it made (4, 7) or an activity (12)
                    body["resource"] = {"type": kind, "message": message}
            return _json(body)
        if parts[0] == "webhooks":
            return _json(self._message(str(CHANNEL_ID), sent.payload, sent.files))
        if parts[:2] == ["users", "@me"] and parts[-1] == "channels":
            recipient = str(sent.payload.get("recipient_id"))
            channel_id = self.dm_channels.setdefault(recipient, snowflake())
            self.channels[channel_id] = {"id": channel_id, "type": 1, "last_message_id": None, "flags": 0,
                                         "recipients": [user_json(int(recipient), f"user{recipient}")]}
            return _json(self.channels[channel_id])
        if parts[0] == "users" and method == "GET":
            return _json(user_json(int(parts[1]), f"user{parts[1]}"))
        if parts[0] == "channels" and len(parts) == 2 and method in ("GET", "DELETE"):
            found = self.channels.get(parts[1]) if method == "GET" else self.channels.pop(parts[1], None)
            return _json(found) if found is not None else _error(404, 10003, "Unknown Channel")
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            refused = self._refuse_channel(parts[1], sent)
            if refused is not None:
                return refused
            message = self._message(parts[1], sent.payload, sent.files)
            sent.response_message_id = message["id"]
            return _json(message)
        if parts[0] == "channels" and parts[-2] == "messages" and method == "PATCH":
            refused = self._refuse_channel(parts[1], sent)
            if refused is not None:
                return refused
            if self.messages.get(parts[-1]) != parts[1]:
                return _error(404, 10008, "Unknown Message")
            return _json(self._message(parts[1], sent.payload, sent.files, parts[-1]))
        if parts[0] == "channels" and parts[-1] == "threads" and method == "POST":
            parent = self.channels.get(parts[1])
            if parent is None:
                return _error(404, 10003, "Unknown Channel")
            if parts[1] in self.forbidden:
                return _error(403, 50013, "Missing Permissions")
            thread = {"id": snowflake(), "type": 11, "guild_id": str(GUILD_ID),
                      "name": sent.payload.get("name", "thread"), "parent_id": parts[1],
                      "owner_id": str(BOT_ID), "message_count": 0, "member_count": 1, "total_message_sent": 0,
                      "flags": 0,
                      "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                          "archive_timestamp": datetime.now(UTC).isoformat(), "locked": False}}
            self.channels[thread["id"]] = thread
            return _json(thread, 201)  # Discord's create_thread answers 201 Created
        return _json({"message": f"fake Discord has no route {method} {path}", "code": 0}, status=404)

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

    def public_texts(self) -> list[str]:
        """Everything anyone in the channel could read: channel posts and non-ephemeral answers."""
        out = [r.content for r in self.channel_messages()]
        out += [r.content for r in self.requests if r.method == "PATCH" and "/channels/" in r.path]
        for r in self.requests:
            if (r.path.startswith("/api/v10/webhooks/") or "/callback" in r.path) and not r.ephemeral:
                data = r.payload.get("data", r.payload)
                out.append(str(data.get("content") or ""))
        return out


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
            **values: Any) -> dict[str, Any]:
    """An APPLICATION_COMMAND interaction for /name [sub] with these options (and uploaded files)."""
    opts = _options(values)
    for option, att in (attachments or {}).items():
        opts.append({"name": option, "type": 11, "value": att["id"]})
    if sub is not None:
        opts = [{"name": sub, "type": 1, "options": opts}]
    data: dict[str, Any] = {"id": snowflake(), "name": name, "type": 1, "options": opts, "guild_id": str(GUILD_ID)}
    if attachments:
        data["resolved"] = {"attachments": {a["id"]: a for a in attachments.values()}}
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
    bot._connection.parse_interaction_create(payload)  # type: ignore[attr-defined]
    deadline = asyncio.get_running_loop().time() + settle
    token = payload["token"]
    # the interaction is finished when its last follow-up (ephemeral "done"/error) has gone out
    while asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.005)
        mine = [r for r in fake.requests[before:] if token in r.path]
        # (an edit of the interaction's own message, which comes first, is not its answer)
        followups = [r for r in mine if r.path.startswith("/api/v10/webhooks/") and r.method == "POST"]
        answered = any(r.payload.get("type") == 4 for r in mine if "/callback" in r.path)
        if followups or answered:
            await asyncio.sleep(0.01)  # the answer is the interaction's last request; this only settles it
            break
    return fake.requests[before:]
