"""/ref: the referee-assistant games (WS&IM, Iron & Oak, Captain's Sea; docs/systems/). Each command
is one call to the referee service (game/service/referee.py): defer first, rules errors answered
privately, the channel reads only what a spectator may (a sealed order shows as sealed)."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import (
    ANNOUNCE_LATER,
    UNEXPECTED,
    actor_of,
    answer,
    channel_key,
    choices,
    defer,
    deliver,
    refusal,
    reply,
    service_of,
)
from bot.limits import fit, fit_lines, newest_lines, thread_name
from game import names
from game.errors import RulesError
from game.service.authority import Actor
from game.service.errors import GameNotFound, SeatTaken, ServiceError
from game.service.posts import Notice
from game.service.referee import RefereeService, RefInfo, RefOutcome, builtin_setups
from game.systems import REFEREE_SYSTEMS, system
from game.systems.sheet import Sheet
from game.systems.table_entry import MAX_ENTRY_BYTES
from render.pooled import render_sheet_async

log = logging.getLogger(__name__)
MAX_SETUP_BYTES = 100_000
MORE = " (see `/ref log`)"


def referee_of(interaction: discord.Interaction) -> RefereeService:
    return service_of(interaction).referee


async def ref_game_here(interaction: discord.Interaction, include_over: bool = False) -> int:
    found = await referee_of(interaction).game_in_channel(str(interaction.guild_id), channel_key(interaction),
                                                          include_over)
    if found is None:
        raise GameNotFound("There is no referee-assistant game in this channel.",
                           "Start one with /game create system: wsim (or iron_and_oak, captains_sea).")
    return found


async def _channel_system(interaction: discord.Interaction) -> str | None:
    try:
        gid = await ref_game_here(interaction, include_over=True)
        return (await referee_of(interaction).info(gid)).system
    except (RulesError, ServiceError):
        return None


# ---------------------------------------------------------------- autocomplete


async def seat_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        info = await referee_of(interaction).info(await ref_game_here(interaction))
    except (RulesError, ServiceError):
        return []
    return choices([n for n, user, _ in info.seats if user is None], current)


async def ship_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        seen = await referee_of(interaction).view(await actor_of(interaction), await ref_game_here(interaction, True))
    except (RulesError, ServiceError):
        return []
    return choices([s.id for s in getattr(seen, "ships", ())], current)


async def table_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    name = getattr(interaction.namespace, "system", None) or await _channel_system(interaction)
    names = [t for key in ([name] if name in REFEREE_SYSTEMS else REFEREE_SYSTEMS) for t in system(key).tables()]
    return choices(sorted(set(names)), current)


async def setup_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    name = getattr(interaction.namespace, "system", None)
    if name not in REFEREE_SYSTEMS:
        return []
    return choices(sorted(builtin_setups(name)), current)


# ---------------------------------------------------------------- what is posted


def info_text(info: RefInfo) -> str:
    seats = ", ".join(f"{names.text(n)}: {'<@' + u + '>' if u else 'free'}" for n, u, _ in info.seats)
    waiting = ", ".join(names.text(w) for w in info.waiting) or "nobody"
    state = f"Game over: {names.prose(info.result)}." if info.result else f"Turn {info.turn}, phase {info.phase or 'not begun'}; " \
                                                            f"waiting for {waiting}."
    return fit(f"⚓ **{names.text(info.name)}** (game #{info.id}, {info.title}). {state}\n"
               f"Seats: {seats}.")


async def publish(interaction: discord.Interaction, outcome: RefOutcome) -> None:
    """The account as a spectator reads it, in the game's channel, through the outbox like every post
    of a game (a failed post is retried, not lost); the players the game now waits for are named (and
    only they are pinged)."""
    users = outcome.info.users_of(outcome.info.waiting)
    lines = [names.prose(line) for line in outcome.public]  # the systems word them around raw names
    if outcome.info.result:
        lines.append(f"🏁 Game over: {names.prose(outcome.info.result)}.")
    elif outcome.info.waiting:
        lines.append("⏳ Waiting for " + ", ".join(
            # a seat of a member who had the bot forget them (former:<n>) has no one to mention
            f"{names.text(n)} (<@{u}>)" if u and u.isdigit() else names.text(n)
            for n, u, _ in outcome.info.seats if n in outcome.info.waiting) + ".")
    if not lines:
        return
    await service_of(interaction).front.post(outcome.game_id, Notice(fit_lines(lines, MORE), tuple(users)))
    await deliver(interaction, outcome.game_id)


Call = Callable[[RefereeService, Actor, int], Awaitable[Any]]


async def send_sheet(interaction: discord.Interaction, sheet: Sheet) -> None:
    """A ship's sheet, privately (a player's own loads are secret from everyone else): the text and
    the image drawn in a worker, the alt text as the attachment's description. Should the drawing
    fail, the text alone still answers."""
    try:
        png, alt = await render_sheet_async(sheet)
    except Exception:
        log.exception("could not draw the sheet of %s", sheet.ship)
        await reply(interaction, sheet.text())
        return
    await reply(interaction, sheet.text(),
                file=discord.File(io.BytesIO(png), filename="ship.png", description=alt))


async def _run(interaction: discord.Interaction, call: Call, include_over: bool = False) -> Any:
    """Defer, find the channel's game, make the one service call; None after a refusal was answered."""
    if not await defer(interaction):
        return None
    try:
        gid = await ref_game_here(interaction, include_over)
        return await call(referee_of(interaction), await actor_of(interaction), gid)
    except (RulesError, ServiceError) as exc:
        await reply(interaction, answer(exc))
    except Exception:
        log.exception("unexpected error in /ref %s", interaction.command.name if interaction.command else "")
        await reply(interaction, UNEXPECTED)
    return None


