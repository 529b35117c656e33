"""Discord markup is made here only: the game and its service name members and times as tokens
(`game.names.member`, `moment`), and a post says them as Discord does, `<@id>` and `<t:epoch:style>`.
Whether a mention pings is still each post's `allowed_mentions`, never the text."""

from __future__ import annotations

import re

from game import names

# a member as a slash command's text option or a message gives them: <@id> or the older <@!id>
_MENTION = re.compile(r"<@!?([0-9]{1,20})>")


def chat(line: str) -> str:
    """A line the game composed, as a chat post says it: its members as mentions, its times as
    timestamps each reader's client shows in their own zone. Made after the line's names are escaped,
    before it is cut to fit (a cut token would not be said)."""
    return names.spoken(line, lambda user_id: f"<@{user_id}>", lambda epoch, style: f"<t:{epoch}:{style}>")


def member_id(said: str) -> str:
    """What a member typed for a member: the id of a mention, whatever else as typed (an id, a name)."""
    found = _MENTION.fullmatch(said.strip())
    return found[1] if found else said
