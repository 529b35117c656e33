"""A member's DM channel: opened once, then reached by its id, in this process and after a restart.

Discord gives a bot one DM channel with each user ("Create DM: Create a new DM channel with a user.
Returns a DM channel object (if one already exists, it will be returned instead)", resources/user
in Discord's docs), so the id stays good, and sending to it again needs nothing but the message.
Opening it needs Create DM alone (`Client.create_dm`), not the user fetched first. Before, every DM
cost three requests: Get User (no member is cached without the members intent), Create DM (on a
route whose limit the bot shares across all its DMs) and the message; the soak of issue 29, with
two hundred members nudged, waited tens of seconds a nudge on Create DM.

The ids are kept in the database too (the front end's `dm_channel`), because a process that starts
after a crash owes DMs to many members at once and opening each again set the pace of its catch-up
(up to 70 s in the soak). Should Discord answer that a kept channel is unknown (10003), it is
forgotten and opened again once."""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any, Protocol
from weakref import WeakKeyDictionary

import discord

log = logging.getLogger(__name__)
KEEP = 10_000  # members whose DM channel a process remembers (the oldest forgotten first)
UNKNOWN_CHANNEL = 10003  # topics/opcodes-and-status-codes: "Unknown channel"


class Kept(Protocol):
    """Where the channels are kept between starts (the service's front end)."""

    async def dm_channel(self, bot_id: str, user_id: str) -> str | None: ...
    async def remember_dm_channel(self, bot_id: str, user_id: str, channel_id: str) -> None: ...
    async def forget_dm_channel(self, bot_id: str, user_id: str, channel_id: str) -> None: ...


# per client: a test process runs many bots against many fake Discords, each with its own ids
_OPENED: WeakKeyDictionary[discord.Client, OrderedDict[int, int]] = WeakKeyDictionary()
_KEPT: WeakKeyDictionary[discord.Client, Kept] = WeakKeyDictionary()


def keep_in(client: discord.Client, kept: Kept) -> None:
    """Keep `client`'s DM channels in `kept` as well as in memory (the bot does, with its front end)."""
    _KEPT[client] = kept


async def dm_channel(client: discord.Client, user_id: int) -> discord.PartialMessageable:
    """Where to send `user_id` a DM. Raises discord.HTTPException as Create DM does (an unknown user)."""
    opened = _OPENED.setdefault(client, OrderedDict())
    found = opened.get(user_id)
    if found is None:
        found = await _kept(client, user_id)
        if found is None:
            found = (await client.create_dm(discord.Object(user_id))).id
            await _keep(client, user_id, found)
        opened[user_id] = found
        if len(opened) > KEEP:
            opened.popitem(last=False)
    else:
        opened.move_to_end(user_id)
    return client.get_partial_messageable(found, type=discord.ChannelType.private)


async def send_dm(client: discord.Client, user_id: int, *args: Any, **kwargs: Any) -> discord.Message:
    """Send `user_id` a DM (Messageable.send's arguments). Raises discord.HTTPException as Discord
    refuses it (a closed DM: 50007), after opening the channel again once if Discord no longer knows it."""
    channel = await dm_channel(client, user_id)
    try:
        return await channel.send(*args, **kwargs)
    except discord.NotFound as exc:
        if exc.code != UNKNOWN_CHANNEL:
            raise
        log.info("the DM channel kept for user %s is unknown to Discord: opening it again", user_id)
        await _forget(client, user_id, channel.id)
        return await (await dm_channel(client, user_id)).send(*args, **kwargs)


def _bot_id(client: discord.Client) -> str | None:
    return str(client.user.id) if client.user is not None else None


async def _kept(client: discord.Client, user_id: int) -> int | None:
    kept, bot_id = _KEPT.get(client), _bot_id(client)
    if kept is None or bot_id is None:
        return None
    try:
        found = await kept.dm_channel(bot_id, str(user_id))
    except Exception:  # whatever the database raised: Create DM still reaches the member
        log.warning("could not read the DM channel kept for user %s", user_id, exc_info=True)
        return None
    return int(found) if found is not None and found.isdigit() else None


async def _keep(client: discord.Client, user_id: int, channel_id: int) -> None:
    kept, bot_id = _KEPT.get(client), _bot_id(client)
    if kept is None or bot_id is None:
        return
    try:
        await kept.remember_dm_channel(bot_id, str(user_id), str(channel_id))
    except Exception:  # the DM goes out all the same; the next start opens the channel again
        log.warning("could not keep the DM channel of user %s", user_id, exc_info=True)


async def _forget(client: discord.Client, user_id: int, channel_id: int) -> None:
    opened = _OPENED.get(client)
    if opened is not None and opened.get(user_id) == channel_id:
        del opened[user_id]
    kept, bot_id = _KEPT.get(client), _bot_id(client)
    if kept is not None and bot_id is not None:
        try:
            await kept.forget_dm_channel(bot_id, str(user_id), str(channel_id))
        except Exception:  # a kept id that stays wrong costs one more try at the next DM
            log.warning("could not forget the DM channel of user %s", user_id, exc_info=True)
