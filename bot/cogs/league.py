"""/league: create, join, start, round, result, forfeit, drop, standings, show.

A Swiss league may end in a top cut (a bracket: game/league/bracket.py), and a team league's
entrants are teams of two, each pairing one 2 vs 2 fleet battle (game/service/league_teams.py).

Each round's pairings are posted in the league's channel, every game in its own thread; games
between computer captains are played out at once, and every result is recorded by the service as
its game ends. Everything a league decides lives in the database (game/service/leagues.py)."""

from __future__ import annotations

import io
import logging
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, choices, defer, post_here, refusal, reply, service_of
from bot.cogs.game import MAX_SCENARIO_BYTES, scenario_names
from bot.cogs.squadron import saved_names
from bot.league_rounds import (
    bracket_lines,
    entrant_line,
    esc,
    play_computer_games,
    post_round,
    result_line,
    standing_lines,
    standings_image,
    tell,
)
from bot.limits import MAX_CHOICE_NAME, MAX_CHOICES, fit, fit_lines, thread_name
from bot.markup import chat, member_id
from game import names
from game.errors import RulesError
from game.fuzzy import ranked_at
from game.league.bracket import reached
from game.league.export import standings_csv
from game.service.errors import ServiceError
from game.service.league_log import AUTOMATIC
from game.service.league_settings import MAX_CLOCK_HOURS, LeagueSettings
from game.service.leagues import MAX_ROUND_HOURS, EntryInfo, LogLine

log = logging.getLogger(__name__)

ClockHours = app_commands.Range[int, 1, MAX_CLOCK_HOURS]
OnDeadline = Literal["gm", "captain", "pass"]
CLOCK_HELP = {"reminder_hours": "Its games' reminder, in hours (empty: the server's)",
              "deadline_hours": "Its games' deadline for a move, in hours (empty: the server's)",
              "on_deadline": "What a deadline does: a GM acts, the computer captain plays, or the move is passed",
              "skip_quiet": "Whether deadlines wait out the late player's quiet hours"}

PER_PAGE = 20  # entrants or standings lines a page: each is short, so a page always fits one message
LOG_PAGE = 10  # action-log lines a page: each carries a note of up to 300 characters


def team_names(guild: discord.Guild | None, e: EntryInfo) -> tuple[str, str]:
    """A team's two members by the names the server shows now, for the standings' CSV; a member the bot
    has not seen lately by the name they joined with, or as "member ID" (a bare 18-digit id would be
    turned into a rounded number by a spreadsheet)."""

    def shown(member: str, joined: str) -> str:
        found = guild.get_member(int(member)) if guild is not None and member.isdigit() else None
        if found is not None:
            return found.display_name
        return joined or (f"Computer captain {member[3:]}" if member.startswith("ai:") else f"member {member}")

    return shown(e.member, ""), shown(e.partner, e.partner_name)


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



