"""/captain: a captain's record (docs/records.md), and /captain-privacy: which parts of your own record
others may see. Every answer is private (decided before deferring, like every deferral here): a record
is looked up by one member for themselves, and what the member hid is already left out by the
service, so neither the text nor the plot nor its alt text can carry it."""

from __future__ import annotations

import dataclasses
import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import answer, defer, reply, service_of
from game import names
from game.record import Luck
from game.service.errors import ServiceRefusal
from game.service.records import CATEGORIES, CaptainRecord
from render.alt_text import rating_alt

LABELS = {"results": "games and results", "rating": "rating and its history", "reliability": "reliability",
          "luck": "dice luck", "rivals": "head-to-head", "ships": "ships: favourites, sunk and captured"}
MAX_RIVALS = 5


def _luck(what: str, got: Luck | None) -> str:
    if got is None or got.dice == 0:
        return f"{what}: no verified dice yet"
    how = "exactly" if got.method == "exact" else "by the normal approximation"
    return (f"{what}: {got.observed} from {got.dice} dice against {got.expected:.1f} expected; fair dice do at "
            f"least this well {_odds(got.chance)} ({how})")


def _odds(chance: float) -> str:
    """A percentage rounds a rare run of luck to 0%: below 1% it is said as one time in so many."""
    if chance >= 0.01:
        return f"{chance:.0%} of the time"
    return "less than once in a million times" if chance < 1e-6 else f"once in {round(1 / chance):,} times"


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def record_text(r: CaptainRecord, own: bool) -> str:
    where = "in every server" if r.scope == "all" else "in this server"
    lines = [f"⚓ **{names.text(r.name[:60])}**: record {where} (finished games only)"]
    if r.games is not None:
        lines.append(f"Games {r.games}: {r.wins} won, {r.draws} drawn, {r.losses} lost")
    if "rating" in r.shown and r.scope == "server":
        lines.append("Rating: none yet (no ranked games here)" if r.rating is None else
                     f"Rating {r.rating:.1f} after {len(r.history)} ranked games")
    if r.played is not None:
        median = "no answers timed yet" if r.median_response is None else f"median answer {_minutes(r.median_response)}"
        lines.append(f"Reliability: {r.played} activations played, {r.covered} played for them (GM, stand-in or "
                     f"computer captain); {median}")
    if r.hits is not None:
        lines.append(_luck("Hits", r.hits))
    if r.tests is not None:
        lines.append(_luck("Tests passed", r.tests))
    if r.rivals:
        shown = ", ".join(f"{names.text(x.name[:40])} {x.wins}–{x.draws}–{x.losses}" for x in r.rivals[:MAX_RIVALS])
        lines.append(f"Head-to-head (W–D–L): {shown}")
    if r.favourite_ships is not None:
        ships = ", ".join(f"{names.text(c)} ×{n}" for c, n in r.favourite_ships) or "none yet"
        lines.append(f"Favourite ships: {ships}. Enemy ships sunk {r.sunk}, taken {r.captured}; own lost {r.lost}")
    if own and r.hidden:
        lines.append("🔒 Hidden from others: " + ", ".join(LABELS[c] for c in CATEGORIES if c in r.hidden)
                     + " (`/captain-privacy` to change)")
    elif not own and len(r.shown) < len(CATEGORIES):
        lines.append("🔒 Some of this record is hidden by its captain.")
    return "\n".join(lines)


class CaptainCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="captain", description="A captain's record: results, rating, reliability, dice luck")
    @app_commands.describe(member="Whose record (yourself if left out)",
                           scope="This server, or every server (your own record only)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def captain(self, interaction: discord.Interaction, member: discord.User | None = None,
                      scope: Literal["server", "all"] = "server") -> None:
        if not await defer(interaction):  # private: the record is for the one who asked
            return
        who = member or interaction.user
        guild = None if scope == "all" or interaction.guild_id is None else str(interaction.guild_id)
        try:
            record = await service_of(interaction).records.record(str(interaction.user.id), str(who.id), guild)
        except ServiceRefusal as exc:
            await reply(interaction, answer(exc))
            return
        if record.name == str(who.id):  # no seat names them: say what Discord calls them
            record = _named(record, who.display_name)
        own = who.id == interaction.user.id
        text = record_text(record, own)
        if "rating" in record.shown and record.history:
            from render.pooled import rating_png_async  # drawing stays out of the bot's start-up

            png = await rating_png_async(record.name, record.history)
            alt = rating_alt(record.name, record.history)
            await reply(interaction, text, file=discord.File(io.BytesIO(png), filename="rating.png",
                                                             description=alt[:1024]))
        else:
            await reply(interaction, text)

    @app_commands.command(name="captain-privacy", description="Hide a part of your /captain record from others, "
                                                               "or show it again")
    @app_commands.describe(category="Which part", hide="Hide it (or show it again)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def captain_privacy(self, interaction: discord.Interaction,
                              category: Literal["results", "rating", "reliability", "luck", "rivals", "ships"],
                              hide: bool = True) -> None:
        if not await defer(interaction):
            return
        try:
            hidden = await service_of(interaction).records.set_hidden(str(interaction.user.id), category, hide)
        except ServiceRefusal as exc:
            await reply(interaction, answer(exc))
            return
        now = ", ".join(LABELS[c] for c in CATEGORIES if c in hidden) or "nothing"
        await reply(interaction, f"🔒 {'Hidden' if hide else 'Shown again'}: {LABELS[category]}. Hidden from others "
                                 f"now: {now}.")


def _named(record: CaptainRecord, name: str) -> CaptainRecord:
    return dataclasses.replace(record, name=name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CaptainCog(bot))
