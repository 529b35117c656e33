"""/board, /log, /rules, /help (written from the command tree: bot/help.py): looking, never acting."""

from __future__ import annotations

import contextlib
import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, choices, defer, game_here, refusal, reply, service_of
from bot.cogs.orders import ship_names
from bot.cogs.referee import lookup, table_names
from bot.faces import faces
from bot.fair_share import BOARD, fair_share, refund
from bot.help import commands_of, help_pages
from bot.limits import newest_lines
from game import names
from game.account import account_lines
from game.errors import ParseError, RulesError
from game.glossary import look_up
from game.notation import fold, resolve
from game.rules_data import load_rules
from render.alt_text import board_alt
from render.options import RenderOptions
from render.pooled import render_board_async  # draws in a worker process

TERMS = {
    "broadside": "Broadside: Broadside value less Fatigue (never below Crew) dice at a target within Cannon Shot, in "
                 "the firing side's broadside path, in sight; hits by range; reload marker on that side.",
    "partial fire": "Partial Fire: Crew dice less Fatigue (at least 1), any edge, Musket Shot, ignores reload markers.",
    "close combat": "Close Combat: 3 + Crew less Fatigue dice between Entangled ships; bow/stern contact hits on "
                    "skull, side contact on skull, pistol and sword; each hit is 1 Fatigue.",
    "wind's eye": "In the Wind's Eye: bow within about 45° of the wind; no forward move, only a turn up to 30° "
                  "with the speed-1 tool.",
    "fatigue": "Fatigue 0–7: 1 die less per point on tests and attacks; 7 = Shaken (only Rally).",
    "damage": "Damage 0–7: 7 = Crippled (speed at most 2; further damage becomes Fatigue). Crippled + Shaken = "
              "Out of Action.",
    "strike points": "Strike Points each End Phase: 1 per Crippled ship, 2 per ship lost, 3 for a lost Flagship; "
                     "more than your ships still counted and you withdraw.",
    "seamanship": "Seamanship Actions (Skill Test: 5 dice less Fatigue, a sail or sword passes): Change Heading, "
                  "Adjust Speed, Cut Free.",
    "crew action": "Crew Actions after the move: Reload, Rally, Repair (or refloat), Change Sail Setting, Boarding, "
                   "Row, Transfer Flag, Landing Party.",
}


async def command_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return choices([n.qualified_name for n in commands_of(interaction.client.tree)], current)  # type: ignore[attr-defined]


async def rule_terms(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    rules = load_rules()
    return choices([*TERMS, *rules.cards, *rules.ships, "provisional"], current)


class BoardCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="The board as you see it (privately); zoom on a ship if you like")
    @app_commands.describe(ship="Zoom on this ship (default: the whole table)",
                           text="The board in words instead of the picture (what a screen reader says of it)")
    @app_commands.autocomplete(ship=ship_names)
    @fair_share(*BOARD)
    async def board(self, interaction: discord.Interaction, ship: str | None = None, text: bool = False) -> None:
        if not await defer(interaction):
            return
        service = service_of(interaction)
        try:
            gid = await game_here(interaction, include_over=True)
            view = await service.reading.view(await actor_of(interaction), gid)
            if ship is not None:  # as an order names it: any case, a unique prefix, a clear typo
                ship = resolve(ship, [s.id for s in view.game.ships], "ship")
        except RulesError as exc:  # nothing was drawn
            refund(interaction)
            await reply(interaction, refusal(exc))
            return
        alt = board_alt(view)
        if text:
            await reply(interaction, "🗺️ " + names.text(alt))
            return
        png = await render_board_async(view, RenderOptions(zoom_ship=ship, active_ship=ship))
        await reply(interaction, "🗺️ The board" + (f", around {names.text(ship)}" if ship else ""),
                    file=discord.File(io.BytesIO(png), filename="board.png", description=alt))

    @app_commands.command(description="The last events of this game")
    async def log(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        try:
            gid = await game_here(interaction, include_over=True)
            events = await service_of(interaction).reading.log(await actor_of(interaction), gid, 30)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        text = "\n".join(faces(t) for t in account_lines(events) if t)  # a pass or a hold said too
        await reply(interaction, newest_lines(text) or "Nothing has happened yet.")

    @app_commands.command(description="Look up a rule or a card; or a play-aid table of a referee-assistant system")
    @app_commands.describe(term="An Oak & Iron rule, card or ship", table="A play-aid table (WS&IM, Iron & Oak, "
                           "Captain's Sea)", row="The table's row (a number or a label)", column="The column, if it "
                           "has several", system="The system whose table (default: this channel's game's)")
    @app_commands.autocomplete(term=rule_terms, table=table_names)
    async def rules(self, interaction: discord.Interaction, term: str = "", table: str | None = None,
                    row: str = "", column: str = "",
                    system: Literal["wsim", "iron_and_oak", "captains_sea"] | None = None) -> None:
        if not await defer(interaction):
            return
        if table is not None:
            await lookup(interaction, table, row, column, system)
            return
        rules = load_rules()
        key = term.strip().lower()
        lines = [v for k, v in TERMS.items() if key in k]
        for name, card in rules.cards.items():
            if key in name.lower():
                lines.append(f"**{name}** (initiative {card.value}{', discarded after play' if card.discard else ''}): "
                             f"{card.text}")
        for name, ship in rules.ships.items():
            if key in name.lower():
                lines.append(f"**{name}** ({ship.points} pts, {ship.base} base): Fortitude {ship.fortitude}, Broadside "
                             f"{ship.broadside}, Crew {ship.crew}, speed {ship.windward} windward / {ship.large} large"
                             + (f" — provisional: {', '.join(ship.provisional)}" if ship.provisional else ""))
        if key in ("provisional", "data"):
            lines.append("Provisional data files: " + ", ".join(rules.provisional_files)
                         + ". Ship stat lines are provisional too: public sources give none.")
        if key and key not in TERMS:  # a trait, a term, a keyword, an upgrade or a misspelt name: the glossary's
            with contextlib.suppress(RulesError):  # nothing near: the answer below says what to try
                entry = look_up(rules, term)
                if not lines or fold(entry.name) == fold(term) and f"**{entry.name}**" not in "".join(lines):
                    lines = [names.prose(line) for line in entry.lines()] + lines  # "Small" before "Small Arms"
        await reply(interaction, "\n".join(lines)[:1900] or f"Nothing found for “{names.text(term[:64])}”. Try: {', '.join(TERMS)}.")

    @app_commands.command(description="Every command with its options, from the bot itself; or one command in detail")
    @app_commands.describe(command="One command or group, e.g. game create (default: every command)",
                           page="Which page of the answer")
    @app_commands.autocomplete(command=command_names)
    async def help(self, interaction: discord.Interaction, command: str | None = None,
                   page: app_commands.Range[int, 1, 100] = 1) -> None:
        # private, and answered at once: nothing is read but the bot's own command tree
        tree = self.bot.tree
        if command is not None and command.strip():
            try:
                command = resolve(command.strip().lstrip("/"), [n.qualified_name for n in commands_of(tree)], "command")
            except ParseError as exc:
                await interaction.response.send_message(refusal(ParseError(exc.message, "`/help` lists every command.")),
                                                        ephemeral=True)
                return
        shown = help_pages(tree, command, getattr(self.bot, "docs_url", ""))
        if page > len(shown):
            text = f"❌ There is no page {page}: this help has {len(shown)}."
        else:
            text = shown[page - 1]
        await interaction.response.send_message(text, ephemeral=True, suppress_embeds=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(BoardCog(bot))
