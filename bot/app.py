"""The Discord client: slash commands only (no privileged intents), the cogs, the dynamic buttons,
one error handler, the scheduler task, and a clean shutdown."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import dms
from bot.actions import UNEXPECTED, fault, refusal
from bot.fair_share import wait_text
from bot.outbox import Courier
from bot.owner import OwnerReports
from bot.permissions import invite_url
from bot.views import DYNAMIC_ITEMS
from game import names
from game.errors import RulesError
from game.service.driver import Driver
from game.service.errors import ServiceError
from game.service.following import DIGEST_JOB
from game.service.frontend import Job
from game.service.game_service import GameService
from game.service.metrics import ERRORS, INTERACTIONS

log = logging.getLogger(__name__)
COGS = ("bot.cogs.game", "bot.cogs.orders", "bot.cogs.board", "bot.cogs.data", "bot.cogs.squadron", "bot.cogs.setup",
        "bot.cogs.mine", "bot.cogs.league", "bot.cogs.standing", "bot.cogs.clock", "bot.cogs.referee",
        "bot.cogs.privacy", "bot.cogs.captain", "bot.cogs.campaign")
RESUME_PAUSE = 0.002  # seconds between games as a start catches up: players' commands come first


def intents() -> discord.Intents:
    """Guilds only: everything arrives as interactions, so no message (or member, or presence) event
    is worth its traffic."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def lease_owner(shard_ids: tuple[int, ...] | None) -> str:
    """The process's identity for its outbox leases: the shards it runs, which a process restarted by
    its service manager runs again and no other live process runs (Discord hands each shard's events
    to one session). A restart frees what it held when it was killed (docs/service.md, "Outbox leases")."""
    if shard_ids is None:
        return "shards:all"
    named = "shards:" + ",".join(map(str, sorted(shard_ids)))
    return named if len(named) <= 64 else "shards#" + hashlib.sha256(named.encode()).hexdigest()[:32]


