"""/league: create, join, start, round, result, forfeit, drop, standings, show.

A Swiss league may end in a top cut (a bracket: game/league/bracket.py), and a team league's
entrants are teams of two, each pairing one 2 vs 2 fleet battle (game/service/league_teams.py).

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
from game.service.leagues import MAX_ROUND_HOURS, EntryInfo, LeagueInfo, Pairing, RoundReport, Table

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


def _who(member: str | None, name: str, partner: str = "") -> str:
    """A mention for a member (pinged only where the message allows it), a plain name otherwise; a
    team by its name and a mention of each member."""
    if partner:
        both = " & ".join(f"<@{m}>" for m in (member, partner) if m and m.isdigit())
        return f"**{_esc(name)}**" + (f" ({both})" if both else "")
    return f"<@{member}>" if member and member.isdigit() else f"**{_esc(name)}**"


def _members(p: Pairing) -> list[str]:
    """Every member who plays at a table (both of each team)."""
    return [m for m in (p.a, p.a_partner, p.b, p.b_partner) if m]


def _result(p: Pairing) -> str:
    if p.b is None:
        return (f"{_who(p.a, p.a_name, p.a_partner)} forfeits the bye ({names.prose(fit(p.reason, 80))})"
                if p.forfeited else f"{_who(p.a, p.a_name, p.a_partner)} has a bye (a win)")
    head = f"T{p.table}: {_who(p.a, p.a_name, p.a_partner)} v {_who(p.b, p.b_name, p.b_partner)}"
    if p.status != "done":
        return head + (f" → <#{p.thread_id}>" if p.thread_id else f" (game #{p.game_id})" if p.game_id else "")
    won = ("both forfeit" if p.forfeited == "AB" else "a draw" if p.winner is None
           else f"{_esc(p.a_name if p.winner == p.a else p.b_name)} won")
    return f"{head}: {won}, Strike Points {p.a_points}–{p.b_points} ({names.prose(fit(p.reason, 80))})"


def _round_text(info: LeagueInfo, pairings: Sequence[Pairing]) -> str:
    due = f", decided <t:{int(info.deadline.timestamp())}:R>" if info.deadline else ""
    stage = f", the top cut's {info.stage} (a draw goes to fewer Strike Points, then the higher seed)" \
        if info.stage else ""
    head = f"📋 **{_esc(info.name, 64)}**: round {info.current_round} of {info.rounds}{stage}{due}"
    return fit_lines([head, *(_result(p) for p in pairings)], " (see `/league show`)")


def _stage(matches: int) -> str:
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(matches, f"Round of {matches * 2}")


def _bracket_lines(table: Table) -> list[str]:
    """The top cut as text: each round's matches with their seeds, and who went on."""
    if not table.bracket:
        return []
    info = table.league
    entrants = {e.member: e for e in info.entrants}

    def name(member: str) -> str:
        e = entrants.get(member)
        return _esc(e.name) if e else _esc(member)

    def seeded(member: str) -> str:
        e = entrants.get(member)
        return f"({e.seed}) {name(member)}" if e and e.seed else name(member)

    lines = [f"🏅 Top cut of {info.top_cut}:"]
    for matches in table.bracket:
        went = "wins" if len(matches) == 1 else "goes on"
        played = "; ".join(f"{seeded(m.a)} v {seeded(m.b)}" + (f" → {name(m.winner)} {went}" if m.winner else "")
                           for m in matches)
        lines.append(f"{_stage(len(matches))}: {played}")
    if table.champion is not None:
        lines.append(f"👑 Champion: {name(table.champion)}")
    return lines


