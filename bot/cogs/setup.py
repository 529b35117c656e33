"""/setup: the chapter-7 set-up of a drafted game, one step per command (docs/setup.md).

Each command is one line of table notation sent to the service, so `/order` and a script can do
the same; `deploy` can show a private preview of the spot first."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, choices, game_here, private_preview, send_line, service_of
from game.errors import RulesError
from game.model import Status
from game.notation import format_command, parse
from game.phases.preparation import allowed_kinds
from game.service.errors import ServiceError
from game.service.game_service import GameService
from game.views import View


async def _view(interaction: discord.Interaction) -> View | None:
    try:
        gid = await game_here(interaction)
        return await service_of(interaction).reading.view(await actor_of(interaction), gid)
    except (RulesError, ServiceError):
        return None


async def offered_cards(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    view = await _view(interaction)
    prep = view.game.prep if view else None
    return choices(list(prep.offered) if prep else [], current)


async def terrain_kinds(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    view = await _view(interaction)
    if view is None or view.game.prep is None or view.viewer is None:
        return []
    rules = await service_of(interaction).reading.rules(await game_here(interaction))
    return choices(allowed_kinds(view.game, view.viewer, rules), current)


async def terrain_pieces(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    view = await _view(interaction)
    if view is None or view.game.prep is None:
        return []
    names = [p.id for p in view.game.prep.pool] + [t.id for t in view.game.table.terrain]
    return choices(names, current)


async def undeployed_ships(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    view = await _view(interaction)
    if view is None:
        return []
    mine = [s.id for s in view.game.ships if s.owner == view.viewer]
    first = [s for s in mine if Status.UNDEPLOYED in view.game.ship(s).statuses]
    return choices(first + [s for s in mine if s not in first], current)


def _q(name: str) -> str:
    return f'"{name}"' if " " in name else name


class SetupCog(commands.GroupCog, name="setup", description="Set up a drafted game: roles, cards, terrain, deployment"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Choose to be the attacker (drafts first) or the defender (wins ties on turn 10)")
    @app_commands.describe(role="Attacker or defender")
    async def role(self, interaction: discord.Interaction, role: Literal["attacker", "defender"]) -> None:
        await self._send(interaction, f"role {role}")

    @app_commands.command(description="Take one of the drawn setting, deployment or advantage cards")
    @app_commands.describe(card="One of the cards drawn (the list shows them)")
    @app_commands.autocomplete(card=offered_cards)
    async def draft(self, interaction: discord.Interaction, card: str) -> None:
        await self._send(interaction, f"draft {card}")

    @app_commands.command(description="Add a terrain piece to the pool, as your setting card allows")
    @app_commands.describe(kind="A kind of terrain your setting card allows")
    @app_commands.autocomplete(kind=terrain_kinds)
    async def terrain(self, interaction: discord.Interaction, kind: str) -> None:
        await self._send(interaction, f"terrain {kind}")

    @app_commands.command(description="Place a pool piece (or, when adjusting, move one in your zone)")
    @app_commands.describe(piece="The terrain piece", x="Inches from the west edge", y="Inches from the south edge",
                           rotation="Degrees to turn the piece (optional)")
    @app_commands.autocomplete(piece=terrain_pieces)
    async def place(self, interaction: discord.Interaction, piece: str, x: app_commands.Range[float, 0, 100],
                    y: app_commands.Range[float, 0, 100], rotation: app_commands.Range[float, 0, 359] = 0.0) -> None:
        rot = f" rot {rotation:g}" if rotation else ""
        await self._send(interaction, f"place {_q(piece)} {x:g} {y:g}{rot}")

    @app_commands.command(description="Done adjusting terrain")
    async def finish(self, interaction: discord.Interaction) -> None:
        await self._send(interaction, "finish")

    @app_commands.command(description="Deploy a ship in your zone: centre and heading (0 = north)")
    @app_commands.describe(ship="Your ship", x="Inches from the west edge", y="Inches from the south edge",
                           heading="Compass degrees the bow points to (0 north, 90 east)",
                           preview="Only show the spot, privately, without deploying")
    @app_commands.autocomplete(ship=undeployed_ships)
    async def deploy(self, interaction: discord.Interaction, ship: str, x: app_commands.Range[float, 0, 100],
                     y: app_commands.Range[float, 0, 100], heading: app_commands.Range[float, 0, 359] = 0.0,
                     preview: bool = False) -> None:
        line = f"deploy {_q(ship)} {x:g} {y:g} heading {heading:g}"
        if preview:
            await self._preview(interaction, line)
        else:
            await self._send(interaction, line)

    async def _send(self, interaction: discord.Interaction, line: str) -> None:
        await send_line(interaction, line)

    async def _preview(self, interaction: discord.Interaction, line: str) -> None:
        from render.options import RenderOptions
        from render.overlays import deployment_zones, preview_deploy
        from render.pooled import render_board_async  # draws in a worker process

        async def build(service: GameService, view: View, gid: int) -> tuple[bytes, str]:
            if view.viewer is None:
                raise RulesError("Only a player of this game can preview a deployment.")
            command = parse(f"{view.viewer}: {line}", view.game)
            rules = await service.reading.rules(gid)
            pv = preview_deploy(view, command, rules)
            png = await render_board_async(view, RenderOptions(preview=pv, zones=deployment_zones(view.game, rules)))
            arcs = "; ".join(f"{s}: {e} at {b.replace('_', ' ')}" for s, e, b in pv.in_arc) or "no enemy in either arc"
            return png, f"👁️ Preview of `{format_command(command)}` (not made): {pv.note}. {arcs}."

        await private_preview(interaction, build)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SetupCog(bot))
