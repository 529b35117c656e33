"""/data: a guild exports the game data, edits it, and imports it back (GMs only)."""

from __future__ import annotations

import io
import zipfile

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, defer, refusal, reply, service_of
from bot.fair_share import IMPORT, fair_share, refund
from game.errors import RulesError
from game.rules_data import DataError

MAX_BYTES = 500_000


class DataCog(commands.GroupCog, name="data", description="This server's game data (ships, cards, dice, ranges)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Download the game data new games here start with (a zip of TOML files)")
    async def export(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        files = await service_of(interaction).data.export_data(str(interaction.guild_id))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
            for name, text in sorted(files.items()):
                z.writestr(name, text)
        await reply(interaction, "📦 The game data (edit a file, then `/data import` it). Provisional figures are "
                                 "marked in each file.", file=discord.File(io.BytesIO(buffer.getvalue()),
                                                                          filename="quarterdeck-data.zip"))

    @app_commands.command(name="import", description="Replace one data file for this server's new games (GM)")
    @app_commands.describe(file="One TOML file of the /data export zip, edited")
    @fair_share(*IMPORT)
    async def import_file(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        if not await defer(interaction):
            return
        try:
            if file.size > MAX_BYTES:
                raise RulesError("That file is too large.", f"Keep data files under {MAX_BYTES // 1000} KB.")
            text = (await file.read()).decode("utf-8")
            version = await service_of(interaction).data.import_data(await actor_of(interaction), file.filename, text)
        except DataError as exc:  # a GM fixing the file tries again at once: only an import counts
            refund(interaction)
            await reply(interaction, f"❌ Not imported: {exc}")
            return
        except RulesError as exc:
            refund(interaction)
            await reply(interaction, refusal(exc))
            return
        except UnicodeDecodeError:
            refund(interaction)
            await reply(interaction, "❌ Data files are UTF-8 text (TOML).")
            return
        await reply(interaction, f"✅ `{file.filename}` imported (data version {version}). Games already under way "
                                 "keep the data they started with; new games use it.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DataCog(bot))
