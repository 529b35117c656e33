"""A member's DM channel: opened once by a process, then reached by its id.

Discord gives a bot one DM channel with each user ("Create DM: Create a new DM channel with a user.
Returns a DM channel object (if one already exists, it will be returned instead)", resources/user
in Discord's docs), so the id stays good, and sending to it again needs nothing but the message.
Opening it needs Create DM alone (`Client.create_dm`), not the user fetched first. Before, every DM
cost three requests: Get User (no member is cached without the members intent), Create DM (on a
route whose limit the bot shares across all its DMs) and the message; the soak of issue 29, with
two hundred members nudged, waited tens of seconds a nudge on Create DM."""

from __future__ import annotations

from collections import OrderedDict
from weakref import WeakKeyDictionary

import discord

KEEP = 10_000  # members whose DM channel a process remembers (the oldest forgotten first)

# per client: a test process runs many bots against many fake Discords, each with its own ids
_OPENED: WeakKeyDictionary[discord.Client, OrderedDict[int, int]] = WeakKeyDictionary()


async def dm_channel(client: discord.Client, user_id: int) -> discord.PartialMessageable:
    """Where to send `user_id` a DM. Raises discord.HTTPException as Create DM does (an unknown user)."""
    opened = _OPENED.setdefault(client, OrderedDict())
    found = opened.get(user_id)
    if found is None:
        found = (await client.create_dm(discord.Object(user_id))).id
        opened[user_id] = found
        if len(opened) > KEEP:
            opened.popitem(last=False)
    else:
        opened.move_to_end(user_id)
    return client.get_partial_messageable(found, type=discord.ChannelType.private)
