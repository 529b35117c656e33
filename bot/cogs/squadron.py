"""/squadron: build squadron lists step by step, check uploaded ones, keep them for reuse."""

from __future__ import annotations

import io
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, choices, defer, refusal, reply, service_of
from bot.limits import fit_lines
from game import names
from game.errors import RulesError
from game.rules_data import RulesData
from game.schema.common import MAX_NAME
from game.service.errors import ServiceError
from game.squadron import ShipEntry, SquadronError, SquadronList, parse_squadron
from game.squadron_builder import cards_for, with_hand_card, with_ship, without_hand_card, without_ship

MAX_BYTES = 100_000


async def saved_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    rows = await service_of(interaction).squadrons.saved(await actor_of(interaction))
    return choices([r.name for r in rows], current)


async def _rules(interaction: discord.Interaction) -> RulesData:
    return await service_of(interaction).data.rules(str(interaction.guild_id or f"dm-{interaction.user.id}"))


async def factions(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return choices(list((await _rules(interaction)).factions), current)


async def admirals(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    faction = getattr(interaction.namespace, "faction", "") or ""
    rules = await _rules(interaction)
    return choices([a.name for a in rules.admirals.values() if a.nation in ("", faction) or not faction], current)


async def ship_classes(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    rules = await _rules(interaction)
    return choices([c.name for c in rules.ships.values()], current)


async def captains(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return choices(list((await _rules(interaction)).captains), current)


async def _draft(interaction: discord.Interaction) -> SquadronList | None:
    name = getattr(interaction.namespace, "squadron", "") or ""
    try:
        text = await service_of(interaction).squadrons.text(await actor_of(interaction), name)
        return parse_squadron(text, partial=True)
    except (RulesError, ServiceError, SquadronError):
        return None


async def hand_cards(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    sq = await _draft(interaction)
    if sq is None:
        return []
    if getattr(interaction.namespace, "action", "add") == "remove":
        return choices(list(sq.hand), current)
    rules = await _rules(interaction)
    return choices(cards_for(sq, rules), current)


async def list_ships(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    sq = await _draft(interaction)
    return choices([s.name for s in sq.ships] if sq else [], current)


def _split(text: str | None) -> tuple[str, ...]:
    return tuple(x.strip() for x in (text or "").split(",") if x.strip())


class SquadronCog(commands.GroupCog, name="squadron", description="Build, check and keep squadron lists"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Check a squadron list (TOML) against every building rule and keep it")
    @app_commands.describe(file="Your squadron list (TOML; the format is in docs/squadron-format.md)")
    async def save(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        if not await defer(interaction):
            return
        try:
            if file.size > MAX_BYTES:
                raise RulesError("That file is too large.", f"Keep squadron lists under {MAX_BYTES // 1000} KB.")
            text = (await file.read()).decode("utf-8")
            info = await service_of(interaction).squadrons.save(await actor_of(interaction), text)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        except UnicodeDecodeError:
            await reply(interaction, "❌ Squadron lists are UTF-8 text (TOML).")
            return
        await reply(interaction, f"⚓ Saved **{names.text(info.name)}**: {names.text(info.faction)} {info.size}, {info.ships} ships, "
                                 f"{info.points} points. It is legal and ready for your games.")

    @app_commands.command(description="Start building a squadron: its name, game size, faction and admiral")
    @app_commands.describe(name="The squadron's name", size="Patrol 50, Skirmish 100 or Engagement 200 points",
                           faction="The nation (every card must carry its symbol or none)",
                           admiral="The Flagship's admiral (sets the hand size: 5 + admiral value)")
    @app_commands.autocomplete(faction=factions, admiral=admirals)
    async def new(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_NAME], size: Literal["patrol", "skirmish", "engagement"],
                  faction: str, admiral: str) -> None:
        if not await defer(interaction):
            return
        try:
            text = await service_of(interaction).squadrons.start(await actor_of(interaction), name, size, faction, admiral)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await reply(interaction, f"{text}\nNext: add ships with `/squadron ship`, cards with `/squadron hand`."[:1900])

    @app_commands.command(description="Add a ship to a squadron you are building (or change the ship of that name)")
    @app_commands.describe(squadron="Your squadron", name="The ship's name", ship_class="The ship class",
                           skill="Skill 0-2 (1 costs 2 points, 2 costs 4)",
                           options="Upgrade options from the ship card, comma-separated (e.g. Stout, Swift)",
                           captain="A captain card (not on the Flagship: the admiral commands it)",
                           cards="Up to 2 upgrade cards, comma-separated", flagship="Make this ship the Flagship")
    @app_commands.rename(ship_class="class")
    @app_commands.autocomplete(squadron=saved_names, ship_class=ship_classes, captain=captains)
    async def ship(self, interaction: discord.Interaction, squadron: str, name: app_commands.Range[str, 1, MAX_NAME],
                   ship_class: str,
                   skill: app_commands.Range[int, 0, 2] = 0, options: str | None = None, captain: str | None = None,
                   cards: str | None = None, flagship: bool = False) -> None:
        entry = ShipEntry(name.strip(), ship_class, skill, _split(options), captain or "", _split(cards))
        await self._edit(interaction, squadron, lambda sq: with_ship(sq, entry, flagship))

    @app_commands.command(description="Take a ship out of a squadron you are building")
    @app_commands.describe(squadron="Your squadron", ship="The ship to take out")
    @app_commands.autocomplete(squadron=saved_names, ship=list_ships)
    async def drop(self, interaction: discord.Interaction, squadron: str, ship: str) -> None:
        await self._edit(interaction, squadron, lambda sq: without_ship(sq, ship))

    @app_commands.command(description="Add a card to (or remove one from) the squadron's initiative hand")
    @app_commands.describe(squadron="Your squadron", card="An initiative card", action="Add the card, or remove it")
    @app_commands.autocomplete(squadron=saved_names, card=hand_cards)
    async def hand(self, interaction: discord.Interaction, squadron: str, card: str,
                   action: Literal["add", "remove"] = "add") -> None:
        change = with_hand_card if action == "add" else without_hand_card
        await self._edit(interaction, squadron, lambda sq: change(sq, card))

    @app_commands.command(description="Points, ships, hand and what a squadron still needs")
    @app_commands.describe(squadron="Your squadron")
    @app_commands.autocomplete(squadron=saved_names)
    async def check(self, interaction: discord.Interaction, squadron: str) -> None:
        await self._edit(interaction, squadron, lambda sq: sq)

    async def _edit(self, interaction: discord.Interaction, squadron: str, change: Any) -> None:
        if not await defer(interaction):
            return
        try:
            text = await service_of(interaction).squadrons.edit(await actor_of(interaction), squadron, change)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await reply(interaction, text[:1900])

    @app_commands.command(name="list", description="Your saved squadrons")
    async def list_saved(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        rows = await service_of(interaction).squadrons.saved(await actor_of(interaction))
        text = fit_lines([f"• **{names.text(r.name)}** — {names.text(r.faction)} {r.size}, {r.ships} ships, "
                          f"{r.points} pts{'' if r.complete else ' (being built: /squadron check shows what it needs)'}"
                          for r in rows], " (type a name into `/squadron show` or `check` to find one)")
        await reply(interaction, text or "No saved squadrons yet: upload one with /squadron save "
                                         "(the format is in docs/squadron-format.md).")

    @app_commands.command(description="Download one of your saved squadron lists")
    @app_commands.describe(squadron="Your squadron")
    @app_commands.autocomplete(squadron=saved_names)
    async def show(self, interaction: discord.Interaction, squadron: str) -> None:
        if not await defer(interaction):
            return
        name = squadron
        try:
            text = await service_of(interaction).squadrons.text(await actor_of(interaction), name)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await reply(interaction, f"📜 {names.text(name)}", file=discord.File(io.BytesIO(text.encode()), filename=f"{name}.toml"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SquadronCog(bot))
