"""The servers of the fake Discord (tests/bot/fake_discord.py): each server's roles, the bot's own
member in it and its channels' permission overwrites, with the routes that read them, for
`python -m bot --check`:

    GET /users/@me/guilds, /guilds/{id}, /guilds/{id}/roles, /guilds/{id}/members/{user},
    /channels/{id}/thread-members/{user}

and GET /channels/{id} refused (403 Missing Access) where the bot may not view the channel, as Discord
does. The members are the bot and whoever a test adds, or sent the bot an interaction from the server
(only a member can); Get Guild Member answers anyone else 404 Unknown Member (10007), Get Thread
Member a user who is not in the thread 404 (resources/channel#get-thread-member). `gateway_guild` is
the server as GUILD_CREATE carries it: its roles, channels with their overwrites and active threads. A request with another token than the bot's is answered 401 Unauthorized.

A test arranges the roles and overwrites here. What the bot may do in a channel is then computed the
way Discord's documentation says (topics/permissions: "Permission Overwrites", the eight steps and
their pseudocode; "Inherited Permissions (Threads)"), written here on its own: the check under test
computes it with discord.py, so the two meet only at the answer.

Every object answered carries every field Discord's OpenAPI document requires of it
(MyGuildResponse, GuildWithCountsResponse, GuildRoleResponse, GuildMemberResponse, UserResponse,
GuildChannelResponse, ThreadResponse)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

from bot.permissions import PERMISSIONS

if TYPE_CHECKING:
    from tests.bot.fake_discord import Sent

# Discord's permission bits (topics/permissions, "Bitwise Permission Flags")
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
ALL = (1 << 51) - 1
# @everyone as most servers keep it: members read, write, attach, make threads and use commands
EVERYONE = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
    embed_links=True, attach_files=True, read_message_history=True, add_reactions=True,
    use_application_commands=True).value
# the role Discord makes for a bot invited with its own link, holding exactly the link's permissions
INVITED = PERMISSIONS.value

ROLE, MEMBER = 0, 1  # an overwrite's type (ChannelPermissionOverwrites)
_ids = itertools.count(600_000_000_000_000_000)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status)


@dataclass
class Role:
    name: str
    permissions: int
    position: int
    managed: bool = False  # a bot's own role, made by Discord when the bot joined
    bot_id: str | None = None

    def json(self, role_id: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": role_id, "name": self.name, "permissions": str(self.permissions), "position": self.position,
            "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False, "managed": self.managed, "mentionable": False, "icon": None, "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            out["tags"] = {"bot_id": self.bot_id}
        return out


@dataclass
class Guild:
    """A server the bot is in: its roles by id (@everyone's id is the server's) and the bot's roles."""

    id: str
    name: str
    owner_id: str = "1"
    roles: dict[str, Role] = field(default_factory=dict)
    bot_roles: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        none = dict.fromkeys((
            "icon", "description", "home_header", "splash", "discovery_splash", "banner", "application_id",
            "afk_channel_id", "system_channel_id", "widget_channel_id", "max_presences", "vanity_url_code",
            "rules_channel_id", "safety_alerts_channel_id", "public_updates_channel_id",
            "premium_progress_bar_enabled_user_updated_at", "incidents_data"))
        return {
            **none, "id": self.id, "name": self.name, "owner_id": self.owner_id, "features": [],
            "region": "deprecated", "afk_timeout": 300, "system_channel_flags": 0, "widget_enabled": False,
            "verification_level": 0, "roles": [r.json(i) for i, r in self.roles.items()],
            "default_message_notifications": 0, "mfa_level": 0, "explicit_content_filter": 0,
            "max_members": 500000, "max_stage_video_channel_users": 50, "max_video_channel_users": 25,
            "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "premium_progress_bar_enabled": False, "nsfw": False, "nsfw_level": 0, "emojis": [], "stickers": [],
            "approximate_member_count": 12, "approximate_presence_count": 3,
        }