def _entrant_line(e: EntryInfo) -> str:
    """An entrant in /league show (a team with both members, mentioned: the reply pings nobody)."""
    members = f" (<@{e.member}> & <@{e.partner}>)" if e.partner.isdigit() and e.member.isdigit() else ""
    return (f"• {_esc(e.name)}{members}{f' ({_esc(e.squadron, 40)})' if e.squadron else ''}, "
            f"rating {e.rating:.1f}{' (waiting for its partner to join)' if e.waiting else ''}"
            f"{f', seed {e.seed}' if e.seed else ''}{' (dropped)' if e.dropped else ''}")


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
    entrants = {e.member: e for e in info.entrants}

    def plain(member: str | None, seeded: bool = True) -> str:
        e = entrants.get(member or "")
        name = e.name if e else (member or "")
        return f"({e.seed}) {name}" if seeded and e and e.seed else name

    cut = [(_stage(len(matches)), [(plain(m.a), plain(m.b), plain(m.winner, False) if m.winner else None)
                                   for m in matches]) for matches in table.bracket]
    champion = plain(table.champion, False) if table.champion else None
    if cut:
        fmt += f" rounds, then the top cut of {info.top_cut}"
    png = standings_png(info.name, f"{when} ({fmt})", rows, cut, champion)
    # the same facts in words for a screen reader, as raw text (a description is not markdown)
    alt = f"{info.name}: {when} ({fmt}). " + " ".join(
        f"{r.rank}. {r.name}{' (dropped)' if r.dropped else ''}: {r.wins:g} of {r.played} won, margin {r.margin:+d}."
        for r in rows) + "".join(
        f" Top cut, {stage}: " + "; ".join(f"{a} v {b}" + (f", {won} went on" if won else ", to play")
                                         for a, b, won in matches) + "."
        for stage, matches in cut) + (f" Champion: {champion}." if champion else "")
    return discord.File(io.BytesIO(png), filename="standings.png", description=alt[:1023] + ("…" if len(alt) > 1023 else ""))


MAX_PINGS = 100  # Discord refuses a message allowing more users than this


def _mentions(text: str, pairings: Sequence[Pairing]) -> discord.AllowedMentions:
    """Ping the members of unfinished pairings whom the text names (a long round's text is cut short:
    the members of the tables cut off are not pinged for lines they cannot see), at most 100."""
    users = sorted({m for p in pairings if p.status != "done" for m in _members(p)
                    if m.isdigit() and f"<@{m}>" in text})[:MAX_PINGS]
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in users]) if users else \
        discord.AllowedMentions.none()