class LeagueCog(commands.GroupCog, name="league", description="Leagues and tournaments of ranked games"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Create a league (GM): its game, its format and how long a round lasts")
    @app_commands.describe(name="The league's name", scenario="A built-in scenario, or `drafted` (players bring "
                           "their saved squadrons)", file="Your own two-sided scenario file (TOML)",
                           size="Drafted leagues: the game size", format="Swiss rounds or a round robin",
                           round_hours="How long each round lasts, in hours",
                           auto_close="Close a round, and pair the next, when its last game ends",
                           top_cut="Swiss: a knockout bracket of the top 2, 4 or 8 after the Swiss rounds (0: none)",
                           teams="Entrants are teams of two, each game a 2 vs 2 fleet battle", **CLOCK_HELP)
    @app_commands.autocomplete(scenario=scenario_names)
    async def create(self, interaction: discord.Interaction, name: str, scenario: str = "quickstart",
                     file: discord.Attachment | None = None,
                     size: Literal["patrol", "skirmish", "engagement"] = "skirmish",
                     format: Literal["swiss", "round_robin"] = "swiss",
                     round_hours: app_commands.Range[int, 1, MAX_ROUND_HOURS] = 72,
                     auto_close: bool = True, reminder_hours: ClockHours | None = None,
                     deadline_hours: ClockHours | None = None, on_deadline: OnDeadline | None = None,
                     skip_quiet: bool | None = None, top_cut: Literal[0, 2, 4, 8] = 0, teams: bool = False) -> None:
        if not await defer(interaction):
            return
        try:
            text = None
            if file is not None:
                if file.size > MAX_SCENARIO_BYTES:
                    raise RulesError("That scenario file is too large.", f"Keep it under {MAX_SCENARIO_BYTES // 1000} KB.")
                text = (await file.read()).decode("utf-8", errors="replace")
            info = await service_of(interaction).leagues.create(
                await actor_of(interaction), str(interaction.channel_id), name, scenario, text, size, format, round_hours,
                LeagueSettings(auto_close, reminder_hours, deadline_hours, on_deadline, skip_quiet), top_cut, teams)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        what = f"drafted {info.size} games" if info.size else f"{esc(info.scenario, 64)} games"
        if info.teams:
            what = f"teams of two, each game a 2 vs 2 {what}"
        cut = f", then a top cut of {info.top_cut}" if info.top_cut else ""
        how = (f"/league join name: {fit(info.name, 64)} team: TEAM NAME partner: @member" if info.teams else
               f"/league join name: {fit(info.name, 64)}{' squadron: YOUR LIST' if info.size else ''}")
        then = " (the partner then joins with the same command and the team's name alone)" if info.teams else ""
        posted = await post_here(
            interaction, f"🏆 **{esc(info.name, 64)}** is open for registration: {what}, "
            f"{'Swiss rounds' if info.format == 'swiss' else 'a round robin'}{cut}, {info.round_hours} hours a round. "
            "Register with " + names.code(how) + f"{then}; its games are ranked"
            + (", and a round closes as its last game ends." if info.settings.auto_close else "."))
        await reply(interaction, f"✅ {esc(info.name, 64)} is created" + (
            " and announced here." if posted else ", but I could not announce it here (I need Send Messages)."))

    @app_commands.command(description="Register for a league (a GM may enter a computer captain)")
    @app_commands.describe(name="The league", squadron="Drafted leagues: the saved squadron you bring",
                           ai="Enter a computer captain instead (GM; in a team league, a team of two)",
                           team="Team leagues: your team's name (the partner named joins with this name alone)",
                           partner="Team leagues: your partner, when you register the team")
    @app_commands.autocomplete(name=league_names, squadron=saved_names)
    async def join(self, interaction: discord.Interaction, name: str, squadron: str | None = None,
                   ai: bool = False, team: str | None = None, partner: discord.Member | None = None) -> None:
        if not await defer(interaction):
            return
        try:
            if partner is not None and partner.bot:
                raise RulesError("A team is two members; a bot cannot be your partner.",
                                 "Name a member, or ask a GM to enter a team of computer captains.")
            entry = await service_of(interaction).leagues.join(
                await actor_of(interaction), name, interaction.user.display_name, squadron, ai, team,
                str(partner.id) if partner is not None else None, partner.display_name if partner is not None else "")
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        if entry.waiting:  # a team registered: its partner is asked to join it
            join = names.code(f"/league join name: {fit(name, 64)} team: {fit(entry.name, 64)}")
            if entry.named:  # registered again with the same partner: told once is enough
                await tell(self.bot, entry.partner, f"🏆 {esc(interaction.user.display_name)} registered team "
                                                    f"{esc(entry.name, 64)} in {esc(name, 64)} with you as partner. "
                                                    f"Join it with {join}; until you do, it is not paired.")
            await reply(interaction, f"✅ Team {esc(entry.name)} is registered for {esc(name, 64)} with "
                                     f"<@{entry.partner}>, who must join it with {join} before the league starts "
                                     f"({'I have sent them a DM' if entry.named else 'they were told when you named them'}).")
            return
        bringing = f" with {esc(entry.squadron, 64)}" if entry.squadron else ""
        if entry.partner == str(interaction.user.id):
            await reply(interaction, f"✅ You joined team {esc(entry.name)} in {esc(name, 64)}: it is complete and "
                                     "will be paired.")
            return
        await reply(interaction, f"✅ {esc(entry.name)} is registered for {esc(name, 64)}{bringing}.")

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
                await reply(interaction, f"⏳ Round {report.league.current_round} of {esc(report.league.name, 64)} "
                                         "is already under way: another GM's command is making its games. "
                                         "`/league show` lists its tables.")
                return
            for notice in report.notices:
                await tell(self.bot, notice.member, f"🏆 {notice.text}")
            # the standings after the round that closed, read before the computer captains play the new
            # one: their games may close it by themselves, and that round's own post shows what follows
            table = await leagues.standings(actor.guild_id, name) if report.closed else None
            await play_computer_games(service, report, threads, cast(Any, self.bot).courier.drain)
            # the round this command began (its games, once played, may have closed it by themselves since)
            number = report.league.current_round
            info = await leagues.show(actor.guild_id, name, round=number)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        except discord.Forbidden:
            await reply(interaction, "❌ I may not create threads here (I need Create Public Threads). The round is "
                                     "paired; run the command again once I may, and its games are made.")
            return
        assert channel is not None
        await post_round(cast(discord.abc.Messageable, channel), report, info, table)
        await reply(interaction, "✅ The league is over." if report.league.status == "over" else
                    f"✅ Round {number} is under way.")

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
        await reply(interaction, f"✅ {result_line(p)}")

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
        for member in (m for s, m in (("A", p.a), ("A", p.a_partner), ("B", p.b), ("B", p.b_partner))
                       if m and s in p.forfeited):
            await tell(self.bot, member, f"🏆 A GM forfeited your table {p.table} of round {p.round} of "
                                         f"{esc(name, 64)}: {esc(p.reason, 200)}")
        await reply(interaction, f"✅ {result_line(p)}")

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
        for member in filter(None, (entry.member, entry.partner)):  # both members of a dropped team
            await tell(self.bot, member, f"🏆 A GM dropped {'your team ' + esc(entry.name) if entry.partner else 'you'}"
                                         f" from {esc(name, 64)}{f': {esc(note, 150)}' if note.strip() else ''}. "
                                         "Your results so far stay in the standings; you are not paired again.")
        await reply(interaction, f"✅ {esc(entry.name)} is dropped from {esc(name, 64)}: not paired again, and "
                                 "their unfinished game of this round is forfeited. The standings show it.")

    @app_commands.command(description="Pause a league (GM): its round's game clocks stop; the round's deadline waits")
    @app_commands.describe(name="The league", reason="Why (said with the pause)")
    @app_commands.autocomplete(name=league_names)
    async def pause(self, interaction: discord.Interaction, name: str,
                    reason: app_commands.Range[str, 0, 200] = "") -> None:
        await self._pause(interaction, name, reason, True)

    @app_commands.command(description="Resume a paused league (GM): clocks run on; the round's deadline moves on")
    @app_commands.describe(name="The league")
    @app_commands.autocomplete(name=league_names)
    async def resume(self, interaction: discord.Interaction, name: str) -> None:
        await self._pause(interaction, name, "", False)

    async def _pause(self, interaction: discord.Interaction, name: str, reason: str, pause: bool) -> None:
        if not await defer(interaction):
            return
        pauses = service_of(interaction).league_pauses
        try:
            actor = await actor_of(interaction)
            done = await (pauses.pause(actor, name, reason) if pause else pauses.resume(actor, name))
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        courier: Any = getattr(self.bot, "courier", None)
        for gid in done.games:  # each game's log says it, in its own thread
            if courier is not None:
                await courier.drain(gid)
        games = f"{len(done.games)} game{'s' if len(done.games) != 1 else ''}"
        if pause:
            text = (f"⏸️ {esc(done.league, 64)} is paused by a GM{f': {esc(reason, 200)}' if reason.strip() else ''}. "
                    f"The clocks of {games} of this round are stopped; moves may still be played.")
        else:
            due = f" The round now ends {names.moment(done.deadline, 'R')}." if done.deadline is not None else ""
            text = f"▶️ {esc(done.league, 64)} is resumed: the clocks of {games} run again with the time they had left.{due}"
        await post_here(interaction, chat(text))
        if done.closed_on is not None and courier is not None:  # its games all ended during the pause
            await courier.drain(done.closed_on)
        await reply(interaction, "✅ " + chat(text))

    @app_commands.command(description="A league's standings, with the table as an image (or as a CSV file)")
    @app_commands.describe(name="The league", page=f"Which page ({PER_PAGE} a page)",
                           format="text (with the image), or csv: a file for a spreadsheet")
    @app_commands.autocomplete(name=league_names)
    async def standings(self, interaction: discord.Interaction, name: str,
                        page: app_commands.Range[int, 1, 10_000] = 1, format: Literal["text", "csv"] = "text") -> None:
        if not await defer(interaction):
            return
        try:
            table = await service_of(interaction).leagues.standings(str(interaction.guild_id), name)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        if format == "csv":
            # with a byte-order mark, so that a spreadsheet reads the names' accents as UTF-8
            info = table.league
            members = {e.member: team_names(interaction.guild, e) for e in info.entrants} if info.teams else None
            went = reached(list(table.bracket))
            cut = {e.member: (e.seed, went.get(e.member, "")) for e in info.entrants} if info.top_cut else None
            data = standings_csv(table.rows, members, cut).encode("utf-8-sig")
            await reply(interaction, f"📊 **{esc(table.league.name, 64)}**{' (final)' if table.final else ''}: "
                                     f"the standings of {len(table.rows)} entrants as CSV.",
                        file=discord.File(io.BytesIO(data), filename=csv_name(table.league.name),
                                          description=f"{table.league.name[:64]}: standings as CSV"))
            return
        lines = standing_lines(table)
        start = (page - 1) * PER_PAGE
        if start and start >= len(lines):
            await reply(interaction, f"❌ There is no page {page}: {len(lines)} entrants, {PER_PAGE} a page.")
            return
        head = f"📊 **{esc(table.league.name, 64)}**{' (final)' if table.final else ''}"
        base = getattr(self.bot, "web_base_url", "")
        if base:  # the standings and pairings on the web, each game linked (docs/web.md)
            token = await service_of(interaction).web.league_token(str(interaction.guild_id), name)
            head += f"\n🌐 Standings and pairings on the web: <{base}l/{token}/>"
        if page == 1 and table.bracket:  # the bracket above the Swiss standings it was seeded from
            head = "\n".join([head, *bracket_lines(table), "Swiss standings:"])
        shown = lines[start:start + PER_PAGE]
        more = f" (next page: `/league standings page:{page + 1}`)"
        await reply(interaction, fit_lines([head, *shown], more, beyond=max(0, len(lines) - start - len(shown))),
                    file=standings_image(table))

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
            listed = await leagues.names(guild)
            await reply(interaction, fit_lines(["🏆 Leagues here:", *(f"• {esc(n, 64)}" for n in listed)])
                        if listed else "No leagues yet. A GM creates one with /league create.")
            return
        try:
            info = await leagues.show(guild, name)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        what = f"drafted {info.size}" if info.size else esc(info.scenario, 64)
        state = {"registering": "registration open", "running": f"round {info.current_round} of {info.rounds}",
                 "over": "over"}[info.status] + (" (⏸️ paused by a GM: the round's time waits)" if info.paused else "")
        start = (page - 1) * PER_PAGE
        entrants = [entrant_line(e) for e in info.entrants[start:start + PER_PAGE]]
        if info.stage:
            state += f", the top cut's {info.stage}"
        kind = f"{info.format.replace('_', ' ')}{f' with a top cut of {info.top_cut}' if info.top_cut else ''}"
        lines = [f"🏆 **{esc(info.name, 64)}**: {what}{', teams of two' if info.teams else ''}, {kind}, "
                 f"{info.round_hours} h a round, {state}; {len(info.entrants)} {'teams' if info.teams else 'entrants'}",
                 f"⚙️ {names.text(info.settings_text)}"]
        if info.top_cut and info.status != "registering" and page == 1:
            lines += bracket_lines(await leagues.standings(guild, info.name))
        if info.pairings and info.status == "running":
            lines += [result_line(p) for p in info.pairings[:PER_PAGE]]
        lines += entrants
        more = f" (next page: `/league show page:{page + 1}`)"
        await reply(interaction, fit_lines(lines, more, beyond=max(0, len(info.entrants) - start - len(entrants))))

    @app_commands.command(name="late-entry",
                          description="Enter a member (or a computer captain) in a Swiss league that has started (GM)")
    @app_commands.describe(name="The league", member="The member to enter",
                           squadron="Drafted leagues: the member's saved squadron they bring",
                           ai="Enter a computer captain instead")
    @app_commands.autocomplete(name=league_names)
    async def late_entry(self, interaction: discord.Interaction, name: str, member: discord.User | None = None,
                         squadron: str | None = None, ai: bool = False) -> None:
        if not await defer(interaction):
            return
        try:
            if member is not None and member.bot:
                raise RulesError("A bot account cannot play in a league.", "Enter a computer captain with ai: True.")
            if member is not None and ai:
                raise RulesError("A late entry is a member or a computer captain, not both.",
                                 "Give member:, or ai: True alone.")
            if member is None and not ai:
                raise RulesError("Name the member to enter.", "Give member:, or ai: True for a computer captain.")
            late = await service_of(interaction).leagues.late_entry(
                await actor_of(interaction), name, None if member is None else str(member.id),
                member.display_name if member is not None else "", squadron, ai)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        entry = late.entry
        missed = f"rounds 1 to {late.first_round - 1} count nothing" if late.first_round > 2 else "round 1 counts nothing"
        await tell(self.bot, entry.member, f"🏆 A GM entered you late in {esc(late.league, 64)}: you are paired "
                                           f"from round {late.first_round}, and {missed} for you (no win, no loss).")
        await reply(interaction, f"✅ {esc(entry.name)} is entered in {esc(late.league, 64)}: paired from round "
                                 f"{late.first_round}; {missed} for them.")

    @app_commands.command(description="Change a league's settings (GM): rounds closing by themselves, its games' clock")
    @app_commands.describe(name="The league", auto_close="Close a round, and pair the next, when its last game ends",
                           server_clock="Give its new games the server's clock again", **CLOCK_HELP)
    @app_commands.autocomplete(name=league_names)
    async def settings(self, interaction: discord.Interaction, name: str, auto_close: bool | None = None,
                       reminder_hours: ClockHours | None = None, deadline_hours: ClockHours | None = None,
                       on_deadline: OnDeadline | None = None, skip_quiet: bool | None = None,
                       server_clock: bool = False) -> None:
        if not await defer(interaction):
            return
        try:
            info = await service_of(interaction).leagues.settings(
                await actor_of(interaction), name, auto_close, reminder_hours, deadline_hours, on_deadline, skip_quiet,
                server_clock)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        await reply(interaction, f"✅ {esc(info.name, 64)}: {names.text(info.settings_text)}. A new clock applies to "
                                 "the games made from now on; games being played keep theirs (/clock in a game's "
                                 "thread changes one).")

    @app_commands.command(description="A league's log of organiser actions, newest first (anyone may read it)")
    @app_commands.describe(name="The league", page=f"Which page ({LOG_PAGE} a page)")
    @app_commands.autocomplete(name=league_names)
    async def log(self, interaction: discord.Interaction, name: str, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        if not await defer(interaction):
            return
        try:
            found = await service_of(interaction).leagues.action_log(str(interaction.guild_id), name, page, LOG_PAGE)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        pages = max(1, -(-found.total // LOG_PAGE))
        if page > pages:
            await reply(interaction, f"❌ There is no page {page}: {found.total} actions, {LOG_PAGE} a page.")
            return
        head = f"📜 **{esc(found.league, 64)}**: organiser actions, newest first (page {page} of {pages})"
        lines = [log_line(line) for line in found.lines]
        more = f" (next page: `/league log page:{page + 1}`)"
        await reply(interaction, fit_lines([head, *lines], more), allowed_mentions=discord.AllowedMentions.none())


def csv_name(league: str) -> str:
    """A file name from the league's name: letters, digits and dashes only."""
    slug = "".join(c if c.isalnum() else "-" for c in league.casefold()).strip("-")[:40] or "league"
    return f"{slug}-standings.csv"


def log_line(line: LogLine) -> str:
    a = line.action
    by = "automatic" if a.actor == AUTOMATIC else f"<@{a.actor}>" if a.actor.isdigit() else esc(a.actor)
    about = f" ({esc(line.subject_name)})" if a.subject else ""
    note = f": {names.text(fit(a.note, 200))}" if a.note else ""
    return f"• <t:{int(a.at.timestamp())}:f> {by}, **{a.action}**{about}{note}"


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))
