"""Whether a follower may still see the game they follow, asked again before each DM.

A follow is made from within the game's channel, which the member could see then (docs/bot.md,
"Following games"); a member who has since left the server, or lost the channel, must not keep
receiving its boards by DM. Discord tells the bot a member's permissions in a channel only inside an
interaction from that channel, so they are computed here the way Discord documents (topics/permissions,
"Permission Overwrites" and "Inherited Permissions (Threads)"), by discord.py, from the server's roles
and the channel's overwrites in the bot's cache (the Guilds intent keeps them current) and the member
as Get Guild Member answers it (resources/guild#get-guild-member: no privileged intent needed).

The answer is three-valued: `False` only when Discord says so (Unknown Member, no View Channel, not a
member of a private thread); `None` when the bot cannot tell (the server not in its cache, as in an
outage), and then the DM goes as before rather than a follow being ended on a guess."""

from __future__ import annotations

import discord


async def may_still_view(client: discord.Client, guild_id: str, channel_id: str, user_id: str) -> bool | None:
    if not (guild_id.isdigit() and channel_id.isdigit() and user_id.isdigit()):
        return None
    guild = client.get_guild(int(guild_id))
    if guild is None:
        return None
    try:
        member = await guild.fetch_member(int(user_id))
    except discord.NotFound:
        return False  # 10007 Unknown Member: they left the server, or were removed from it
    channel = guild.get_channel_or_thread(int(channel_id))
    if channel is None:
        try:
            fetched = await client.fetch_channel(int(channel_id))
        except discord.NotFound:
            return False  # the channel is gone, and its game with it
        except discord.Forbidden:
            return None  # hidden from the bot too: nothing can be said of the member
        if not isinstance(fetched, (discord.abc.GuildChannel, discord.Thread)):
            return None
        channel = fetched
    try:
        permissions = channel.permissions_for(member)
    except discord.ClientException:
        return None  # a thread whose parent channel is not cached
    if not permissions.view_channel:
        return False
    if isinstance(channel, discord.Thread) and channel.is_private() and not permissions.manage_threads:
        # a private thread is seen by its members and by those who may manage threads
        try:
            await channel.fetch_member(int(user_id))
        except discord.NotFound:
            return False
    return True
