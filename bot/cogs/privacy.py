"""/privacy: a member sees what Quarterdeck keeps about them, downloads it, or has it deleted
(docs/privacy.md); and what happens to a server's data when the bot leaves it. Every answer is the
member's own, so private; the deletion asks first, with a button only its member may press."""

from __future__ import annotations

import io
import json
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import UNEXPECTED, defer, reply, retire_components, service_of
from game.service.frontend import Job

log = logging.getLogger(__name__)
POLICY = ("Quarterdeck keeps what it needs to referee your games: your Discord id and display name on your seats "
          "and in the logs of the games you play, your hours and time away (/clock), your saved squadrons, "
          "planned and standing orders, league entries and ratings, the games you follow, your DM channel with the bot. Nothing else: no messages, no member list. "
          "A finished game is kept so it can be replayed and its dice checked. When the bot leaves a server, "
          "that server's data is deleted after the retention period the host set. The full policy: "
          "docs/privacy.md.")
KINDS = (("seats", "seats"), ("saved_squadrons", "saved squadrons"), ("planned_orders", "planned orders"),
         ("standing_orders", "standing orders"), ("league_entries", "league entries"), ("ratings", "ratings"),
         ("table_entries", "play-aid table cells"), ("follows", "follows"), ("dm_channels", "DM channel with the bot"))


def summary(data: dict[str, Any]) -> str:
    """What the export holds, counted: the answer to /privacy show."""
    counts = [f"{len(data[key])} {label}" for key, label in KINDS if data.get(key)]
    acted = sum(len(g["events"]) for g in data.get("events_acted_in", []))
    if acted:
        counts.append(f"{acted} log events in {len(data['events_acted_in'])} games")
    if data.get("hours"):
        counts.append(f"your hours (time zone {data['hours']['time_zone']})")
    return "Stored about you: " + (", ".join(counts) if counts else "nothing") + "."


def names_of(user: discord.abc.User) -> list[str]:
    """What Discord calls the member now: the names their seats and handovers may hold."""
    return [n for n in {user.name, user.display_name, getattr(user, "global_name", None) or ""} if n]


async def _clear(interaction: discord.Interaction) -> None:
    """The private message the button was on (the press was deferred as an update of it)."""
    await interaction.edit_original_response(view=None)


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qd:forget:(?P<user>\d+)"):
    """Deletes its member's data. The custom id names whom it deletes: pressed by anyone else (a
    forged or forwarded button) it deletes nothing."""

    def __init__(self, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Delete my data", style=discord.ButtonStyle.danger, emoji="🗑️",
                                           custom_id=f"qd:forget:{user_id}"))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ForgetButton:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            await interaction.response.send_message("❌ That button deletes someone else's data: it is not yours "
                                                    "to press. `/privacy delete` deletes your own.", ephemeral=True)
            return
        if not await defer(interaction, update=True):  # a deletion may take longer than Discord's 3 seconds
            return
        try:
            pseudonym = await service_of(interaction).privacy.forget(str(self.user_id), names_of(interaction.user))
        except Exception:  # nothing was deleted: the deletion is one transaction
            log.exception("could not forget a member")
            await reply(interaction, UNEXPECTED)
            return
        await retire_components(interaction, _clear)
        log.info("a member's data was deleted (now %s)", pseudonym)
        await reply(interaction, "🗑️ Done: your data is deleted. Your seats in games under way now say \"former "
                                 "member\" (a GM can hand them over); finished games keep their moves without your "
                                 "name or id. Using Quarterdeck again starts afresh.")


class PrivacyCog(commands.GroupCog, name="privacy", description="What Quarterdeck keeps about you: see it, "
                                                                 "download it, delete it"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="What Quarterdeck stores about you, and why (privately)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def show(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        data = await service_of(interaction).privacy.export(str(interaction.user.id))
        await reply(interaction, f"🔒 {summary(data)}\n{POLICY}\n`/privacy export` downloads it all, "
                                 "`/privacy delete` deletes it.")

    @app_commands.command(description="Download everything Quarterdeck stores about you (a JSON file, privately)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def export(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        data = await service_of(interaction).privacy.export(str(interaction.user.id))
        body = json.dumps(data, ensure_ascii=False, indent=1).encode()
        await reply(interaction, f"📦 {summary(data)}", file=discord.File(io.BytesIO(body),
                                                                          filename="quarterdeck-my-data.json"))

    @app_commands.command(description="Delete what Quarterdeck stores about you (asks first)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def delete(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        data = await service_of(interaction).privacy.export(str(interaction.user.id))
        view = discord.ui.View(timeout=None)
        view.add_item(ForgetButton(interaction.user.id))
        await reply(interaction, f"⚠️ {summary(data)}\nDeleting takes your id and name out of every server's games "
                                 "(their moves stay, as \"former member\", so they still replay and verify), and "
                                 "deletes your hours, saved squadrons and orders. It cannot be undone. Press the "
                                 "button to delete; `/privacy export` first to keep a copy.", view=view)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Discord's GUILD_DELETE without `unavailable` (an outage dispatches guild_unavailable instead):
        the bot was removed, or the server deleted. Its data is kept for the retention, then purged."""
        days = int(getattr(self.bot, "guild_retention_days", 30))
        due = await service_of_bot(self.bot).retention.left(str(guild.id), days)
        log.info("removed from server %s: its data is purged at %s unless the bot returns", guild.id, due)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        if await service_of_bot(self.bot).retention.returned(str(guild.id)):
            log.info("back in server %s: its data's purge is cancelled", guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """A removal or a return while the bot was down sent no event: the servers READY lists (an
        unavailable one included) are compared with those that have data, for this process's shards.
        A bot started on the wrong database plans purges its own bot's next start cancels."""
        bot: Any = self.bot
        shards = getattr(bot, "shard_ids", None)
        count = getattr(bot, "shard_count", None) or 1

        def ours(guild_id: str) -> bool:  # Discord's shard formula: (guild_id >> 22) % num_shards
            return shards is None or (int(guild_id) >> 22) % count in shards if guild_id.isdigit() else False

        try:
            planned, cancelled = await service_of_bot(self.bot).retention.reconcile(
                {str(g.id) for g in bot.guilds}, ours, int(getattr(bot, "guild_retention_days", 30)))
        except Exception:  # the next start tries again; the purge job checks the server itself too
            log.exception("could not compare the servers with their data")
            return
        if planned or cancelled:
            log.warning("servers left while the bot was down: %s purges planned, %s cancelled", planned, cancelled)


def service_of_bot(bot: commands.Bot) -> Any:
    return bot.service  # type: ignore[attr-defined]


async def purge_job(bot: Any, job: Job) -> None:
    """A server's retention is over. A server the bot is in again (its return was missed while the bot
    was down, so no GUILD_CREATE cancelled the purge) keeps its data."""
    guild_id = str(json.loads(job.payload).get("guild_id", ""))
    if not guild_id.isdigit():
        log.error("purge job %s names no server", job.id)
        return
    if bot.get_guild(int(guild_id)) is not None:
        log.warning("server %s was due for a purge, but the bot is in it: nothing deleted", guild_id)
        return
    counts = await bot.service.retention.purge(guild_id)
    log.info("server %s purged after its retention: %s", guild_id, counts)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ForgetButton)
    await bot.add_cog(PrivacyCog(bot))
