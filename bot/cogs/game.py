"""/game: create, join, start, status, list, concede, undo, GM role."""

from __future__ import annotations

import io
import json
import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import (
    ANNOUNCE_LATER,
    act,
    actor_of,
    after_command,
    channel_key,
    choices,
    defer,
    deliver,
    game_here,
    post_here,
    refusal,
    reply,
    service_of,
)
from bot.cogs.referee import create_game as create_referee_game
from bot.cogs.referee import setup_names
from bot.cogs.squadron import saved_names
from bot.fair_share import REPLAY, VERIFY, fair_share, refund
from bot.follow import UnfollowButton, follow_command, unfollow_command
from bot.limits import DEFAULT_UPLOAD, MAX_REQUEST, file_batches, fit, fit_lines, thread_name
from bot.pause import ask_pause, resume_pause
from bot.publish import page_line, page_link
from game import names
from game.errors import RulesError
from game.scenario import builtin_scenarios
from game.service.game_service import DRAFTED, Actor, GameService

MAX_SCENARIO_BYTES = 200_000
NOT_POSTED = ("❌ I could not post it in this channel (I need View Channel, Send Messages and Attach Files; in a "
              "thread, Send Messages in Threads).")
GAMES_PER_PAGE = 8  # each line is cut to 230 characters, so a page always fits one message
SEAT_NAME_IN_LIST = 24  # four of Discord's 32-character names and the game still fit one line

log = logging.getLogger(__name__)


async def scenario_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    if getattr(interaction.namespace, "system", None) not in (None, "oak_and_iron"):
        return await setup_names(interaction, current)
    names = [DRAFTED, *sorted(builtin_scenarios())]
    return choices(names, current)


