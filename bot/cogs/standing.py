"""/orders: standing orders for the rest of the turn, carried out as play reaches each decision.
Each subcommand is one service call; the orders are the player's own, so every answer is private."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, defer, game_here, refusal, reply, service_of
from bot.cogs.orders import ship_names
from game.errors import RulesError
from game.service.game_service import Actor, GameService
from game.standing import Standing

Rule = Literal["best", "nearest", "flagship", "weakest", "rake", "hold"]
Edit = Callable[[GameService, Actor, int], Awaitable[Standing | None]]


class StandingOrdersCog(commands.GroupCog, name="orders",
                        description="Standing orders for the rest of the turn: moves, targets, re-rolls"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Show your standing orders for this turn (privately)")
    async def show(self, interaction: discord.Interaction) -> None:
        await self._edit(interaction, lambda s, a, g: s.orders.current(a, g), act=False)

    @app_commands.command(description="A ship's move for this turn, made when play reaches it (ships move in order)")
    @app_commands.describe(line="The move in table notation, e.g. `move Kestrel turn end port 30 crew reload port`")
    async def move(self, interaction: discord.Interaction, line: str) -> None:
        await self._edit(interaction, lambda s, a, g: s.orders.move(a, g, line))

    @app_commands.command(description="Whom a ship fires at this turn: a named ship (with a fallback) or a rule")
    @app_commands.describe(ship="Your ship", rule="best (the computer captain's judgement), nearest, flagship, "
                           "weakest, rake, or hold fire; with a target, the fallback", target="Fire at this enemy")
    @app_commands.autocomplete(ship=ship_names, target=ship_names)
    async def attack(self, interaction: discord.Interaction, ship: str, rule: Rule = "best",
                     target: str | None = None) -> None:
        if target:
            await self._edit(interaction, lambda s, a, g: s.orders.attack(a, g, ship, "ship", target, rule))
        else:
            await self._edit(interaction, lambda s, a, g: s.orders.attack(a, g, ship, rule))

    @app_commands.command(description="What to do with a roll that may be re-rolled, without asking you")
    @app_commands.describe(policy="ask me; never; re-roll failures with Skill; Skill, then Fortune on a failure")
    async def rerolls(self, interaction: discord.Interaction,
                      policy: Literal["ask", "never", "skill", "fortune"]) -> None:
        await self._edit(interaction, lambda s, a, g: s.orders.policy(a, g, reroll=policy))

    @app_commands.command(description="What an order that has become illegal does")
    @app_commands.describe(then="wait for me; skip it; or let the computer captain play it")
    async def fallback(self, interaction: discord.Interaction, then: Literal["wait", "skip", "discretion"]) -> None:
        await self._edit(interaction, lambda s, a, g: s.orders.policy(a, g, fallback=then))

    @app_commands.command(description="Captain's discretion: the computer captain plays a ship, or the rest of the turn")
    @app_commands.describe(ship="Only this ship (default: the rest of the turn)", on="False takes it back")
    @app_commands.autocomplete(ship=ship_names)
    async def discretion(self, interaction: discord.Interaction, ship: str | None = None, on: bool = True) -> None:
        await self._edit(interaction, lambda s, a, g: s.orders.policy(a, g, discretion=on, ship=ship))

    @app_commands.command(description="Drop all your standing orders")
    async def clear(self, interaction: discord.Interaction) -> None:
        async def drop(service: GameService, actor: Actor, gid: int) -> None:
            await service.orders.clear(actor, gid)

        await self._edit(interaction, drop, act=False)

    async def _edit(self, interaction: discord.Interaction, edit: Edit, act: bool = True) -> None:
        if not await defer(interaction):
            return
        service = service_of(interaction)
        try:
            gid = await game_here(interaction)
            actor = await actor_of(interaction)
            lapsed = await service.orders.lapsed(actor, gid)  # read before an edit replaces them
            before = await service.orders.current(actor, gid) if act else None
            orders = await edit(service, actor, gid)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        note = f"🗒️ {lapsed}\n" if lapsed else ""
        if orders is None:
            await reply(interaction, f"{note}🗒️ Your standing orders are cleared.")
            return
        await reply(interaction, f"{note}🗒️ **Your standing orders for turn "
                                 f"{orders.turn}**\n" + "\n".join(orders.lines()))
        if act and orders != before and interaction.channel is not None:
            # the game may be waiting for these very orders
            bot: Any = interaction.client
            await bot.driver.advance(gid, bot.courier.drain)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StandingOrdersCog(bot))
