"""/move, /attack, /order, /plan: orders for ships, each one service call."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import (
    actor_of,
    choices,
    defer,
    game_here,
    private_preview,
    refusal,
    reply,
    send_line,
    service_of,
)
from bot.views import options_view
from game import names
from game.errors import RulesError
from game.notation import format_command, parse
from game.service.errors import ServiceError
from game.service.game_service import GameService
from game.views import View


async def ship_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        gid = await game_here(interaction)
        view = await service_of(interaction).reading.view(await actor_of(interaction), gid)
    except (RulesError, ServiceError):
        return []
    return choices([s.id for s in view.game.ships if s.on_table], current)


def _q(name: str) -> str:
    return f'"{name}"' if " " in name else name


def move_line(ship: str, seamanship: str | None, heading_side: str | None, heading_degrees: float | None,
              adjust: str | None, direction: str | None, turn: str | None, turn_side: str | None,
              turn_degrees: float | None, crew: str | None, crew_side: str | None, crew_target: str | None) -> str:
    """The /move options as one line of table notation (docs/notation.md)."""
    words = ["move", _q(ship)]
    if seamanship == "heading":
        words += ["heading", heading_side or "port", f"{heading_degrees or 30:g}"]
    elif seamanship == "adjust":
        words += ["adjust", adjust or "+1"]
    elif seamanship == "cutfree":
        words.append("cutfree")
    if direction:
        words.append(direction)
    if turn:
        words += ["turn", turn, turn_side or "port", f"{turn_degrees or 30:g}"]
    if crew:
        words.append("crew")
        if crew == "reload":
            words += ["reload", crew_side or "port"]
        elif crew in ("sail up", "sail down", "repair aground"):
            words += crew.split()
        elif crew in ("board", "flag"):
            words += [crew, _q(crew_target or "")]
        else:
            words.append(crew)
    return " ".join(words)


class OrdersCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="A ship's Movement activation: Seamanship Action, move and Crew Action")
    @app_commands.describe(
        ship="The ship to activate", seamanship="An optional Seamanship Action (a Skill Test)",
        heading_side="Change Heading toward this side", heading_degrees="Change Heading: up to 30°",
        adjust="Adjust Speed by one", direction="ahead (default), or after a Cut Free: back / port / starboard / hold",
        turn="Turn at the start or the end of the move", turn_side="Turn toward this side",
        turn_degrees="Up to the tool's maximum", crew="An optional Crew Action",
        crew_side="Reload: which side", crew_target="Board / Transfer Flag: which ship",
        preview="Only show the move on the board, privately, without making it",
    )
    @app_commands.autocomplete(ship=ship_names, crew_target=ship_names)
    async def move(
        self, interaction: discord.Interaction, ship: str,
        seamanship: Literal["heading", "adjust", "cutfree"] | None = None,
        heading_side: Literal["port", "starboard"] | None = None,
        heading_degrees: app_commands.Range[float, 1, 30] | None = None,
        adjust: Literal["+1", "-1"] | None = None,
        direction: Literal["ahead", "back", "port", "starboard", "hold"] | None = None,
        turn: Literal["start", "end"] | None = None,
        turn_side: Literal["port", "starboard"] | None = None,
        turn_degrees: app_commands.Range[float, 1, 45] | None = None,
        crew: Literal["reload", "rally", "repair", "repair aground", "sail up", "sail down", "board", "row",
                      "flag"] | None = None,
        crew_side: Literal["port", "starboard"] | None = None,
        crew_target: str | None = None,
        preview: bool = False,
    ) -> None:
        line = move_line(ship, seamanship, heading_side, heading_degrees, adjust, direction, turn, turn_side,
                         turn_degrees, crew, crew_side, crew_target)
        if preview:
            await self._preview(interaction, line)
            return
        await self._order(interaction, line)

    @app_commands.command(description="A ship's Attack Phase activation")
    @app_commands.describe(
        ship="The attacking ship", kind="Broadside, Partial Fire or Close Combat", target="The enemy ship",
        side="Broadside: the firing side (both: fire each side at its own target)",
        second_target="Both sides: the starboard side's target (default: the same)",
        aim="Hull (default), rigging (half dice, sails count) or crew (half dice, Pistol Shot, swords count)",
        helm="If the target's helm is struck, turn it to this side",
    )
    @app_commands.autocomplete(ship=ship_names, target=ship_names, second_target=ship_names)
    async def attack(
        self, interaction: discord.Interaction, ship: str, kind: Literal["broadside", "partial", "close"], target: str,
        side: Literal["port", "starboard", "both"] | None = None, second_target: str | None = None,
        aim: Literal["hull", "rigging", "crew"] = "hull", helm: Literal["port", "starboard"] | None = None,
    ) -> None:
        aim_words = [] if aim == "hull" else ["aim", aim]
        if kind == "broadside":
            if side == "both":
                words = ["fire", _q(ship), "port", _q(target), *aim_words, "starboard", _q(second_target or target), *aim_words]
            else:
                words = ["fire", _q(ship), side or "port", _q(target), *aim_words]
        elif kind == "partial":
            words = ["partial", _q(ship), _q(target), *aim_words]
        else:
            words = ["melee", _q(ship), _q(target)]
        if helm:
            words += ["helm", helm]
        await self._order(interaction, " ".join(words))

    @app_commands.command(description="Any order in table notation, e.g. `reroll 2 4`, `capture Otter`, `decline`")
    @app_commands.describe(line="One command in the table notation (see /help)",
                           override="GMs: act for a player still within their deadline (logged, and shown when "
                                    "the game ends)")
    async def order(self, interaction: discord.Interaction, line: str, override: bool = False) -> None:
        await send_line(interaction, line, override)

    @app_commands.command(description="Plan your next activation now; it is carried out when play reaches you")
    @app_commands.describe(line="The order in table notation, e.g. `move Kestrel turn end port 30 crew reload port`")
    async def plan(self, interaction: discord.Interaction, line: str) -> None:
        if not await defer(interaction):
            return
        try:
            gid = await game_here(interaction)
            text = await service_of(interaction).commands.plan(await actor_of(interaction), gid, line)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await reply(interaction, f"🗓️ Planned: {names.code(text)}. It is carried out when play reaches you; if it is no "
                                 "longer legal then, I will tell you.")

    @app_commands.command(description="What you can do now: each ship's move, or each legal attack (privately)")
    @app_commands.describe(ship="Only this ship's options")
    @app_commands.autocomplete(ship=ship_names)
    async def options(self, interaction: discord.Interaction, ship: str | None = None) -> None:
        if not await defer(interaction):
            return
        try:
            gid = await game_here(interaction)
            seq, found = await service_of(interaction).reading.options(await actor_of(interaction), gid, ship)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        if not found.summary:
            await reply(interaction, "ℹ️ The game is not waiting for you now.")
            return
        text = "\n".join(names.prose(line) for line in found.lines())  # worded around raw ship names
        text = text if len(text) <= 1900 else text[:1890].rsplit("\n", 1)[0] + "\n…"
        menu = options_view(gid, seq, found) if any(o.order for o in found.items) else None
        await reply(interaction, text, **({"view": menu} if menu is not None else {}))

    async def _order(self, interaction: discord.Interaction, line: str) -> None:
        await send_line(interaction, line)

    async def _preview(self, interaction: discord.Interaction, line: str) -> None:
        from render.options import RenderOptions
        from render.overlays import preview_move
        from render.pooled import render_board_async  # draws in a worker process

        async def build(service: GameService, view: View, gid: int) -> tuple[bytes, str]:
            command = parse(line, view.game)
            pv = preview_move(view, command, await service.reading.rules(gid))
            png = await render_board_async(view, RenderOptions(preview=pv, zoom_ship=pv.ship, zoom_radius=10))
            arcs = "; ".join(f"{s}: {e} at {b}" for s, e, b in pv.in_arc) or "no enemy in either broadside path"
            note = f"\n{pv.note}" if pv.note else ""
            return png, f"👁️ Preview of `{format_command(command)}` (not made): {arcs}.{note}"

        await private_preview(interaction, build)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OrdersCog(bot))