class FakeGuilds:
    """The servers, kept beside the fake Discord's channels (the same dict: a channel's overwrites
    are stored on it, and GET /channels/{id} answers it with them)."""

    def __init__(self, bot_user: dict[str, Any], token: str, channels: dict[str, dict[str, Any]],
                 guild_id: int | str, name: str = "Sail Club") -> None:
        self.bot_user = bot_user
        self.bot_id = str(bot_user["id"])
        self.token = token
        self.channels = channels
        self.guilds: dict[str, Guild] = {}
        self.left: set[str] = set()  # servers the bot was removed from
        self.members: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {}  # server -> user -> (name, roles)
        self.add_guild(guild_id, name)

    # -------------------------------------------------------------- what a test arranges

    def add_guild(self, guild_id: int | str, name: str, everyone: int = EVERYONE, invited: int = INVITED) -> Guild:
        """A server the bot joined with its invite link: @everyone, and the bot's own role."""
        gid = str(guild_id)
        guild = Guild(gid, name, roles={gid: Role("@everyone", everyone, 0)})
        self.guilds[gid] = guild
        role = self.add_role(gid, "Quarterdeck", invited)
        guild.roles[role].managed, guild.roles[role].bot_id = True, self.bot_id
        return guild

    def add_role(self, guild_id: int | str, name: str, permissions: int, bot: bool = True) -> str:
        guild = self.guilds[str(guild_id)]
        role_id = str(next(_ids))
        guild.roles[role_id] = Role(name, permissions, len(guild.roles))
        if bot:
            guild.bot_roles.append(role_id)
        return role_id

    def bot_role(self, guild_id: int | str) -> str:
        """The role Discord made for the bot when it joined."""
        guild = self.guilds[str(guild_id)]
        return next(i for i, r in guild.roles.items() if r.managed and r.bot_id == self.bot_id)

    def set_permissions(self, guild_id: int | str, role_id: str, permissions: int) -> None:
        self.guilds[str(guild_id)].roles[role_id].permissions = permissions

    def add_channel(self, guild_id: int | str, name: str, channel_id: int | str | None = None) -> str:
        cid = str(channel_id or next(_ids))
        self.channels[cid] = {
            "id": cid, "type": 0, "flags": 0, "guild_id": str(guild_id), "name": name, "position": len(self.channels),
            "parent_id": None, "permission_overwrites": [], "nsfw": False, "topic": None, "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        return cid

    def add_thread(self, parent_id: int | str, name: str, thread_id: int | str | None = None,
                   archived: bool = False, locked: bool = False) -> str:
        parent = self.channels[str(parent_id)]
        tid = str(thread_id or next(_ids))
        self.channels[tid] = {
            "id": tid, "type": 11, "flags": 0, "guild_id": parent["guild_id"], "name": name,
            "parent_id": parent["id"], "owner_id": self.bot_id, "message_count": 3, "member_count": 2,
            "total_message_sent": 3, "last_message_id": None, "rate_limit_per_user": 0,
            "thread_metadata": {"archived": archived, "auto_archive_duration": 1440, "locked": locked,
                                "archive_timestamp": datetime.now(UTC).isoformat()},
        }
        return tid

    def overwrite(self, channel_id: int | str, target_id: int | str, allow: int = 0, deny: int = 0,
                  member: bool = False) -> None:
        """A channel's permission overwrite for a role (or, with `member`, one member), replacing the
        one it had."""
        kept = [o for o in self.channels[str(channel_id)].get("permission_overwrites", []) if o["id"] != str(target_id)]
        kept.append({"id": str(target_id), "type": MEMBER if member else ROLE, "allow": str(allow), "deny": str(deny)})
        self.channels[str(channel_id)]["permission_overwrites"] = kept

    def add_member(self, guild_id: int | str, user_id: int | str, name: str, roles: tuple[str, ...] = ()) -> None:
        self.members.setdefault(str(guild_id), {})[str(user_id)] = (name, roles)

    def remove_member(self, guild_id: int | str, user_id: int | str) -> None:
        """The member leaves the server, or is removed from it."""
        self.members.get(str(guild_id), {}).pop(str(user_id), None)

    def join_thread(self, thread_id: int | str, user_id: int | str) -> None:
        self.channels[str(thread_id)].setdefault("thread_members", []).append(str(user_id))

    def gateway_guild(self, guild_id: int | str) -> dict[str, Any]:
        """GUILD_CREATE's payload (events/gateway-events#guild-create): the guild object with its roles,
        its channels and active threads; no members (the bot asks for no privileged intent);
        `unavailable` false, so discord.py takes it as a server becoming available, not a new one."""
        guild = self.guilds[str(guild_id)]
        mine = [c for c in self.channels.values() if c.get("guild_id") == guild.id]
        threads = [{k: v for k, v in c.items() if k != "thread_members"} for c in mine if "thread_metadata" in c]
        return {**guild.json(), "joined_at": "2026-01-01T00:00:00+00:00", "large": False, "member_count": 3,
                "members": [], "channels": [c for c in mine if "thread_metadata" not in c], "threads": threads,
                "presences": [], "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
                "soundboard_sounds": [], "unavailable": False}

    def leave(self, guild_id: int | str) -> None:
        """The bot is removed from the server: its channels are closed to it."""
        self.left.add(str(guild_id))
        self.guilds.pop(str(guild_id), None)

    # -------------------------------------------------------------- Discord's computation

    def base_permissions(self, guild: Guild) -> int:
        """compute_base_permissions: the owner has all; else @everyone's and the member's roles OR'd,
        and Administrator is all."""
        if guild.owner_id == self.bot_id:
            return ALL
        permissions = guild.roles[guild.id].permissions
        for role_id in guild.bot_roles:
            permissions |= guild.roles[role_id].permissions
        return ALL if permissions & ADMINISTRATOR else permissions

    def permissions(self, channel_id: int | str) -> int:
        """compute_overwrites on the base: @everyone's overwrite, then the member's roles' overwrites
        together (denies, then allows), then the member's own. A thread has its parent's."""
        channel = self.channels[str(channel_id)]
        if channel.get("parent_id") and "thread_metadata" in channel:
            channel = self.channels[channel["parent_id"]]
        guild = self.guilds[channel["guild_id"]]
        permissions = self.base_permissions(guild)
        if permissions & ADMINISTRATOR:
            return ALL
        overwrites = {o["id"]: o for o in channel.get("permission_overwrites", [])}
        everyone = overwrites.get(guild.id)
        if everyone is not None:
            permissions = (permissions & ~int(everyone["deny"])) | int(everyone["allow"])
        allow = deny = 0
        for role_id in guild.bot_roles:
            found = overwrites.get(role_id)
            if found is not None and found["type"] == ROLE:
                allow, deny = allow | int(found["allow"]), deny | int(found["deny"])
        permissions = (permissions & ~deny) | allow
        mine = overwrites.get(self.bot_id)
        if mine is not None and mine["type"] == MEMBER:
            permissions = (permissions & ~int(mine["deny"])) | int(mine["allow"])
        return permissions

    # -------------------------------------------------------------- the routes

    @web.middleware
    async def authorise(self, request: web.Request,
                        handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """A request carrying a token that is not the bot's: what Discord answers a reset or mistyped one."""
        given = request.headers.get("Authorization")
        if given is not None and given != f"Bot {self.token}":
            return _error(401, 0, "401: Unauthorized")
        return await handler(request)

    def answer(self, sent: Sent) -> web.Response | None:
        """The answer to a request about servers, or None for a request this part does not answer."""
        if sent.method != "GET":
            return None
        parts = sent.path.removeprefix("/api/v10").strip("/").split("/")
        if parts[:3] == ["users", "@me", "guilds"] and len(parts) == 3:
            return _json(self._my_guilds(sent.query))
        if parts[0] == "guilds" and len(parts) >= 2:
            guild = self.guilds.get(parts[1])
            if guild is None:
                return _error(403, 50001, "Missing Access") if parts[1] in self.left else _error(404, 10004, "Unknown Guild")
            if len(parts) == 2:
                return _json(guild.json())
            if parts[2:] == ["roles"]:
                return _json([r.json(i) for i, r in guild.roles.items()])
            if parts[2] == "members" and len(parts) == 4:
                if parts[3] == self.bot_id:
                    return _json(self._bot_member(guild))
                member = self.members.get(guild.id, {}).get(parts[3])
                if member is None:
                    return _error(404, 10007, "Unknown Member")
                return _json(self._member(parts[3], *member))
            return None
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "thread-members":
            thread = self.channels.get(parts[1])
            if thread is None or parts[3] not in thread.get("thread_members", []):
                return _error(404, 10007, "Unknown Member")
            return _json({"id": parts[1], "user_id": parts[3], "join_timestamp": "2026-01-01T00:00:00+00:00",
                          "flags": 0})
        if parts[0] == "channels" and len(parts) == 2:
            channel = self.channels.get(parts[1])
            if channel is None or "guild_id" not in channel:
                return None  # unknown (404) or a DM: the fake's own route answers
            if channel["guild_id"] in self.left:
                return _error(403, 50001, "Missing Access")
            if channel["guild_id"] in self.guilds and not self.permissions(parts[1]) & VIEW_CHANNEL:
                return _error(403, 50001, "Missing Access")
        return None

    def _my_guilds(self, query: dict[str, str]) -> list[dict[str, Any]]:
        ids = sorted(self.guilds, key=int)
        if "after" in query:
            ids = [i for i in ids if int(i) > int(query["after"])]
        if "before" in query:
            ids = [i for i in ids if int(i) < int(query["before"])]
        limit = int(query.get("limit", 200))
        ids = ids[-limit:] if "before" in query and "after" not in query else ids[:limit]
        counts = query.get("with_counts") in ("1", "true", "True")
        out = []
        for i in ids:
            guild = self.guilds[i]
            entry: dict[str, Any] = {"id": i, "name": guild.name, "icon": None, "banner": None,
                                     "owner": guild.owner_id == self.bot_id,
                                     "permissions": str(self.base_permissions(guild)), "features": []}
            if counts:
                entry["approximate_member_count"], entry["approximate_presence_count"] = 12, 3
            out.append(entry)
        return out

    def _bot_member(self, guild: Guild) -> dict[str, Any]:
        user = {"public_flags": 0, "flags": 0, "primary_guild": None, "avatar": None, "global_name": None,
                **self.bot_user}
        return self._member_json(user, list(guild.bot_roles))

    @staticmethod
    def _member(user_id: str, name: str, roles: tuple[str, ...]) -> dict[str, Any]:
        user = {"id": user_id, "username": name, "discriminator": "0", "public_flags": 0, "flags": 0,
                "primary_guild": None, "avatar": None, "global_name": None}
        return FakeGuilds._member_json(user, list(roles))

    @staticmethod
    def _member_json(user: dict[str, Any], roles: list[str]) -> dict[str, Any]:
        """GuildMemberResponse, with every field the OpenAPI document requires."""
        return {"user": user, "roles": roles, "nick": None, "avatar": None, "banner": None,
                "joined_at": "2026-01-01T00:00:00+00:00", "premium_since": None, "communication_disabled_until": None,
                "flags": 0, "pending": False, "mute": False, "deaf": False}