def tree_digest(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> str:
    """What a sync would send, hashed: equal digests mean Discord already has these commands."""
    payload = sorted((c.to_dict(tree) for c in tree._get_all_commands(guild=guild)), key=lambda c: str(c.get("name")))
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


class QuarterdeckBot(commands.AutoShardedBot):
    def __init__(self, service: GameService, dev_guild_id: str = "", sync_commands: bool = True,
                 run_scheduler: bool = True, shard_count: int | None = None,
                 shard_ids: tuple[int, ...] | None = None, force_sync: bool = False,
                 guild_retention_days: int = 30, docs_url: str = "", web_base_url: str = "") -> None:
        # nothing the bot posts pings anyone unless that message names them (the player to act)
        # without shard ids, discord.py runs every shard the count (or Discord) says
        shards: dict[str, Any] = {"shard_ids": list(shard_ids)} if shard_ids is not None else {}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), shard_count=shard_count,
                         # a longer rate limit is raised, not slept through: the courier retries the post then
                         max_ratelimit_timeout=30.0, **shards)
        service.front.outbox = True  # every command writes what to post, and the courier posts it
        self.service = service
        self.lease_owner = lease_owner(shard_ids)
        self.driver = Driver(service)
        self.courier = Courier(self, service, self.driver)
        dms.keep_in(self, service.front)  # a restart sends the DMs it owes without opening each channel again
        self.dev_guild_id = dev_guild_id
        # with several processes only the one holding shard 0 (or a lone process) syncs the commands
        self.sync_commands = sync_commands and (shard_ids is None or 0 in shard_ids)
        self.force_sync = force_sync
        self.run_scheduler = run_scheduler
        self.guild_retention_days = guild_retention_days  # a server's data outlives the bot there (docs/privacy.md)
        self.docs_url = docs_url  # DOCS_URL: where /help links the guide (empty: no link)
        self.web_base_url = web_base_url  # WEB_BASE_URL: where games' web pages are read (empty: no links)
        self._tasks: list[asyncio.Task[Any]] = []
        self.owner_reports: OwnerReports | None = None  # OWNER_WEBHOOK_URL's, set by run_bot
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        for cog in COGS:
            await self.load_extension(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.application_id is not None:
            log.info("invite link (docs/hosting.md): %s", invite_url(self.application_id))
        freed = await self.service.front.own_leases(self.lease_owner)  # before any post is claimed
        if freed:
            log.info("took back %s posts this process had claimed before it stopped (%s)", freed, self.lease_owner)
        # no game is read here: each is loaded when first needed, so a start costs the same with ten
        # games stored or ten thousand (docs/service.md, "Start-up"); what a crash left owed is caught
        # up by `_resume`, after the bot answers
        if self.sync_commands:
            await self.sync_if_changed()
        if self.run_scheduler:
            handlers = {"reminder": self._remind, "deadline": self._deadline, "pause_end": self._pause_end,
                        "guild_purge": self._purge, DIGEST_JOB: self._digest}
            self._tasks.append(asyncio.create_task(self.service.front.run_jobs(handlers)))
            self._tasks.append(asyncio.create_task(self._resume()))

    async def _resume(self) -> None:
        await self.catch_up()
        await self.courier.run_forever()  # then the courier keeps retrying what fails

    async def catch_up(self) -> None:
        """After a start, in the background (the bot answers meanwhile): what a crash left unposted goes
        out (the outbox's rows), league results a crash kept from being written are recorded, the games
        left waiting for a computer captain or an order go on. Each step is read from its table, never
        from every game stored, and one that fails never skips the next."""
        steps: tuple[tuple[str, Callable[[], Awaitable[object]]], ...] = (
            ("post what a crash left unposted", self.courier.drain_all),
            ("record the league results a crash missed", self.service.leagues.recover_results),
            ("move on the games left waiting", lambda: self.driver.advance_all(self.courier.drain, pause=RESUME_PAUSE)),
        )
        for what, step in steps:
            try:
                await step()
            except Exception:
                log.exception("could not %s after the start", what)

    async def sync_if_changed(self) -> bool:
        """Sync the slash commands only when they differ from what was last synced (Discord rate-limits
        the sync endpoint hard, and a crash loop would hit it every start). A failed sync is logged:
        the commands Discord already has keep working, so the bot starts anyway."""
        if self.dev_guild_id and not self.dev_guild_id.isdigit():  # Settings refuses it; never sync globally instead
            raise ValueError(f"DEV_GUILD_ID {self.dev_guild_id[:40]!r} is not a server's id")
        guild = discord.Object(int(self.dev_guild_id)) if self.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = str(guild.id) if guild is not None else "global"
        digest = tree_digest(self.tree, guild)
        if not self.force_sync and await self.service.front.synced_commands(scope) == digest:
            log.info("slash commands unchanged since the last sync (%s): not syncing", scope)
            return False
        try:
            await self.tree.sync(guild=guild)
        except (discord.HTTPException, app_commands.AppCommandError) as exc:
            log.error("could not sync the slash commands (%s): %s; the bot runs with those Discord has", scope, exc)
            return False
        await self.service.front.remember_synced_commands(scope, digest)
        log.info("slash commands synced (%s)", scope)
        return True

    async def _digest(self, job: Job) -> None:
        """A follower's daily digest (game/service/following.py): its DMs go out through the outbox."""
        data = json.loads(job.payload)
        for game_id in await self.service.following.digest(int(data["follow"]), int(data["hour"]), data.get("since")):
            await self.courier.drain(game_id)

    async def _remind(self, job: Job) -> None:
        from bot.cogs.clock import remind_job

        await remind_job(self, job)  # escalates toward the deadline; a stand-in on a vacation; none when paused

    async def _deadline(self, job: Job) -> None:
        from bot.cogs.clock import deadline_job

        await deadline_job(self, job)  # what the game's clock says: a GM may act, the captain plays, or a pass

    async def _pause_end(self, job: Job) -> None:
        from bot.pause import pause_end_job

        await pause_end_job(self, job)  # the pause's hours are over: the clock runs with the time it had left

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction, counted by type for /metrics (the command tree handles it apart)."""
        INTERACTIONS.labels(interaction.type.name).inc()

    async def on_guild_join(self, guild: discord.Guild) -> None:
        log.info("joined server %s (%s)", guild.id, guild.name)
        if self.owner_reports is not None:
            self.owner_reports.say(f"➕ Joined {names.text(guild.name)} ({guild.id}), "
                                   f"{guild.member_count or '?'} members; now in {len(self.guilds)} servers.")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        log.info("left server %s (%s)", guild.id, guild.name)
        if self.owner_reports is not None:
            self.owner_reports.say(f"➖ Left {names.text(guild.name)} ({guild.id}); "
                                   f"now in {len(self.guilds)} servers.")

    async def _purge(self, job: Job) -> None:
        from bot.cogs.privacy import purge_job

        await purge_job(self, job)  # a server left GUILD_RETENTION_DAYS ago, unless the bot is back

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        ERRORS.labels("refused" if isinstance(original, RulesError) or isinstance(error, app_commands.CheckFailure)
                      else "fault" if isinstance(original, ServiceError) else "unexpected").inc()
        if isinstance(original, RulesError):
            text = refusal(original)
        elif isinstance(original, ServiceError):  # whichever command met it: no cog need catch a fault
            log.warning("service fault in a command: %s", original)
            text = fault(original)
        elif isinstance(error, app_commands.CommandOnCooldown):  # a check failure too: the wait is said
            text = wait_text(error, interaction)
        elif isinstance(error, app_commands.CheckFailure):
            text = "❌ You may not use that command here."
        elif isinstance(original, discord.Forbidden):
            log.warning("missing permission: %s", original)
            text = "❌ I lack a permission in this channel (View Channel, Send Messages, Attach Files)."
        elif isinstance(original, discord.NotFound):
            log.warning("interaction expired: %s", original)
            return
        else:
            log.exception("unexpected error in a command", exc_info=original)
            text = UNEXPECTED
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report an error to the user")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await super().close()
