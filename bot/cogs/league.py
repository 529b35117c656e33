"""/league: create, join, start, round, result, forfeit, drop, standings, show.

Each round's pairings are posted in the league's channel, every game in its own thread; games
between computer captains are played out at once, and every result is recorded by the service as
its game ends. Everything a league decides lives in the database (game/service/leagues.py)."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, choices, defer, post_here, refusal, reply, service_of
from bot.cogs.game import MAX_SCENARIO_BYTES, scenario_names
from bot.cogs.squadron import saved_names
from bot.limits import MAX_CHOICE_NAME, MAX_CHOICES, fit, fit_lines, thread_name
from bot.markup import member_id
from game import names
from game.errors import RulesError
from game.fuzzy import ranked_at
from game.service.errors import ServiceError
from game.service.game_service import Actor, GameService
from game.service.leagues import MAX_ROUND_HOURS, LeagueInfo, Pairing, RoundReport, Table

log = logging.getLogger(__name__)

PER_PAGE = 20  # entrants or standings lines a page: each is short, so a page always fits one message
NAME_IN_LINE = 32  # a Discord display name is at most 32 characters; a computer captain's is shorter
AI_MOVES = 5000  # a whole game between computer captains, with room to spare


def _esc(text: str, limit: int = NAME_IN_LINE) -> str:
    return names.text(fit(text, limit))


async def league_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return choices(await service_of(interaction).leagues.names(str(interaction.guild_id)), current)


async def entrant_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The league's entrants still in it, by name; the value is the member (names may repeat)."""
    try:
        info = await service_of(interaction).leagues.show(str(interaction.guild_id), str(interaction.namespace.name))
    except (RulesError, ServiceError):
        return []
    still = [e for e in info.entrants if not e.dropped]
    return [app_commands.Choice(name=fit(still[i].name, MAX_CHOICE_NAME), value=still[i].member)
            for i in ranked_at(current, [e.name for e in still])[:MAX_CHOICES]]


async def tell(client: discord.Client, member: str, text: str) -> None:
    """A line for one entrant alone, by DM (a closed DM loses it: the standings still show it)."""
    if not member.isdigit():
        return
    try:
        user = client.get_user(int(member)) or await client.fetch_user(int(member))
        await user.send(fit(text), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.info("could not DM entrant %s about their league", member)


def _who(member: str | None, name: str) -> str:
    """A mention for a member (pinged only where the message allows it), a plain name otherwise."""
    return f"<@{member}>" if member and member.isdigit() else f"**{_esc(name)}**"


def _result(p: Pairing) -> str:
    if p.b is None:
        return (f"{_who(p.a, p.a_name)} forfeits the bye ({names.prose(fit(p.reason, 80))})" if p.forfeited
                else f"{_who(p.a, p.a_name)} has a bye (a win)")
    head = f"T{p.table}: {_who(p.a, p.a_name)} v {_who(p.b, p.b_name)}"
    if p.status != "done":
        return head + (f" → <#{p.thread_id}>" if p.thread_id else f" (game #{p.game_id})" if p.game_id else "")
    won = ("both forfeit" if p.forfeited == "AB" else "a draw" if p.winner is None
           else f"{_esc(p.a_name if p.winner == p.a else p.b_name)} won")
    return f"{head}: {won}, Strike Points {p.a_points}–{p.b_points} ({names.prose(fit(p.reason, 80))})"


def _round_text(info: LeagueInfo, pairings: Sequence[Pairing]) -> str:
    due = f", decided <t:{int(info.deadline.timestamp())}:R>" if info.deadline else ""
    head = f"📋 **{_esc(info.name, 64)}**: round {info.current_round} of {info.rounds}{due}"
    return fit_lines([head, *(_result(p) for p in pairings)], " (see `/league show`)")


def _standing_lines(table: Table) -> list[str]:
    return [f"{r.rank}. {_esc(r.name)}{' (dropped)' if r.dropped else ''}: {r.wins:g} of {r.played} won"
            f"{f' ({r.forfeits} forfeited)' if r.forfeits else ''}, Strike Point margin {r.margin:+d}, "
            f"opponents' wins {r.opponents_wins:g}, rating {r.rating:.1f}" for r in table.rows]


def _image(table: Table) -> discord.File:
    from render.standings import standings_png  # drawing stays out of the bot's start-up

    info = table.league
    when = "Final standings" if table.final else f"Standings after round {info.current_round} of {info.rounds}"
    rows = list(table.rows)
    fmt = "Swiss" if info.format == "swiss" else "round robin"
    png = standings_png(info.name, f"{when} ({fmt})", rows)
    # the same facts in words for a screen reader, as raw text (a description is not markdown)
    alt = f"{info.name}: {when} ({fmt}). " + " ".join(
        f"{r.rank}. {r.name}{' (dropped)' if r.dropped else ''}: {r.wins:g} of {r.played} won, margin {r.margin:+d}."
        for r in rows)
    return discord.File(io.BytesIO(png), filename="standings.png", description=alt[:1023] + ("…" if len(alt) > 1023 else ""))


MAX_PINGS = 100  # Discord refuses a message allowing more users than this


def _mentions(text: str, pairings: Sequence[Pairing]) -> discord.AllowedMentions:
    """Ping the members of unfinished pairings whom the text names (a long round's text is cut short:
    the members of the tables cut off are not pinged for lines they cannot see), at most 100."""
    users = sorted({m for p in pairings if p.status != "done" for m in (p.a, p.b)
                    if m and m.isdigit() and f"<@{m}>" in text})[:MAX_PINGS]
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in users]) if users else \
        discord.AllowedMentions.none()