class TextChannelChoice(app_commands.Transformer):
    """A text or announcement channel (where a thread opens on a message), as the interaction resolved
    it: the raw channel needs no cache to be named, and Discord offers only those two kinds."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        return value


class GameCog(commands.GroupCog, name="game", description="Create, join and manage Oak & Iron games"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Start a game in this channel (or in a new thread)")
    @app_commands.describe(scenario="A built-in scenario (default: the quick start), or `drafted` for the full "
                                    "set-up with your saved squadrons",
                           file="Your own scenario file (TOML)", thread="Open a thread for the game",
                           size="Drafted games: the game size (default Skirmish)",
                           system="Oak & Iron, or a referee-assistant system (its setup: `scenario` or `file`)")
    @app_commands.autocomplete(scenario=scenario_names)
    async def create(self, interaction: discord.Interaction, scenario: str = "quickstart",
                     file: discord.Attachment | None = None, thread: bool = False,
                     size: Literal["patrol", "skirmish", "engagement"] = "skirmish",
                     system: Literal["oak_and_iron", "wsim", "iron_and_oak", "captains_sea"] = "oak_and_iron") -> None:
        if not await defer(interaction):
            return
        if system != "oak_and_iron":
            await create_referee_game(interaction, system, "" if scenario == "quickstart" else scenario, file, thread)
            return
        service = service_of(interaction)
        made: discord.Thread | None = None
        tutorial = False
        try:
            actor = await actor_of(interaction)
            text = None
            if file is not None:
                if file.size > MAX_SCENARIO_BYTES:
                    raise RulesError("That scenario file is too large.", f"Keep it under {MAX_SCENARIO_BYTES // 1000} KB.")
                text = (await file.read()).decode("utf-8", errors="replace")
            # the scenario is checked before anything is made for the game: a typo leaves no empty thread
            checked = await service.lobby.check_scenario(actor, scenario, text, size)
            name = checked.name
            tutorial = checked.tutorial
            thread = thread or tutorial  # a tutorial's hints and boards get a thread of their own
            channel_id = channel_key(interaction)
            thread_id = None
            if thread and isinstance(interaction.channel, discord.TextChannel):
                made = await interaction.channel.create_thread(name=thread_name(f"Oak & Iron: {name}"),
                                                               type=discord.ChannelType.public_thread)
                thread_id = str(made.id)
            info = await service.lobby.create_game(actor, channel_id, scenario=scenario, scenario_text=text,
                                                   thread_id=thread_id, size=size,
                                                   display_name=interaction.user.display_name)
        except RulesError as exc:
            hint = "" if thread else " You can start it in its own thread with `thread: True`."
            await self._unmake(made)
            await reply(interaction, refusal(exc, hint if exc.code == "channel-busy" else ""))
            return
        except UnicodeDecodeError:
            await reply(interaction, "❌ The scenario file must be UTF-8 text (TOML).")
            return
        except discord.Forbidden:
            instead = ("The tutorial always gets a thread: start it inside an existing thread, where it plays there"
                       if tutorial else "Start the game without `thread`")
            await reply(interaction, f"❌ I may not create threads here (I need Create Public Threads). {instead}, or "
                                     "ask a moderator for the permission.")
            return
        except Exception:
            await self._unmake(made)  # then the error handler apologises
            raise
        # the announcement, with the dice commitment, for everyone there
        told = await deliver(interaction, info.id)
        where = f"in <#{info.channel_id}>" if thread_id else "here"
        if tutorial:
            await after_command(interaction, info.id, None)  # every side is taken: the board and the first pick
            await reply(interaction, f"✅ **{names.text(info.name)}** (game #{info.id}) is set up {where}: you are "
                                     "player A against the computer captain. Each step of the first turn comes "
                                     "with a hint under the board." + ("" if told else ANNOUNCE_LATER))
            return
        await reply(interaction, f"✅ **{names.text(info.name)}** (game #{info.id}) is set up"
                                 + (f" and announced {where}." if told else f" {where}." + ANNOUNCE_LATER))

    @staticmethod
    async def _unmake(thread: discord.Thread | None) -> None:
        """The thread made for a game that could not be created after all goes again."""
        if thread is None:
            return
        try:
            await thread.delete()
        except discord.HTTPException:
            log.warning("could not delete thread %s made for a game that was not created", thread.id)

    @app_commands.command(description="Take a side, or give it to the computer captain")
    @app_commands.describe(side="A or B (default: the first free side)", ai="Seat the computer captain instead",
                           squadron="Drafted games: the saved squadron you bring")
    @app_commands.autocomplete(squadron=saved_names)
    async def join(self, interaction: discord.Interaction, side: str | None = None, ai: bool = False,
                   squadron: str | None = None) -> None:
        if not await defer(interaction):
            return
        service = service_of(interaction)
        try:
            gid = await game_here(interaction)
            info = await service.lobby.join(await actor_of(interaction), gid, side.upper() if side else None,
                                      interaction.user.display_name, ai=ai, squadron=squadron)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        seated = ", ".join(f"{s.player}: {names.text(s.name)}" for s in info.seats
                           if s.name and not s.name.startswith("Player "))
        if not any(s.free for s in info.seats):
            await after_command(interaction, gid, None)  # both sides taken: the board and the first pick
            first = "the set-up begins" if info.phase == "preparation" else "choose your initiative card"
            await reply(interaction, f"✅ Seated ({seated}). The game begins: {first}.")
        else:
            await reply(interaction, f"✅ Seated ({seated}). The game begins when every side is taken.")

    @app_commands.command(description="Post the board and what the game waits for")
    async def status(self, interaction: discord.Interaction) -> None:
        async def nothing(service: GameService, actor: Actor, gid: int) -> None:
            await service.reading.view(actor, gid)
            return None

        async def posted(gid: int) -> str:  # the web page's link too, when WEB_BASE_URL is set
            line = page_line(await page_link(self.bot, service_of(interaction), gid))
            return "\n".join(x for x in ("📋 Posted.", line) if x)

        await act(interaction, nothing, done=posted)

    @app_commands.command(description="Begin (or resume) the game here: the board and the first initiative pick")
    async def start(self, interaction: discord.Interaction) -> None:
        async def begin(service: GameService, actor: Actor, gid: int) -> None:
            info = await service.lobby.info(gid)
            free = [s.player for s in info.seats if s.free]
            if free:
                raise RulesError(f"Side {', '.join(free)} has no player yet.",
                                 "Take it with /game join, or give it to the computer captain with ai: True.")
            return None

        await act(interaction, begin, done="⚓ Under way.")

    @app_commands.command(name="list", description="Games in this server, unfinished ones first")
    @app_commands.describe(page=f"Which page ({GAMES_PER_PAGE} games a page)")
    async def list_games(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100_000] = 1) -> None:
        if not await defer(interaction):
            return
        games, total = await service_of(interaction).lobby.games_page(str(interaction.guild_id), page, GAMES_PER_PAGE)
        if not games:
            await reply(interaction, "No games yet. Start one with /game create." if not total else
                        f"There is no page {page}: the server has {total} games, {GAMES_PER_PAGE} a page.")
            return
        lines = [f"#{g.id} **{names.text(g.name)}** in <#{g.channel_id}> — {g.status}, turn "
                 f"{g.turn} {g.phase}; " + ", ".join(
                     f"{s.player}: {names.text(fit(s.name, SEAT_NAME_IN_LIST)) if not s.free else 'free'}"
                     for s in g.seats) for g in games]
        shown = (page - 1) * GAMES_PER_PAGE + len(games)
        await reply(interaction, fit_lines(lines, f" (next page: `/game list page:{page + 1}`)", line_limit=230,
                                           beyond=max(0, total - shown)))

    @app_commands.command(description="Concede the game in this channel (a GM may end it for a side)")
    @app_commands.describe(side="The side that concedes (a GM's choice; a player concedes their own side)")
    async def concede(self, interaction: discord.Interaction, side: str | None = None) -> None:
        async def concede(service: GameService, actor: Actor, gid: int) -> Any:
            return await service.commands.concede(actor, gid, side.upper() if side else None,
                                         request_id=f"concede:{interaction.id}")

        await act(interaction, concede, done="🏳️ Conceded.")

    @app_commands.command(description="Hand your side to another member, or to the computer captain")
    @app_commands.describe(member="Who plays your side from now on (leave empty with ai: True)",
                           ai="Give the side to the computer captain", side="Which side (a GM may hand over any)",
                           override="GMs: take the seat of a player still within their deadline (logged, and "
                                    "shown when the game ends)")
    async def handover(self, interaction: discord.Interaction, member: discord.Member | None = None,
                       ai: bool = False, side: str | None = None, override: bool = False) -> None:
        if not await defer(interaction):  # a follow-up, even a refusal, needs the interaction acknowledged
            return
        if member is not None and ai:
            await reply(interaction, "❌ Hand the side to a member or to the computer captain, not both.")
            return
        if member is None and not ai:
            await reply(interaction, "❌ Say who takes the side: `member:` someone, or `ai: True`.")
            return
        if member is not None and member.bot:
            await reply(interaction, "❌ A bot cannot take a seat: use `ai: True` for the computer captain.")
            return

        async def hand_over(service: GameService, actor: Actor, gid: int) -> Any:
            return await service.seats.hand_over(actor, gid, str(member.id) if member else None,
                                           member.display_name if member else "", side.upper()[:10] if side else None,
                                           request_id=f"handover:{interaction.id}", override=override)

        await act(interaction, hand_over, done="🔁 Handed over.")

    @app_commands.command(description="Get this channel's game (or a member's games here) by DM, or a daily digest")
    @app_commands.describe(member="Follow this member's games played in this channel instead of this channel's game",
                           digest_hour="One digest a day at this hour of yours (0-23; /clock hours sets your zone)")
    async def follow(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     digest_hour: app_commands.Range[int, 0, 23] | None = None) -> None:
        await follow_command(interaction, member, digest_hour)

    @app_commands.command(description="Stop the DMs of the follows you made in this channel")
    async def unfollow(self, interaction: discord.Interaction) -> None:
        await unfollow_command(interaction)

    @app_commands.command(description="Who has played each side, turn by turn")
    async def seats(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):
            return
        service = service_of(interaction)
        try:
            gid = await game_here(interaction, include_over=True)
            history = await service.reading.seat_history(gid)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        lines = [f"Side {side}: {names.text(name[:60])} from {'the start' if turn == 0 else f'turn {turn}'}"
                 for side, turn, name in history[:40]]
        if len(history) > 40:
            lines.append(f"… and {len(history) - 40} more changes.")
        await reply(interaction, f"🪑 Game #{gid}, who played each side:\n" + "\n".join(lines))

    @app_commands.command(description="Take back the last activation (your opponent consents, or a GM does it)")
    async def undo(self, interaction: discord.Interaction) -> None:
        async def undo(service: GameService, actor: Actor, gid: int) -> Any:
            return await service.undo.request(actor, gid, request_id=f"undo:{interaction.id}")

        await act(interaction, undo, done="↩️ Asked (or undone, if you are a GM).")

    @app_commands.command(description="Ask to pause this game's clock (every other player agrees; a GM pauses alone)")
    @app_commands.describe(hours="How long (1-720 hours); leave out to pause until someone resumes",
                           reason="Why, for the log (e.g. a holiday)")
    async def pause(self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 720] | None = None,
                    reason: app_commands.Range[str, 0, 200] = "") -> None:
        await ask_pause(interaction, hours, reason)

    @app_commands.command(description="Start this game's paused clock again, with the time each side had left")
    async def resume(self, interaction: discord.Interaction) -> None:
        await resume_pause(interaction)

    @app_commands.command(name="approve-undo", description="Consent to your opponent's undo")
    async def approve_undo(self, interaction: discord.Interaction) -> None:
        async def approve(service: GameService, actor: Actor, gid: int) -> Any:
            return await service.undo.approve(actor, gid, request_id=f"approve:{interaction.id}")

        await act(interaction, approve, done="↩️ Undone.")

    @app_commands.command(name="gm-role", description="The role whose members may act for absent players, undo and end games")
    @app_commands.describe(role="The server's GM role")
    @app_commands.default_permissions(manage_guild=True)
    async def gm_role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        async def set_role(service: GameService, actor: Actor, gid: int) -> None:
            await service.data.set_gm_role(actor, str(role.id))

        await act(interaction, set_role, done=f"GM role set to {role.mention}.", publish_result=False, game_id=0)

    @app_commands.command(description="Where finished games' summary cards also go, each with a thread for reports")
    @app_commands.describe(channel="The chronicle channel (leave it out to stop chronicling elsewhere)")
    @app_commands.default_permissions(manage_guild=True)
    async def chronicle(self, interaction: discord.Interaction,
                        channel: app_commands.Transform[app_commands.AppCommandChannel, TextChannelChoice] | None = None,
                        ) -> None:
        async def set_channel(service: GameService, actor: Actor, gid: int) -> None:
            await service.chronicle.set_channel(actor, str(channel.id) if channel is not None else None)

        done = (f"📜 Finished games' cards also go to {channel.mention}, each with a thread for after-action reports."
                if channel is not None else "📜 Finished games' cards now go only to their own channels.")
        await act(interaction, set_channel, done=done, publish_result=False, game_id=0)

    @app_commands.command(name="web-pages", description="List this server's games on its web index page, or not")
    @app_commands.describe(listed="True: anyone may find the games on the server's index; False: by their links only")
    @app_commands.default_permissions(manage_guild=True)
    async def web_pages(self, interaction: discord.Interaction, listed: bool) -> None:
        async def set_listed(service: GameService, actor: Actor, gid: int) -> None:
            await service.web.set_listed(actor, listed)

        base = getattr(self.bot, "web_base_url", "")
        where = f" at <{base}s/{interaction.guild_id}/>" if base and listed else ""
        done = (f"🌐 This server's games are listed on its web index{where}." if listed else
                "🌐 This server's games are unlisted: each game's page is found only through its link.")
        await act(interaction, set_listed, done=done, publish_result=False, game_id=0)

    @app_commands.command(description="Recompute every roll of this channel's finished game from its revealed seed")
    @fair_share(*VERIFY)
    async def verify(self, interaction: discord.Interaction) -> None:
        if not await defer(interaction):  # a refusal is private; the verification is posted for everyone
            return
        service = service_of(interaction)
        try:
            gid = await game_here(interaction, include_over=True)
            check = await service.audit.verify(await actor_of(interaction), gid)
            log_file = await service.audit.export_log(await actor_of(interaction), gid)
        except RulesError as exc:
            refund(interaction)
            await reply(interaction, refusal(exc))
            return
        note = " This was a test game with fixed dice, so its fixed faces do not match the seed." if check.test_dice else ""
        text = (f"{check.verification.summary()}{note}\nSeed `{check.seed}`; its SHA-256 `{check.commitment}` should "
                "match the one posted when the game began. The attached log lets anyone check it again with "
                "`quarterdeck verify --file`.")
        data = json.dumps(log_file, ensure_ascii=False).encode()
        posted = await post_here(interaction, text, file=discord.File(io.BytesIO(data), filename=f"game-{gid}-log.json"))
        await reply(interaction, "🎲 Posted here for everyone." if posted else NOT_POSTED)

    @app_commands.command(description="The whole game as an animated board, one frame per command (and its log once over)")
    @app_commands.describe(format="webp (the default: smaller, sharper) or gif (for viewers that play no WebP)")
    @fair_share(*REPLAY)
    async def replay(self, interaction: discord.Interaction, format: Literal["webp", "gif"] = "webp") -> None:
        if not await defer(interaction):  # a refusal is private; the replay is posted for everyone
            return
        service = service_of(interaction)
        try:
            gid = await game_here(interaction, include_over=True)
            if gid in _replaying:
                raise RulesError("This game's replay is being drawn already.", "It appears here in a moment.")
            shown, rules, log_file = await service.audit.replay(await actor_of(interaction), gid)
            if not shown:
                raise RulesError("Nothing has happened in this game yet.", "Replay it after the first moves.")
            _replaying.add(gid)
            try:
                # the replay is posted by the bot in the channel: the server's limit, not the member's
                # (with Nitro), and never beyond what one request may carry; a few MB under it leaves
                # room for the log file and the request itself
                server = interaction.guild.filesize_limit if interaction.guild is not None else DEFAULT_UPLOAD
                limit = max(1_000_000, min(server, MAX_REQUEST) - 1_500_000)
                from render.pooled import replay_files_async  # draws in a worker process

                gifs = await replay_files_async(shown, limit, rules, format)
            finally:
                _replaying.discard(gid)
        except RulesError as exc:  # refused before anything was drawn
            refund(interaction)
            await reply(interaction, refusal(exc))
            return
        part = f" (part {{}} of {len(gifs)})" if len(gifs) > 1 else "{}"
        alt = (f"An animated replay of game #{gid}{part}: the board after each of its {len(shown)} moments, "
               "every move and shot drawn in turn; /game log gives the same account in words.")
        files = [discord.File(io.BytesIO(g), filename=f"game-{gid}-replay{f'-{i}' if len(gifs) > 1 else ''}.{format}",
                              description=alt.format(i) if len(gifs) > 1 else alt.format(""))
                 for i, g in enumerate(gifs, 1)]
        parts = f" in {len(gifs)} parts" if len(gifs) > 1 else ""
        text = f"🎞️ Game #{gid}: {len(shown)} moments{parts}."
        if log_file is not None:
            text += " The log plays back with `quarterdeck replay FILE` (boards into a folder) and checks with `quarterdeck verify --file`."
        else:
            text += " The log file comes with the replay once the game is over."
        bodies = list(gifs)
        if log_file is not None:
            bodies.append(json.dumps(log_file, ensure_ascii=False).encode())
            files.append(discord.File(io.BytesIO(bodies[-1]), filename=f"game-{gid}-log.json"))
        for i, batch in enumerate(file_batches([len(b) for b in bodies])):
            if not await post_here(interaction, text if i == 0 else f"🎞️ Game #{gid}, continued.",
                                   files=[files[n] for n in batch]):
                await reply(interaction, NOT_POSTED)
                return
        await reply(interaction, "🎞️ Posted here for everyone.")


_replaying: set[int] = set()  # games whose replay is being drawn: one at a time each


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(UnfollowButton)
    await bot.add_cog(GameCog(bot))

