"""The interaction protocol and the messages it makes, as Discord runs them, for the fake Discord.

From interactions-receiving-and-responding.mdx, quoted where modelled:

- "Interaction `tokens` are valid for **15 minutes** and can be used to send followup messages but you
  **must send an initial response within 3 seconds of receiving the event**. If the 3 second deadline is
  exceeded, the token will be invalidated." A late callback is 404 Unknown interaction (10062).
- A follow-up or an edit of `@original` before the interaction is acknowledged finds no webhook: 404
  Unknown Webhook (10015). After the 15 minutes the token is refused with 401 Invalid Webhook Token
  (50027) (discord/discord-api-docs#6851: "While the token is still active in the 15 minutes window, any
  API requests send to it return with 404 … After the 15 mins window … 401").
- Create Followup Message: "When using this endpoint directly after responding to an interaction with
  `DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE`, this endpoint will function as Edit Original Interaction
  Response … no new message will be created, and the loading message will be edited instead. The
  ephemeral flag will be ignored, and the value you provided in the initial defer response will be
  preserved".
- Mentions notify in a new message only, never in an edit (discord/discord-api-docs#1419, Discord's
  answer: "editing a message … does not actually produce any notifications"; #5497: editing a deferred
  answer pings nobody). Who is notified follows resources-message.mdx, "Allowed Mentions Object": by
  default all mentions are parsed in regular messages and only user mentions in interactions and
  webhooks; `parse` and a list of the same kind exclude each other; an id in `allowed_mentions` that is
  not in the content notifies nobody. An ephemeral message is seen by its interaction's user alone.

From resources-message.mdx, Create Message, the nonce:

- `nonce?`: "integer or string", "Can be used to verify a message was sent (up to 25 characters)";
  the OpenAPI document's `MessageCreateRequest.nonce` is an int64 or a string of `maxLength` 25 (or
  null), which tests/bot/contract.py checks on every request (400 50035 otherwise).
- `enforce_nonce?`: "If true and nonce is present, it will be checked for uniqueness in the past few
  minutes. If another message was created by the same author with the same nonce, that message will be
  returned and no new message will be created." So without `enforce_nonce` (or without a nonce) every
  request makes a message; the match is the author's, whatever channel (a DM included) the first went
  to; and the message returned is the first, as it is now. "A few minutes" is not a figure: the fake
  remembers a nonce for NONCE_WINDOW, the least the words allow, so the bot leans on no more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

RESPONSE_DEADLINE = 3.0  # seconds to the initial response
NONCE_WINDOW = 120.0  # seconds a nonce is checked for uniqueness with enforce_nonce ("the past few minutes")
TOKEN_LIFETIME = 15 * 60.0
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# interaction callback types (interactions-receiving-and-responding.mdx, "Interaction Callback Type")
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE, MODAL = 4, 5, 6, 7, 8, 9

_USER_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Message:
    """A message as Discord keeps it: where it is, who may see it, and what it showed over time."""

    id: str
    channel_id: str
    content: str
    flags: int
    components: list[Any]
    files: list[tuple[str, bytes]]
    ephemeral_to: str | None = None  # the user who alone sees an ephemeral message
    token: str | None = None  # the interaction token it was made under, if any
    edits: int = 0
    shown: list[str] = field(default_factory=list)  # every content it has had, for "who could read what"
    nonce: int | str | None = None  # as the request gave it: Discord's message object carries it back

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)


@dataclass
class Interaction:
    id: str
    token: str
    user_id: str
    channel_id: str
    received: float  # on the fake's clock
    kind: int  # 2 a command, 3 a component, 4 autocomplete
    message_id: str | None = None  # a component's message
    response: int | None = None  # the callback type it was answered with
    original: str | None = None  # the message `@original` names
    loading: bool = False  # deferred with a message, not yet filled
    invalidated: bool = False  # the 3 seconds passed unanswered


@dataclass
class Nonces:
    """The nonces the bot's messages were created with under `enforce_nonce`, and when: one author
    (the bot) for the fake, so a nonce names at most one message in the window, in any channel."""

    window: float = NONCE_WINDOW
    seen: dict[str, tuple[str, float]] = field(default_factory=dict)  # nonce -> (message id, created at)

    @staticmethod
    def key(nonce: int | str) -> str:
        return str(nonce)  # discord.py sends an int nonce as its digits: one nonce either way

    def first(self, payload: dict[str, Any], now: float) -> str | None:
        """The message a Create Message request is answered with instead of a new one, if any."""
        nonce = payload.get("nonce")
        if nonce is None or payload.get("enforce_nonce") is not True:
            return None
        found = self.seen.get(self.key(nonce))
        return found[0] if found is not None and now - found[1] <= self.window else None

    def made(self, payload: dict[str, Any], message_id: str, now: float) -> None:
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce") is True:
            self.seen[self.key(nonce)] = (message_id, now)


def notified_users(content: str, allowed: dict[str, Any] | None) -> list[str]:
    """The users a new message pings: mentioned in its content and allowed to be."""
    mentioned = list(dict.fromkeys(_USER_MENTION.findall(content)))
    if allowed is None:
        return mentioned  # users are parsed by default in regular messages, interactions and webhooks alike
    users = [str(u) for u in allowed.get("users") or []]
    if users:
        return [u for u in mentioned if u in users]
    return mentioned if "users" in (allowed.get("parse") or []) else []

