"""Fair share: per-member cooldowns on the commands that cost the bot real work (a replay draws every
moment of a game, a board is rendered, verifying recomputes every roll, an import plays a trial
game), so one member cannot keep the workers busy for everyone else.

The check is discord.py's (`app_commands.check` raising `CommandOnCooldown` from a `Cooldown`), with
the buckets kept on the bot rather than in the decorator: each bot (and each test's bot) counts its
own members, and a refusal that did no heavy work gives the share back (`refund`). The error handler
(bot/app.py) answers a member on cooldown privately with the seconds to wait."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

T = TypeVar("T")
MAX_BUCKETS = 10_000  # members remembered before the idle ones are forgotten

# (uses, seconds) per member and command
REPLAY = (1, 60.0)
BOARD = (3, 30.0)
VERIFY = (1, 30.0)
IMPORT = (1, 60.0)


def _buckets(client: discord.Client) -> dict[tuple[str, int], app_commands.Cooldown]:
    found: dict[tuple[str, int], app_commands.Cooldown] | None = getattr(client, "fair_share", None)
    if found is None:
        found = {}
        client.fair_share = found  # type: ignore[attr-defined]
    return found


def _key(interaction: discord.Interaction) -> tuple[str, int]:
    name = interaction.command.qualified_name if interaction.command is not None else ""
    return name, interaction.user.id


def fair_share(uses: int, seconds: float) -> Callable[[T], T]:
    """At most `uses` of the command every `seconds` for each member (in every server together: the
    work is the bot's wherever it is asked for)."""
    def predicate(interaction: discord.Interaction) -> bool:
        buckets = _buckets(interaction.client)
        if len(buckets) >= MAX_BUCKETS:
            for key in [k for k, b in buckets.items() if b.get_tokens() >= b.rate]:
                del buckets[key]
        bucket = buckets.setdefault(_key(interaction), app_commands.Cooldown(uses, seconds))
        wait = bucket.update_rate_limit()
        if wait:
            raise app_commands.CommandOnCooldown(bucket, wait)
        return True

    check: Callable[[T], T] = app_commands.check(predicate)
    return check


def refund(interaction: discord.Interaction) -> None:
    """The member's use back: the command was refused before its heavy work (no game here, nothing to
    replay yet, not a GM), and asking again at once is what they should do."""
    bucket = _buckets(interaction.client).get(_key(interaction))
    if bucket is not None and bucket.get_tokens() < bucket.rate:  # never more than the full share
        bucket.update_rate_limit(tokens=-1)


def wait_text(error: app_commands.CommandOnCooldown, interaction: discord.Interaction) -> str:
    """The private answer: which command, how often it may be used, and the whole seconds to wait."""
    name = interaction.command.qualified_name if interaction.command is not None else "that"
    cooldown = error.cooldown
    often = "once" if cooldown.rate == 1 else f"{cooldown.rate} times"
    return (f"⏳ `/{name}` is heavy work for the bot, so each member may use it {often} every "
            f"{cooldown.per:g} seconds. Try again in {max(1, math.ceil(error.retry_after))} seconds.")
