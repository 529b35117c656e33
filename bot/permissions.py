"""What the bot may do in a server, written once: the invite URL is built from it, docs/hosting.md
quotes its number (a test keeps the two equal), and the bot logs its own invite URL at start-up."""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")

# Each flag is there for something the bot does; nothing else is asked for.
PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the channel a command comes from, and its threads
    send_messages=True,  # post the account, the board and the status message
    send_messages_in_threads=True,  # the same in a game's own thread (`/game create thread: True`)
    create_public_threads=True,  # `/game create thread: True` opens the game's thread
    attach_files=True,  # the board as a PNG
    read_message_history=True,  # the status message is edited in place, an earlier message of the channel
)


def invite_url(application_id: int | str) -> str:
    """The link that adds the bot to a server with exactly these permissions and scopes."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)
