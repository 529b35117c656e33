"""A finished game's chronicle in Discord: its summary card (a PNG with alt text, and the same in a few
lines of text) posted by the courier in the game's channel with a Rematch button, and, when a GM set
one, in the server's chronicle channel with a thread opened on it for after-action reports.

The Rematch button's custom id carries the game it answers, so it works after a restart; the
service decides who may press it (a player of the game, once): a spectator's press and the second
press are answered privately and change nothing (game/service/chronicle.py)."""

from __future__ import annotations

import io
import logging
import re
from typing import Any, Literal

import discord

from bot.actions import (
    UNEXPECTED,
    actor_of,
    after_command,
    answer,
    defer,
    reply,
    retire_components,
    service_of,
)
from bot.limits import fit, thread_name
from bot.markup import chat
from game import names
from game.chronicle import CardText, luck_text, turns_text
from game.errors import RulesError
from game.service.chronicle import Card, duration_text
from game.service.errors import AlreadyDecided, ChannelBusy, ServiceError
from render.pooled import summary_card_async

log = logging.getLogger(__name__)

REPORTS_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week of quiet before the after-action thread leaves the list


def card_text(card: Card, jump: str = "") -> str:
    """The card in words for the channel: what the image shows, and where to check and replay it."""
    s = card.summary
    result = f"player {s.winner} wins" if s.winner else "a draw"
    lines = [f"📜 **{names.text(s.name)}** (game #{card.game_id}) is over: {result}"
             f"{f' ({s.result})' if s.result else ''} after {turns_text(s.turns)}, {duration_text(card.duration)}."]
    for side in s.sides:
        who = chat(" & ".join(card.members.get(side.side, ())) or f"player {side.side}")
        luck = luck_text(side.luck) if side.dice else "no dice rolled"
        lines.append(f"• **{side.side}** ({who}): {side.strike_points} Strike Points · {side.lost} of {side.ships} "
                     f"ships lost · dice luck {luck}")
    lines.append("✅ Every roll was recomputed from the revealed seed and matches the log." if card.verified
                 else f"⚠️ The dice do not verify: {chat(card.verify_text)[:300]} (`/game verify`).")
    lines.append("Dice luck is the hits (successes) a side rolled minus those its dice promised on average. "
                 "`/game replay` shows the game again" + (f"; the game: {jump}" if jump else "") + ".")
    return fit("\n".join(lines))


async def card_file(card: Card) -> discord.File:
    png, alt = await summary_card_async(card.summary, CardText(card.summary.name, duration_text(card.duration),
                                                               card.members, card.verified, card.game_id))
    return discord.File(io.BytesIO(png), filename=f"chronicle-{card.game_id}.png", description=alt)


async def post_card(channel: discord.abc.Messageable, card: Card, *, nonce: str) -> None:
    """The card in the game's channel, with the Rematch button while nobody has asked for it."""
    view: discord.ui.View | None = None
    if card.rematch is None:
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(card.game_id))
    kwargs: dict[str, Any] = {"view": view} if view is not None else {}
    await channel.send(card_text(card), file=await card_file(card), allowed_mentions=discord.AllowedMentions.none(),
                       nonce=nonce, **kwargs)


async def post_chronicle(client: discord.Client, channel: discord.PartialMessageable, card: Card, jump: str, *,
                         nonce: str) -> None:
    """The card in the chronicle channel, and a thread on it for after-action reports. A thread Discord
    refuses (no Create Public Threads there) is logged, not retried: a retry would post the card twice."""
    sent = await channel.send(card_text(card, jump), file=await card_file(card),
                              allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)
    # Start Thread from Message by the route itself: Message.create_thread wants the server in the
    # client's cache, and the courier reaches channels by id whether or not they are cached
    try:
        await client.http.start_thread_with_message(channel.id, sent.id,
                                                    name=thread_name(f"After action: {card.summary.name}"),
                                                    auto_archive_duration=REPORTS_ARCHIVE_MINUTES)
    except discord.HTTPException as exc:
        log.warning("no after-action thread on the chronicle card of game %s: %s %s", card.game_id, exc.status,
                    exc.text[:200])


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qd:rematch:(?P<game>\d+)"):
    """A new game with the sides swapped, for any player of the finished game, once."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success, emoji="🔁",
                                           custom_id=f"qd:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):  # private: a refusal is the presser's alone; the game is announced
            return
        service = service_of(interaction)
        made: discord.Thread | None = None
        try:
            actor = await actor_of(interaction)
            try:
                info = await service.chronicle.rematch(actor, self.game_id)
            except ChannelBusy:
                if not isinstance(interaction.channel, discord.TextChannel):
                    raise
                made = await interaction.channel.create_thread(name=thread_name("Oak & Iron: rematch"),
                                                               type=discord.ChannelType.public_thread)
                info = await service.chronicle.rematch(actor, self.game_id, thread_id=str(made.id))
        except (RulesError, ServiceError) as exc:
            if made is not None:  # the thread was for a game that was not made after all
                await _unmake(made)
            if isinstance(exc, AlreadyDecided):
                await retire_components(interaction, _clear_card)
            await reply(interaction, answer(exc))
            return
        except Exception:
            log.exception("unexpected error making the rematch of game %s", self.game_id)
            await reply(interaction, UNEXPECTED)
            return
        await retire_components(interaction, _clear_card)  # the card keeps its text and image
        where = f" in <#{made.id}>" if made is not None else " here"
        await reply(interaction, f"🔁 The rematch is game #{info.id}{where}: the sides are swapped.")
        await after_command(interaction, info.id, None)  # its board and status, through the outbox


async def _clear_card(interaction: discord.Interaction) -> None:
    if interaction.message is not None:
        await interaction.message.edit(view=None)


async def _unmake(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.info("could not delete thread %s made for a rematch that was refused", thread.id)
