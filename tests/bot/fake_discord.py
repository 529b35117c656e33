"""A small fake of Discord's REST API on loopback, and interaction payloads fed through discord.py's
own parsing into the real command tree. Only the network is fake: the bot, discord.py's HTTP client,
webhook adapter, command tree and views are the real ones."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from aiohttp import web

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 800000000000000001
CHANNEL_ID = 700000000000000001
TOKEN = "fake-token"

_ids = itertools.count(1_000_000_000_000_000_000)


def snowflake() -> str:
    return str(next(_ids))


def user_json(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name, "avatar": None, "bot": bot}


BOT_USER = user_json(BOT_ID, "Quarterdeck", bot=True)


@dataclass
class Sent:
    """A request the bot made: where it went and what it carried."""

    method: str
    path: str
    payload: dict[str, Any]
    files: list[tuple[str, bytes]] = field(default_factory=list)
    query: dict[str, str] = field(default_factory=dict)
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


def _json(data: Any, status: int = 200) -> web.Response:
    # exactly "application/json", as Discord sends it: discord.py compares the header verbatim
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Sent] = []
        self.closed_dms: set[str] = set()
        self.no_files_in: set[str] = set()
        self.dm_channels: dict[str, str] = {}
        self.expired: set[str] = set()
        self.uploads: dict[str, bytes] = {}
        self.listeners: list[Callable[[Sent], None]] = []  # told of each request as it arrives
        self.sync_status = 200  # what a slash-command sync answers (500: Discord is down)
        self.runner: web.AppRunner | None = None
        self.port = 0

    # -------------------------------------------------------------- server

    async def start(self) -> str:
        app = web.Application()
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
        payload: dict[str, Any] = {}
        files: list[tuple[str, bytes]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    files.append((part.filename or part.name or "", await part.read()))
        elif request.can_read_body:
            text = await request.text()
            payload = json.loads(text) if text else {}
            if isinstance(payload, list):  # a bulk command sync sends a bare list
                payload = {"commands": payload}
        sent = Sent(request.method, request.path, payload, files, dict(request.query))
        self.requests.append(sent)
        for listener in self.listeners:
            listener(sent)
        return self.answer(sent)

    def _message(self, channel_id: str, payload: dict[str, Any], files: list[tuple[str, bytes]],
                 message_id: str | None = None) -> dict[str, Any]:
        data = payload.get("data", payload)
        return {
            "id": message_id or snowflake(), "channel_id": channel_id, "author": BOT_USER,
            "content": data.get("content") or "", "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [
                {"id": snowflake(), "filename": name, "size": len(body), "url": f"https://cdn.invalid/{name}",
                 "proxy_url": f"https://cdn.invalid/{name}"} for name, body in files
            ],
            "embeds": [], "pinned": False, "type": 0, "flags": data.get("flags") or 0,
            "components": data.get("components") or [],
        }

    def answer(self, sent: Sent) -> web.Response:
        path, method = sent.path.removeprefix("/api/v10"), sent.method
        parts = path.strip("/").split("/")
        if path == "/users/@me" and method == "GET":
            return _json(BOT_USER)
        if path == "/oauth2/applications/@me":
            return _json({
                "id": str(APP_ID), "name": "Quarterdeck", "description": "", "icon": None, "bot_public": True,
                "bot_require_code_grant": False, "owner": user_json(1, "owner"), "verify_key": "0", "flags": 0,
                "summary": "", "team": None,
            })
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            if self.sync_status != 200:
                return _json({"message": "Internal Server Error", "code": 0}, status=self.sync_status)
            return _json([{**c, "id": snowflake(), "application_id": str(APP_ID), "version": snowflake(),
                           "default_member_permissions": c.get("default_member_permissions")}
                          for c in sent.payload.get("commands", [])])
        if parts[0] == "interactions" and parts[-1] == "callback":
            interaction_id = parts[1]
            if interaction_id in self.expired:
                return _json({"message": "Unknown interaction", "code": 10062}, status=404)
            kind = sent.payload.get("type")
            data = sent.payload.get("data") or {}
            message_id = snowflake()
            sent.response_message_id = message_id
            flags = int(data.get("flags") or 0)
            body: dict[str, Any] = {
                "interaction": {"id": interaction_id, "type": 2, "response_message_id": message_id,
                                "response_message_loading": kind == 5, "response_message_ephemeral": bool(flags & 64)},
                "resource": {"type": kind},
            }
            if kind in (4, 5):
                body["resource"]["message"] = self._message(CHANNEL_ID and str(CHANNEL_ID), sent.payload, sent.files,
                                                            message_id)
            return _json(body)
        if parts[0] == "webhooks":
            return _json(self._message(str(CHANNEL_ID), sent.payload, sent.files))
        if parts[:2] == ["users", "@me"] and parts[-1] == "channels":
            recipient = str(sent.payload.get("recipient_id"))
            channel_id = self.dm_channels.setdefault(recipient, snowflake())
            return _json({"id": channel_id, "type": 1, "last_message_id": None,
                                      "recipients": [user_json(int(recipient), f"user{recipient}")]})
        if parts[0] == "users" and method == "GET":
            return _json(user_json(int(parts[1]), f"user{parts[1]}"))
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            channel_id = parts[1]
            recipient = next((u for u, c in self.dm_channels.items() if c == channel_id), None)
            if recipient is not None and recipient in self.closed_dms:
                return _json({"message": "Cannot send messages to this user", "code": 50007}, status=403)
            if channel_id in self.no_files_in and sent.files:
                return _json({"message": "Missing Permissions", "code": 50013}, status=403)
            message = self._message(channel_id, sent.payload, sent.files)
            sent.response_message_id = message["id"]
            return _json(message)
        if parts[0] == "channels" and parts[-2] == "messages" and method == "PATCH":
            return _json(self._message(parts[1], sent.payload, sent.files, parts[-1]))
        if parts[0] == "channels" and parts[-1] == "threads":
            return _json({"id": snowflake(), "type": 11, "guild_id": str(GUILD_ID),
                                      "name": sent.payload.get("name", "thread"), "parent_id": parts[1],
                                      "owner_id": str(BOT_ID), "message_count": 0, "member_count": 1,
                                      "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                                          "archive_timestamp": datetime.now(UTC).isoformat(),
                                                          "locked": False}})
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
        "entitlements": [], "attachment_size_limit": 10_000_000, "authorizing_integration_owners": {},
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
