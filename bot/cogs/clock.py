"""/clock: a game's reminders and deadline and what the deadline does (a GM's), pause, resume and
extend; and each member's own hours, weekday windows and vacations. Every change of a game's clock
is in the game's log and posted."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, choices, defer, deliver, game_here, refusal, reply, service_of
from bot.limits import fit
from bot.markup import chat
from game.account import account
from game.errors import RulesError
from game.service.availability import EXAMPLE
from game.service.clock import time_zones
from game.service.frontend import Job
from game.service.game_service import Outcome
from game.service.posts import Notice

log = logging.getLogger(__name__)


async def time_zone_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Every zone name the system knows, "paris" finding Europe/Paris: free text of ~600 names is
    typed wrong more often than right."""
    return choices(list(time_zones()), current)


class ClockCog(commands.GroupCog, name="clock", description="A game's deadlines; your own hours and vacations"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="GM: this game's reminder and deadline, and what the deadline does")
    @app_commands.describe(reminder_hours="First reminder after this many hours", deadline_hours="Deadline after",
                           on_deadline="gm: a GM may act; captain: the computer plays the late activation; "
                                       "pass: it is passed",
                           skip_quiet="Deadlines wait out the late player's quiet hours")
    async def settings(self, interaction: discord.Interaction,
                       reminder_hours: app_commands.Range[int, 1, 720] | None = None,
                       deadline_hours: app_commands.Range[int, 1, 720] | None = None,
                       on_deadline: Literal["gm", "captain", "pass"] | None = None,
                       skip_quiet: bool | None = None) -> None:
        await self._logged(interaction, lambda a, g: self._svc(interaction).clock.settings(
            a, g, reminder_hours, deadline_hours, on_deadline, skip_quiet))

    @app_commands.command(description="GM: stop this game's clock (no reminders, no deadlines)")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._logged(interaction, lambda a, g: self._svc(interaction).clock.pause(a, g, True))

    @app_commands.command(description="GM: start this game's clock again")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._logged(interaction, lambda a, g: self._svc(interaction).clock.pause(a, g, False))

    @app_commands.command(description="GM: push this game's deadline back")
    @app_commands.describe(hours="How many hours later")
    async def extend(self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 720]) -> None:
        await self._logged(interaction, lambda a, g: self._svc(interaction).clock.extend(a, g, hours))

    @app_commands.command(description="Your time zone and quiet hours (no pings then), for all your games")
    @app_commands.describe(time_zone="e.g. Europe/Paris", quiet_from="Local hour quiet hours begin (0-23)",
                           quiet_to="Local hour they end (0-23)")
    @app_commands.autocomplete(time_zone=time_zone_names)
    async def hours(self, interaction: discord.Interaction, time_zone: str | None = None,
                    quiet_from: app_commands.Range[int, 0, 23] | None = None,
                    quiet_to: app_commands.Range[int, 0, 23] | None = None) -> None:
        if not await defer(interaction):
            return
        try:
            text = await self._svc(interaction).clock.set_hours(await actor_of(interaction), time_zone, quiet_from, quiet_to)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await reply(interaction, f"🕰️ Your hours: {text}.")

    @app_commands.command(description="The days and hours you can play, in your time zone (time outside them "
                                      "does not count)")
    @app_commands.describe(days="e.g. Mon-Fri 18:00-23:00, Sat-Sun 10:00-22:00; `clear` removes them; "
                                "leave out to see yours")
    async def days(self, interaction: discord.Interaction, days: app_commands.Range[str, 0, 400] | None = None) -> None:
        if not await defer(interaction):
            return
        try:
            text = await self._svc(interaction).clock.set_windows(await actor_of(interaction), days)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        if not text:
            await reply(interaction, "🗓️ You have no weekday windows: any time of day counts against your deadlines "
                                     "(but your quiet hours, if you set them with /clock hours). Set some like: "
                                     f"`/clock days days: {EXAMPLE}`.")
            return
        await reply(interaction, f"🗓️ Your windows (in your time zone): {text}. Time outside them does not count "
                                 "against your deadlines, and nobody pings you then.")

    @app_commands.command(description="A vacation: your games' clocks stop, or a substitute or the computer plays")
    @app_commands.describe(days="How long you are away (0: you are back)", mode="stop the clock; ping a substitute; "
                           "let the computer captain play", substitute="Who stands in (mode substitute)")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 90],
                   mode: Literal["stop", "substitute", "captain"] = "stop",
                   substitute: discord.User | None = None) -> None:
        if not await defer(interaction):
            return
        until = datetime.now(UTC) + timedelta(days=days) if days else None
        try:
            games = await self._svc(interaction).clock.set_away(await actor_of(interaction), until, mode,
                                                          str(substitute.id) if substitute else None)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        where = ", ".join(f"#{g}" for g in games) or "none"
        await reply(interaction, f"🏖️ {'Away until <t:' + str(int(until.timestamp())) + ':f>' if until else 'Welcome back'}"
                                 f" (written in the log of your games: {where}).")

    @staticmethod
    def _svc(interaction: discord.Interaction) -> Any:
        return service_of(interaction)

    async def _logged(self, interaction: discord.Interaction, change: Any) -> None:
        if not await defer(interaction):
            return
        try:
            gid = await game_here(interaction)
            actor = await actor_of(interaction)
            outcome: Outcome = await change(actor, gid)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await deliver(interaction, gid)  # the change is in the game's log, and posted with it for everyone
        text = "\n".join(chat(account(e)) for e in outcome.events if account(e))
        await reply(interaction, fit(text or "⏱️ Done."))


async def deadline_job(bot: Any, job: Job) -> None:
    """A deadline fell due: the service does what the game's clock says, if the game still waits on the
    decision the deadline was planned for; the channel is told and the late player pinged (through the
    outbox, with whatever boards were played), then play carries on."""
    if job.game_id is None:
        return
    service = bot.service
    done = await service.clock.due_deadline(job)
    if done is None:
        return
    user = done.late  # the decision's holder: the seat's member while the game waited on them
    mention = f", <@{user}>" if user.isdigit() else ""
    await service.front.post(job.game_id, Notice(f"{done.text}{mention} (game #{job.game_id}).",
                                                 (user,) if mention else ()))
    await bot.courier.drain(job.game_id)
    await bot.driver.advance(job.game_id, bot.courier.drain)


async def remind_job(bot: Any, job: Job) -> None:
    """A reminder fell due: the service says whom it pings (the side's holder, or the substitute standing
    in while they are away), or nobody when the game no longer waits on the decision it was planned
    for or its clock is paused."""
    if job.game_id is None:
        return
    due = await bot.service.clock.due_reminder(job)
    if due is None:
        return
    if due.stand_in:
        text = (f"{due.text}, <@{due.user}>: you stand in for player {job.player} while their player is away "
                f"(game #{job.game_id}).")
    else:
        text = f"{due.text}, <@{due.user}> (game #{job.game_id})."
    await bot.service.front.post(job.game_id, Notice(text, (due.user,)))
    await bot.courier.drain(job.game_id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ClockCog(bot))