async def _submit(interaction: discord.Interaction, line: str, secret: bool) -> None:
    async def submit(ref: RefereeService, actor: Actor, gid: int) -> RefOutcome:
        return await ref.submit(actor, gid, line)

    outcome: RefOutcome | None = await _run(interaction, submit)
    if outcome is None:
        return
    posted = True
    try:
        await publish(interaction, outcome)
    except Exception:  # the command stands: the account is in the log
        log.exception("could not post the account of game #%s", outcome.game_id)
        posted = False
    mine = [names.prose(x) for x in outcome.mine if x not in outcome.public]
    head = "🔒 Sealed: only you read it until the reveal." if outcome.sealed else "✅ Done."
    if secret and not outcome.sealed:
        head = "✅ Done (nothing was sealed: this command is not a secret order)."
    if not posted:
        head += " Posting the account failed: see `/ref log`."
    await reply(interaction, fit_lines([head, *mine], MORE))


async def create_game(interaction: discord.Interaction, system_name: str, setup: str,
                      file: discord.Attachment | None, thread: bool) -> None:
    """/game create system: … for a referee-assistant system (the interaction is deferred already)."""
    ref = referee_of(interaction)
    made: discord.Thread | None = None
    try:
        actor = await actor_of(interaction)
        text = None
        if file is not None:
            if file.size > MAX_SETUP_BYTES:
                raise RulesError("That setup file is too large.", f"Keep it under {MAX_SETUP_BYTES // 1000} KB.")
            text = (await file.read()).decode("utf-8", errors="replace")
        name = ref.check_setup(system_name, setup, text)  # before a thread is made for it
        thread_id = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            made = await interaction.channel.create_thread(name=thread_name(f"{system(system_name).title}: {name}"),
                                                           type=discord.ChannelType.public_thread)
            thread_id = str(made.id)
        info = await ref.create_game(actor, channel_key(interaction), system_name, setup, text, thread_id)
    except RulesError as exc:
        if made is not None:
            try:
                await made.delete()  # the thread made for a game that was not created goes again
            except discord.HTTPException:
                log.warning("could not delete thread %s made for a game that was not created", made.id)
        await reply(interaction, refusal(exc))
        return
    except discord.Forbidden:
        await reply(interaction, "❌ I may not create threads here (I need Create Public Threads).")
        return
    told = await deliver(interaction, info.id)  # the announcement, with the dice commitment, for everyone there
    where = f"in <#{info.channel_id}>" if thread_id else "here"
    await reply(interaction, f"✅ **{names.text(info.name)}** (game #{info.id}, {info.title}) is set up"
                             + (f" and announced {where}." if told else f" {where}." + ANNOUNCE_LATER))


