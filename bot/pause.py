"""A pause by consent in Discord: `/game pause` asks, a message in the game's channel pings the other
players with Agree and Decline buttons, `/game resume` starts the clock again, and a pause's end
(when hours were given) is a scheduled job that survives a restart.

The buttons' custom ids carry the game and the request (its log position), so they answer after a
restart; the service decides who may press them (game/service/pauses.py): the asker's press, a
spectator's, or a press on a request that is no longer open is refused privately and changes nothing."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.actions import (
    UNEXPECTED,
    actor_of,
    answer,
    defer,
    deliver,
    game_here,
    reply,
    retire_components,
    service_of,
)
from bot.limits import fit
from bot.markup import chat
from game.errors import RulesError
from game.service.errors import AlreadyDecided, ServiceError
from game.service.frontend import Job
from game.service.pauses import PauseAnswer

log = logging.getLogger(__name__)


class PauseButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"qd:pause:(?P<game>\d+):(?P<ask>\d+):(?P<answer>yes|no)"):
    """Agree to (or decline) a request to pause a game's clock."""

    def __init__(self, game_id: int, ask: int, agree: bool) -> None:
        super().__init__(discord.ui.Button(
            label="Agree" if agree else "Decline", emoji="⏸️" if agree else "▶️",
            style=discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary,
            custom_id=f"qd:pause:{game_id}:{ask}:{'yes' if agree else 'no'}"))
        self.game_id, self.ask, self.agree = game_id, ask, agree

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PauseButton:
        return cls(int(match["game"]), int(match["ask"]), match["answer"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):  # private: a refusal is the presser's alone; the outcome is logged
            return
        try:
            actor = await actor_of(interaction)
            done = await service_of(interaction).pauses.answer(actor, self.game_id, self.ask, self.agree)
        except (RulesError, ServiceError) as exc:
            if isinstance(exc, AlreadyDecided):
                await retire_components(interaction, _clear)
            await reply(interaction, answer(exc))
            return
        except Exception:
            log.exception("unexpected error answering a pause of game %s", self.game_id)
            await reply(interaction, UNEXPECTED)
            return
        if not done.asked:  # the request is settled: paused, or declined
            await retire_components(interaction, _clear)
        await deliver(interaction, self.game_id)  # the change is in the game's log, posted with it
        await reply(interaction, chat(done.text))


def pause_view(game_id: int, ask: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PauseButton(game_id, ask, True))
    view.add_item(PauseButton(game_id, ask, False))
    return view


async def _clear(interaction: discord.Interaction) -> None:
    if interaction.message is not None:
        await interaction.message.edit(view=None)


async def ask_pause(interaction: discord.Interaction, hours: int | None, reason: str) -> None:
    """/game pause: asked privately first (a refusal is the asker's alone); the request itself is a
    message in the channel that pings only the players asked."""
    if not await defer(interaction):
        return
    service = service_of(interaction)
    try:
        gid = await game_here(interaction)
        done = await service.pauses.ask(await actor_of(interaction), gid, hours, reason)
    except RulesError as exc:
        await reply(interaction, answer(exc))
        return
    await deliver(interaction, gid)
    if done.proposal is not None and done.asked:
        await _post_request(interaction, gid, done)
    await reply(interaction, chat(done.text))


async def _post_request(interaction: discord.Interaction, game_id: int, done: PauseAnswer) -> None:
    who = " and ".join(f"<@{u}>" for u in done.asked)
    text = (f"⏸️ {who}: <@{interaction.user.id}> asks to pause the clock of game #{game_id} (no reminders and no "
            "deadlines; moves may still be played). Every other player must agree.")
    channel = interaction.client.get_partial_messageable(interaction.channel_id or 0, guild_id=interaction.guild_id)
    try:
        await channel.send(fit(text), view=pause_view(game_id, done.proposal or 0),
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(u)) for u in done.asked
                                                                           if u.isdigit()],
                                                                    roles=False, everyone=False))
    except discord.HTTPException as exc:
        log.warning("could not post the pause request of game %s: %s", game_id, exc)
        await reply(interaction, "⚠️ I could not post the request in this channel (I need Send Messages): "
                                 "ask your opponent to pause with /game pause instead.")


async def resume_pause(interaction: discord.Interaction) -> None:
    if not await defer(interaction):
        return
    try:
        gid = await game_here(interaction)
        done = await service_of(interaction).pauses.resume(await actor_of(interaction), gid)
    except RulesError as exc:
        await reply(interaction, answer(exc))
        return
    await deliver(interaction, gid)
    await reply(interaction, chat(done.text))


async def pause_end_job(bot: Any, job: Job) -> None:
    """A pause's end fell due: the clock runs again (nothing, if the pause already ended), posted."""
    if job.game_id is None:
        return
    if await bot.service.pauses.ended(job) is not None:
        await bot.courier.drain(job.game_id)