class LeagueCog(commands.GroupCog, name="league", description="Leagues and tournaments of ranked games"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Create a league (GM): its game, its format and how long a round lasts")
    @app_commands.describe(name="The league's name", scenario="A built-in scenario, or `drafted` (players bring "
                           "their saved squadrons)", file="Your own two-sided scenario file (TOML)",
                           size="Drafted leagues: the game size", format="Swiss rounds or a round robin",
                           round_hours="How long each round lasts, in hours")
    @app_commands.autocomplete(scenario=scenario_names)
    async def create(self, interaction: discord.Interaction, name: str, scenario: str = "quickstart",
                     file: discord.Attachment | None = None,
                     size: Literal["patrol", "skirmish", "engagement"] = "skirmish",
                     format: Literal["swiss", "round_robin"] = "swiss",
                     round_hours: app_commands.Range[int, 1, MAX_ROUND_HOURS] = 72) -> None:
        if not await defer(interaction):
            return
        try:
            text = None
            if file is not None:
                if file.size > MAX_SCENARIO_BYTES:
                    raise RulesError("That scenario file is too large.", f"Keep it under {MAX_SCENARIO_BYTES // 1000} KB.")
                text = (await file.read()).decode("utf-8", errors="replace")
            info = await service_of(interaction).leagues.create(
                await actor_of(interaction), str(interaction.channel_id), name, scenario, text, size, format, round_hours)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        what = f"drafted {info.size} games" if info.size else f"{_esc(info.scenario, 64)} games"
        posted = await post_here(
            interaction, f"🏆 **{_esc(info.name, 64)}** is open for registration: {what}, "
            f"{'Swiss rounds' if info.format == 'swiss' else 'a round robin'}, {info.round_hours} hours a round. "
            "Register with " + names.code(f"/league join name: {fit(info.name, 64)}"
                                          f"{' squadron: YOUR LIST' if info.size else ''}") + "; its games are ranked.")
        await reply(interaction, f"✅ {_esc(info.name, 64)} is created" + (
            " and announced here." if posted else ", but I could not announce it here (I need Send Messages)."))

    @app_commands.command(description="Register for a league (a GM may enter a computer captain)")
    @app_commands.describe(name="The league", squadron="Drafted leagues: the saved squadron you bring",
                           ai="Enter a computer captain instead (GM)")
    @app_commands.autocomplete(name=league_names, squadron=saved_names)
    async def join(self, interaction: discord.Interaction, name: str, squadron: str | None = None,
                   ai: bool = False) -> None:
        if not await defer(interaction):
            return
        try:
            entry = await service_of(interaction).leagues.join(
                await actor_of(interaction), name, interaction.user.display_name, squadron, ai)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        bringing = f" with {_esc(entry.squadron, 64)}" if entry.squadron else ""
        await reply(interaction, f"✅ {_esc(entry.name)} is registered for {_esc(name, 64)}{bringing}.")

    @app_commands.command(description="Close registration and begin the first round (GM)")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def start(self, interaction: discord.Interaction, name: str) -> None:
        await self._rounds(interaction, name, first=True)

    @app_commands.command(name="round", description="Close this round and pair the next, or end the league (GM)")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def next_round(self, interaction: discord.Interaction, name: str) -> None:
        await self._rounds(interaction, name, first=False)

    async def _rounds(self, interaction: discord.Interaction, name: str, first: bool) -> None:
        if not await defer(interaction):
            return
        service = service_of(interaction)
        leagues = service.leagues
        threads: dict[str, discord.Thread] = {}
        channel = interaction.channel

        async def place(title: str) -> str | None:
            if not isinstance(channel, discord.TextChannel):
                raise RulesError("League games are played in threads of a text channel.",
                                 "Run this command in the league's channel (not in a thread).")
            made = await channel.create_thread(name=thread_name(title), type=discord.ChannelType.public_thread)
            threads[str(made.id)] = made
            return str(made.id)

        try:
            actor = await actor_of(interaction)
            report = await (leagues.start(actor, name, place) if first else leagues.next_round(actor, name, place))
            if not first and not report.closed and not report.made:
                # another GM's command is making this round's games: it posts them
                await reply(interaction, f"⏳ Round {report.league.current_round} of {_esc(report.league.name, 64)} "
                                         "is already under way: another GM's command is making its games. "
                                         "`/league show` lists its tables.")
                return
            for notice in report.notices:
                await tell(self.bot, notice.member, f"🏆 {notice.text}")
            await self._play_computer_games(service, actor, report, threads)
            info = await leagues.show(actor.guild_id, name)
            table = await leagues.standings(actor.guild_id, name) if report.closed else None
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        except discord.Forbidden:
            await reply(interaction, "❌ I may not create threads here (I need Create Public Threads). The round is "
                                     "paired; run the command again once I may, and its games are made.")
            return
        await self._post(interaction, report, info, table)

    async def _play_computer_games(self, service: GameService, actor: Actor, report: RoundReport,
                                   threads: dict[str, discord.Thread]) -> None:
        """Each new game is opened in its thread; computer captains play what is theirs at once (a game
        between two of them to its end), and a game with a member gets its board."""
        for p in report.made:
            if p.game_id is None:
                continue
            thread = threads.get(p.thread_id or "")
            await service.commands.play_ai(p.game_id, limit=AI_MOVES)
            if thread is None:
                continue
            humans = [m for m in (p.a, p.b) if m and m.isdigit()]
            await thread.send(fit(f"⚓ Round {p.round}, table {p.table}: {_who(p.a, p.a_name)} (side A) v "
                                  f"{_who(p.b, p.b_name)} (side B), game #{p.game_id}. A ranked league game: "
                                  "play it here; its result is recorded when it ends."),
                              allowed_mentions=discord.AllowedMentions(
                                  users=[discord.Object(int(u)) for u in humans]) if humans else
                              discord.AllowedMentions.none())
            if humans:
                await service.front.announce(p.game_id)  # the board and the status, through the outbox
                await cast(Any, self.bot).courier.drain(p.game_id)
            else:
                ended = (await service.lobby.info(p.game_id)).status == "over"
                await thread.send("🏁 The computer captains have played it out." if ended else
                                  "The computer captains could not finish it; a GM records it with /league result.")

    async def _post(self, interaction: discord.Interaction, report: RoundReport, info: LeagueInfo,
                    table: Table | None) -> None:
        channel = interaction.channel
        assert channel is not None
        if report.closed:
            done = [p for p in report.closed]
            lines = [f"🧾 **{_esc(info.name, 64)}**: results of round {done[0].round}",
                     *(_result(p) for p in done)]
            await channel.send(fit_lines(lines, " (see `/league show`)"),  # type: ignore[union-attr]
                               allowed_mentions=discord.AllowedMentions.none())
        if report.started:
            text = _round_text(info, info.pairings)
            await channel.send(text, allowed_mentions=_mentions(text, info.pairings))  # type: ignore[union-attr]
        if table is not None:
            head = (f"🏆 **{_esc(info.name, 64)}** is over. Final standings:" if table.final
                    else f"📊 **{_esc(info.name, 64)}**: standings")
            await channel.send(fit_lines([head, *_standing_lines(table)], " (see `/league standings`)"),  # type: ignore[union-attr]
                               file=_image(table), allowed_mentions=discord.AllowedMentions.none())
        await reply(interaction, "✅ The league is over." if info.status == "over" else
                    f"✅ Round {info.current_round} is under way.")

    @app_commands.command(description="Record a result of the current round (GM): a game played elsewhere, or disputed")
    @app_commands.describe(name="The league", table="The table (see /league show)", winner="Side A, side B, or a draw",
                           note="Why (shown with the result)")
    @app_commands.autocomplete(name=league_names)
    async def result(self, interaction: discord.Interaction, name: str, table: app_commands.Range[int, 1, 10_000],
                     winner: Literal["A", "B", "draw"], note: str = "") -> None:
        if not await defer(interaction):
            return
        try:
            p = await service_of(interaction).leagues.record_result(
                await actor_of(interaction), name, table, None if winner == "draw" else winner, note[:150])
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await reply(interaction, f"✅ {_result(p)}")

    @app_commands.command(description="Forfeit a pairing of the current round (GM): the other side wins")
    @app_commands.describe(name="The league", table="The table (see /league show)",
                           side="The side that forfeits (both: both lose)", note="Why (shown with the result)")
    @app_commands.autocomplete(name=league_names)
    async def forfeit(self, interaction: discord.Interaction, name: str, table: app_commands.Range[int, 1, 10_000],
                      side: Literal["A", "B", "both"], note: str = "") -> None:
        if not await defer(interaction):
            return
        try:
            p = await service_of(interaction).leagues.forfeit(
                await actor_of(interaction), name, table, "AB" if side == "both" else side, note[:120])
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        for member in (m for s, m in (("A", p.a), ("B", p.b)) if m and s in p.forfeited):
            await tell(self.bot, member, f"🏆 A GM forfeited your table {p.table} of round {p.round} of "
                                         f"{_esc(name, 64)}: {_esc(p.reason, 200)}")
        await reply(interaction, f"✅ {_result(p)}")

    @app_commands.command(description="Drop an entrant from a league (GM): never paired again, this round forfeited")
    @app_commands.describe(name="The league", entrant="The entrant (a name from the list, or a mention)",
                           note="Why (kept with the drop)")
    @app_commands.autocomplete(name=league_names, entrant=entrant_names)
    async def drop(self, interaction: discord.Interaction, name: str, entrant: str, note: str = "") -> None:
        if not await defer(interaction):
            return
        try:
            entry = await service_of(interaction).leagues.drop(await actor_of(interaction), name, member_id(entrant),
                                                                note[:150])
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await tell(self.bot, entry.member, f"🏆 A GM dropped you from {_esc(name, 64)}"
                                           f"{f': {_esc(note, 150)}' if note.strip() else ''}. Your results so far "
                                           "stay in the standings; you are not paired again.")
        await reply(interaction, f"✅ {_esc(entry.name)} is dropped from {_esc(name, 64)}: not paired again, and "
                                 "their unfinished game of this round is forfeited. The standings show it.")

    @app_commands.command(description="A league's standings, with the table as an image")
    @app_commands.describe(name="The league", page=f"Which page ({PER_PAGE} a page)")
    @app_commands.autocomplete(name=league_names)
    async def standings(self, interaction: discord.Interaction, name: str,
                        page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        if not await defer(interaction):
            return
        try:
            table = await service_of(interaction).leagues.standings(str(interaction.guild_id), name)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        lines = _standing_lines(table)
        start = (page - 1) * PER_PAGE
        if start and start >= len(lines):
            await reply(interaction, f"❌ There is no page {page}: {len(lines)} entrants, {PER_PAGE} a page.")
            return
        head = f"📊 **{_esc(table.league.name, 64)}**{' (final)' if table.final else ''}"
        base = getattr(self.bot, "web_base_url", "")
        if base:  # the standings and pairings on the web, each game linked (docs/web.md)
            token = await service_of(interaction).web.league_token(str(interaction.guild_id), name)
            head += f"\n🌐 Standings and pairings on the web: <{base}l/{token}/>"
        shown = lines[start:start + PER_PAGE]
        more = f" (next page: `/league standings page:{page + 1}`)"
        await reply(interaction, fit_lines([head, *shown], more, beyond=max(0, len(lines) - start - len(shown))),
                    file=_image(table))

    @app_commands.command(description="A league: its settings, entrants and the current round's tables")
    @app_commands.describe(name="The league (empty: this server's leagues)", page=f"Which page of entrants ({PER_PAGE} a page)")
    @app_commands.autocomplete(name=league_names)
    async def show(self, interaction: discord.Interaction, name: str | None = None,
                   page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        if not await defer(interaction):
            return
        leagues = service_of(interaction).leagues
        guild = str(interaction.guild_id)
        if name is None:
            names = await leagues.names(guild)
            await reply(interaction, fit_lines(["🏆 Leagues here:", *(f"• {_esc(n, 64)}" for n in names)])
                        if names else "No leagues yet. A GM creates one with /league create.")
            return
        try:
            info = await leagues.show(guild, name)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        what = f"drafted {info.size}" if info.size else _esc(info.scenario, 64)
        state = {"registering": "registration open", "running": f"round {info.current_round} of {info.rounds}",
                 "over": "over"}[info.status]
        start = (page - 1) * PER_PAGE
        entrants = [f"• {_esc(e.name)}{f' ({_esc(e.squadron, 40)})' if e.squadron else ''}, rating {e.rating:.1f}"
                    f"{' (dropped)' if e.dropped else ''}"
                    for e in info.entrants[start:start + PER_PAGE]]
        lines = [f"🏆 **{_esc(info.name, 64)}**: {what}, {info.format.replace('_', ' ')}, {info.round_hours} h a round, "
                 f"{state}; {len(info.entrants)} entrants"]
        if info.pairings and info.status == "running":
            lines += [_result(p) for p in info.pairings[:PER_PAGE]]
        lines += entrants
        more = f" (next page: `/league show page:{page + 1}`)"
        await reply(interaction, fit_lines(lines, more, beyond=max(0, len(info.entrants) - start - len(entrants))))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))