async def lookup(interaction: discord.Interaction, table: str, row: str, column: str = "",
                 system_name: str | None = None) -> None:
    """A play-aid table look-up (`/rules table:`): the system named, else the channel's game's."""
    ref = referee_of(interaction)
    try:
        gid = await ref.game_in_channel(str(interaction.guild_id), channel_key(interaction), include_over=True)
        if system_name is None:
            if gid is None:
                gid = await ref_game_here(interaction, include_over=True)  # says there is none
            system_name = (await ref.info(gid)).system
        # the channel's game's referee may have entered cells from the printed copy
        text = await ref.lookup(system_name, table, row, column, gid, str(interaction.guild_id))
    except RulesError as exc:
        await reply(interaction, refusal(exc, " Name the game system with `system:` outside a game's channel."
                                        if isinstance(exc, GameNotFound) else ""))
        return
    await reply(interaction, text)


class RefereeCog(commands.GroupCog, name="ref",
                 description="Referee-assistant games: Wooden Ships & Iron Men, Iron & Oak, Captain's Sea"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Take a seat in this channel's game: a player's or the referee's")
    @app_commands.describe(seat="The seat's name (default: the first free seat)")
    @app_commands.autocomplete(seat=seat_names)
    async def join(self, interaction: discord.Interaction, seat: str | None = None) -> None:
        async def join(ref: RefereeService, actor: Actor, gid: int) -> RefInfo:
            return await ref.join(actor, gid, seat, interaction.user.display_name)

        info: RefInfo | None = await _run(interaction, join)
        if info is not None:
            held = next(n for n, u, _ in info.seats if u == str(interaction.user.id))
            await reply(interaction, f"✅ You hold the seat of {names.text(held)}.\n" + info_text(info))

    @app_commands.command(description="A line of the game's notation (what the system's page lists)")
    @app_commands.describe(line="e.g. `next`, `fire Victory left Redoutable range 2`, `roll 2d6`")
    async def do(self, interaction: discord.Interaction, line: app_commands.Range[str, 1, 500]) -> None:
        await _submit(interaction, line, secret=False)

    @app_commands.command(description="A secret order: only you read it until it is revealed")
    @app_commands.describe(line="e.g. `plot Victory L1R1`, `order Monitor m1 C3`, `maneuver Constitution turn-port`")
    async def order(self, interaction: discord.Interaction, line: app_commands.Range[str, 1, 500]) -> None:
        await _submit(interaction, line, secret=True)

    @app_commands.command(description="The game's log as you may read it")
    @app_commands.describe(last="How many events (default 30)")
    async def log(self, interaction: discord.Interaction, last: app_commands.Range[int, 1, 200] = 30) -> None:
        async def read(ref: RefereeService, actor: Actor, gid: int) -> list[str]:
            return await ref.log(actor, gid, last)

        lines: list[str] | None = await _run(interaction, read, include_over=True)
        if lines is not None:
            await reply(interaction, newest_lines("\n".join(names.prose(line) for line in lines))
                        or "Nothing has happened yet.")

    @app_commands.command(description="A ship's log, as you may read it")
    @app_commands.describe(ship="The ship")
    @app_commands.autocomplete(ship=ship_names)
    async def ship(self, interaction: discord.Interaction, ship: app_commands.Range[str, 1, 100]) -> None:
        async def read(ref: RefereeService, actor: Actor, gid: int) -> Sheet:
            return await ref.ship_sheet(actor, gid, ship)

        sheet: Sheet | None = await _run(interaction, read, include_over=True)
        if sheet is not None:
            await send_sheet(interaction, sheet)

    @app_commands.command(description="The phase, who the game waits for, and the seats")
    async def status(self, interaction: discord.Interaction) -> None:
        async def read(ref: RefereeService, actor: Actor, gid: int) -> RefInfo:
            return await ref.info(gid)

        info: RefInfo | None = await _run(interaction, read, include_over=True)
        if info is not None:
            await reply(interaction, info_text(info))

    @app_commands.command(description="Give a seat to another member: yours, or any as the referee or a GM")
    @app_commands.describe(member="Who holds the seat from now on", seat="Which seat (default: your own)")
    @app_commands.autocomplete(seat=seat_names)
    async def handover(self, interaction: discord.Interaction, member: discord.Member, seat: str | None = None) -> None:
        async def hand_over(ref: RefereeService, actor: Actor, gid: int) -> RefOutcome:
            if member.bot:
                raise SeatTaken("A bot cannot hold a seat.", "Give the seat to a member.")
            return await ref.hand_over(actor, gid, seat, str(member.id), member.display_name)

        outcome: RefOutcome | None = await _run(interaction, hand_over)
        if outcome is not None:
            await publish(interaction, outcome)
            await reply(interaction, "🔁 Handed over.\n" + info_text(outcome.info))

    @app_commands.command(description="The referee takes back the last command (if it rolled and revealed nothing)")
    async def undo(self, interaction: discord.Interaction) -> None:
        async def undo(ref: RefereeService, actor: Actor, gid: int) -> RefOutcome:
            return await ref.undo(actor, gid)

        outcome: RefOutcome | None = await _run(interaction, undo)
        if outcome is not None:
            await publish(interaction, outcome)
            await reply(interaction, "✅ Taken back.")


    @app_commands.command(name="table-entry",
                          description="Enter a whole printed table from a file, or show the tables this server entered")
    @app_commands.describe(file="A table file (docs/systems/README.md); leave out to see what the server entered",
                           system="The game system (default: this channel's game's)",
                           server="Enter it for every new game of this server (GM), not this channel's game")
    async def table_entry(self, interaction: discord.Interaction, file: discord.Attachment | None = None,
                          system: Literal["wsim", "iron_and_oak", "captains_sea"] | None = None,
                          server: bool = False) -> None:
        await enter_table(interaction, file, system, server)


async def enter_table(interaction: discord.Interaction, file: discord.Attachment | None, system_name: str | None,
                      server: bool) -> None:
    """In a game's channel a file enters the table for that game (its referee); with `server:` or outside a
    game, for every new game of the server (a GM). Without a file: what the server has entered."""
    if not await defer(interaction):
        return
    ref = referee_of(interaction)
    try:
        actor = await actor_of(interaction)
        gid = await ref.game_in_channel(actor.guild_id, channel_key(interaction))
        here = (await ref.info(gid)).system if gid is not None else None
        system_name = system_name or here
        if system_name is None:
            raise GameNotFound("There is no referee-assistant game in this channel.", "Name the game system with `system:`.")
        if file is None:
            await reply(interaction, await ref.server_tables(actor.guild_id, system_name))
            return
        if file.size > MAX_ENTRY_BYTES:  # refused before a byte is read
            raise RulesError("That table file is too large.", f"Keep it under {MAX_ENTRY_BYTES // 1000} KB.")
        if not server and here is not None and here != system_name:
            raise RulesError(f"This channel's game is {system(here).title}, not {system(system_name).title}.",
                             "Add `server: True` to enter the table for the server's new games.")
        text = (await file.read()).decode("utf-8", errors="replace")
        if server or gid is None:
            await reply(interaction, "✅ " + await ref.enter_server_table(actor, system_name, text,
                                                                         interaction.user.display_name))
            return
        outcome = await ref.enter_game_table(actor, gid, text)
    except (RulesError, ServiceError) as exc:
        await reply(interaction, answer(exc))
        return
    except Exception:
        log.exception("unexpected error in /ref table-entry")
        await reply(interaction, UNEXPECTED)
        return
    await publish(interaction, outcome)
    await reply(interaction, "✅ Entered for this game.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RefereeCog(bot))