class LeagueCog(commands.GroupCog, name="league", description="Leagues and tournaments of ranked games"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Create a league (GM): its game, its format and how long a round lasts")
    @app_commands.describe(name="The league's name", scenario="A built-in scenario, or `drafted` (players bring "
                           "their saved squadrons)", file="Your own two-sided scenario file (TOML)",
                           size="Drafted leagues: the game size", format="Swiss rounds or a round robin",
                           round_hours="How long each round lasts, in hours",
                           top_cut="Swiss: a knockout bracket of the top 2, 4 or 8 after the Swiss rounds (0: none)",
                           teams="Entrants are teams of two, each game a 2 vs 2 fleet battle")
    @app_commands.autocomplete(scenario=scenario_names)
    async def create(self, interaction: discord.Interaction, name: str, scenario: str = "quickstart",
                     file: discord.Attachment | None = None,
                     size: Literal["patrol", "skirmish", "engagement"] = "skirmish",
                     format: Literal["swiss", "round_robin"] = "swiss",
                     round_hours: app_commands.Range[int, 1, MAX_ROUND_HOURS] = 72,
                     top_cut: Literal[0, 2, 4, 8] = 0, teams: bool = False) -> None:
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
                top_cut, teams)
        except RulesError as exc:
            await reply(interaction, refusal(exc))
            return
        what = f"drafted {info.size} games" if info.size else f"{_esc(info.scenario, 64)} games"
        if info.teams:
            what = f"teams of two, each game a 2 vs 2 {what}"
        cut = f", then a top cut of {info.top_cut}" if info.top_cut else ""
        how = (f"/league join name: {fit(info.name, 64)} team: TEAM NAME partner: @member" if info.teams else
               f"/league join name: {fit(info.name, 64)}{' squadron: YOUR LIST' if info.size else ''}")
        then = " (the partner then joins with the same command and the team's name alone)" if info.teams else ""
        posted = await post_here(
            interaction, f"🏆 **{_esc(info.name, 64)}** is open for registration: {what}, "
            f"{'Swiss rounds' if info.format == 'swiss' else 'a round robin'}{cut}, {info.round_hours} hours a round. "
            "Register with " + names.code(how) + f"{then}; its games are ranked.")
        await reply(interaction, f"✅ {_esc(info.name, 64)} is created" + (
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
                await tell(self.bot, entry.partner, f"🏆 {_esc(interaction.user.display_name)} registered team "
                                                    f"{_esc(entry.name, 64)} in {_esc(name, 64)} with you as partner. "
                                                    f"Join it with {join}; until you do, it is not paired.")
            await reply(interaction, f"✅ Team {_esc(entry.name)} is registered for {_esc(name, 64)} with "
                                     f"<@{entry.partner}>, who must join it with {join} before the league starts "
                                     f"({'I have sent them a DM' if entry.named else 'they were told when you named them'}).")
            return
        bringing = f" with {_esc(entry.squadron, 64)}" if entry.squadron else ""
        if entry.partner == str(interaction.user.id):
            await reply(interaction, f"✅ You joined team {_esc(entry.name)} in {_esc(name, 64)}: it is complete and "
                                     "will be paired.")
            return
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
            humans = [m for m in _members(p) if m.isdigit()]
            teams = (" Each team fights on one side, each member commanding one of its two squadrons."
                     if p.a_partner else "")
            await thread.send(fit(f"⚓ Round {p.round}, table {p.table}: {_who(p.a, p.a_name, p.a_partner)} (side A) v "
                                  f"{_who(p.b, p.b_name, p.b_partner)} (side B), game #{p.game_id}.{teams} A ranked "
                                  "league game: play it here; its result is recorded when it ends."),
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
            champion = next((e.name for e in info.entrants if e.member == table.champion), None)
            head = (f"🏆 **{_esc(info.name, 64)}** is over" + (f": **{_esc(champion)}** won the final" if champion
                                                                  else "") + ". Final standings:" if table.final
                    else f"📊 **{_esc(info.name, 64)}**: standings")
            body = [*_bracket_lines(table), *(["Swiss standings:"] if table.bracket else []), *_standing_lines(table)]
            await channel.send(fit_lines([head, *body], " (see `/league standings`)"),  # type: ignore[union-attr]
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
        for member in (m for s, m in (("A", p.a), ("A", p.a_partner), ("B", p.b), ("B", p.b_partner))
                       if m and s in p.forfeited):
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
        for member in filter(None, (entry.member, entry.partner)):  # both members of a dropped team
            await tell(self.bot, member, f"🏆 A GM dropped {'your team ' + _esc(entry.name) if entry.partner else 'you'}"
                                         f" from {_esc(name, 64)}{f': {_esc(note, 150)}' if note.strip() else ''}. "
                                         "Your results so far stay in the standings; you are not paired again.")
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
        if page == 1 and table.bracket:  # the bracket above the Swiss standings it was seeded from
            head = "\n".join([head, *_bracket_lines(table), "Swiss standings:"])
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
        entrants = [_entrant_line(e) for e in info.entrants[start:start + PER_PAGE]]
        if info.stage:
            state += f", the top cut's {info.stage}"
        kind = f"{info.format.replace('_', ' ')}{f' with a top cut of {info.top_cut}' if info.top_cut else ''}"
        lines = [f"🏆 **{_esc(info.name, 64)}**: {what}{', teams of two' if info.teams else ''}, {kind}, "
                 f"{info.round_hours} h a round, {state}; {len(info.entrants)} {'teams' if info.teams else 'entrants'}"]
        if info.top_cut and info.status != "registering" and page == 1:
            lines += _bracket_lines(await leagues.standings(guild, info.name))
        if info.pairings and info.status == "running":
            lines += [_result(p) for p in info.pairings[:PER_PAGE]]
        lines += entrants
        more = f" (next page: `/league show page:{page + 1}`)"
        await reply(interaction, fit_lines(lines, more, beyond=max(0, len(info.entrants) - start - len(entrants))))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))
