"""/mygames: every game waiting on me, in every server, from anywhere (a DM with the bot too)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import defer, reply, service_of
from game import names
from game.service.results import MyGame

MAX_LISTED = 15  # each line carries a link: fifteen stay well inside a message


def jump(game: MyGame) -> str:
    return f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"


def game_line(game: MyGame) -> str:
    name = names.text(game.name[:60])
    when = f" · deadline <t:{int(game.deadline.timestamp())}:R>" if game.deadline and game.waiting_on_me else ""
    waiting = f"**your move** ({', '.join(game.waiting_on_me)})" if game.waiting_on_me else "waiting for others"
    return f"• [{name} #{game.id}]({jump(game)}) — turn {game.turn} · {game.phase} · {waiting}{when}"


def my_games_text(games: list[MyGame]) -> str:
    if not games:
        return "You have no unfinished games. `/game join` in a game's channel takes a seat."
    due = sum(1 for g in games if g.waiting_on_me)
    head = f"🧭 {due} of your {len(games)} games wait for you." if due else f"🧭 None of your {len(games)} games waits for you."
    lines = [game_line(g) for g in games[:MAX_LISTED]]
    if len(games) > MAX_LISTED:
        lines.append(f"… and {len(games) - MAX_LISTED} more.")
    return "\n".join([head, *lines])


class MineCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="mygames", description="Your unfinished games in every server, the ones waiting on you first")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def mygames(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        games = await service_of(interaction).lobby.my_games(str(interaction.user.id))
        await reply(interaction, my_games_text(games), suppress_embeds=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MineCog(bot))
