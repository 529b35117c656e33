"""/squadron: check and keep squadron lists for reuse across games."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, defer, reply, service_of
from game.errors import RulesError

MAX_BYTES = 100_000


async def saved_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    rows = await service_of(interaction).squadrons(await actor_of(interaction))
    return [app_commands.Choice(name=r.name, value=r.name) for r in rows if current.lower() in r.name.lower()][:25]


class SquadronCog(commands.GroupCog, name="squadron", description="Build, check and keep squadron lists"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Check a squadron list (TOML) against every building rule and keep it")
    async def save(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        if not await defer(interaction):
            return
        try:
            if file.size > MAX_BYTES:
                raise RulesError("That file is too large.", f"Keep squadron lists under {MAX_BYTES // 1000} KB.")
            text = (await file.read()).decode("utf-8")
            info = await service_of(interaction).save_squadron(await actor_of(interaction), text)
        except RulesError as exc:
            await reply(interaction, f"❌ {exc.text}"[:1900])
            return
        except UnicodeDecodeError:
            await reply(interaction, "❌ Squadron lists are UTF-8 text (TOML).")
            return
        await reply(interaction, f"⚓ Saved **{info.name}**: {info.faction} {info.size}, {info.ships} ships, "
                                 f"{info.points} points. It is legal and ready for your games.")

    @app_commands.command(name="list", description="Your saved squadrons")
    async def list_saved(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        rows = await service_of(interaction).squadrons(await actor_of(interaction))
        text = "\n".join(f"• **{r.name}** — {r.faction} {r.size}, {r.ships} ships, {r.points} pts" for r in rows)
        await reply(interaction, text or "No saved squadrons yet: upload one with /squadron save "
                                         "(the format is in docs/squadron-format.md).")

    @app_commands.command(description="Download one of your saved squadron lists")
    @app_commands.autocomplete(squadron=saved_names)
    async def show(self, interaction: discord.Interaction, squadron: str) -> None:
        if not await defer(interaction):
            return
        name = squadron
        try:
            text = await service_of(interaction).squadron_text(await actor_of(interaction), name)
        except RulesError as exc:
            await reply(interaction, f"❌ {exc.text}")
            return
        await reply(interaction, f"📜 {name}", file=discord.File(io.BytesIO(text.encode()), filename=f"{name}.toml"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SquadronCog(bot))
