"""The Discord client: slash commands only (no privileged intents), the cogs, the dynamic buttons,
one error handler, the scheduler task, and a clean shutdown."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import UNEXPECTED, refusal
from game.errors import RulesError
from game.service.game_service import GameService
from game.service.models import ScheduledJob
from game.service.scheduler import run_forever

log = logging.getLogger(__name__)
COGS = ("bot.cogs.game", "bot.cogs.orders", "bot.cogs.board", "bot.cogs.data", "bot.cogs.squadron", "bot.cogs.setup")


class QuarterdeckBot(commands.Bot):
    def __init__(self, service: GameService, dev_guild_id: str = "", sync_commands: bool = True,
                 run_scheduler: bool = True) -> None:
        # nothing the bot posts pings anyone unless that message names them (the player to act)
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), help_command=None,
                         allowed_mentions=discord.AllowedMentions.none())
        self.service = service
        self.dev_guild_id = dev_guild_id
        self.sync_commands = sync_commands
        self.run_scheduler = run_scheduler
        self._tasks: list[asyncio.Task[Any]] = []
        self.nudged: set[tuple[int, str, int]] = set()  # (game, player, turn) already sent a pick nudge
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        from bot.views import DYNAMIC_ITEMS

        for cog in COGS:
            await self.load_extension(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        report = await self.service.rebuild_all()
        for game_id, why in report.damaged:
            log.error("game #%s was not rebuilt: %s", game_id, why)
        if self.sync_commands:
            if self.dev_guild_id:
                guild = discord.Object(int(self.dev_guild_id))
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        if self.run_scheduler:
            handlers = {"reminder": self._remind, "deadline": self._deadline}
            self._tasks.append(asyncio.create_task(run_forever(self.service.repo, handlers)))

    async def _remind(self, job: ScheduledJob) -> None:
        await self._ping(job, "⏰ Reminder: the game is waiting for you")

    async def _deadline(self, job: ScheduledJob) -> None:
        await self._ping(job, "⌛ The deadline has passed; a GM may now act for you")

    async def _ping(self, job: ScheduledJob, text: str) -> None:
        if job.game_id is None:
            return
        info = await self.service.info(job.game_id)
        player = json.loads(job.payload).get("player")
        user = next((u for p, u, _, ai in info.seats if p == player and not ai), None)
        channel = self.get_channel(int(info.channel_id)) if info.channel_id.isdigit() else None
        if channel is not None and user and isinstance(channel, discord.abc.Messageable):
            await channel.send(f"{text}, <@{user}> (game #{job.game_id}).",
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(user))]))

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, RulesError):
            text = refusal(original)
        elif isinstance(error, app_commands.CheckFailure):
            text = "❌ You may not use that command here."
        elif isinstance(original, discord.Forbidden):
            log.warning("missing permission: %s", original)
            text = "❌ I lack a permission in this channel (View Channel, Send Messages, Attach Files)."
        elif isinstance(original, discord.NotFound):
            log.warning("interaction expired: %s", original)
            return
        else:
            log.exception("unexpected error in a command", exc_info=original)
            text = UNEXPECTED
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report an error to the user")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await super().close()
