"""A league round as the channel reads it: the results of the round that closed, the new round's tables
(each game opened in its thread, computer captains' games played out), the top cut's bracket and the
standings with their image, and the DMs to entrants. A team is shown by its name and both members. `/league start` and `/league round` post it (bot/cogs/league.py), and
so does the courier for a round that closed by itself as its last game ended (bot/outbox.py)."""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.dms import send_dm
from bot.limits import fit, fit_lines, thread_name
from game import names
from game.errors import RulesError
from game.service.game_service import GameService
from game.service.leagues import EntryInfo, LeagueInfo, Pairing, RoundReport, Table

log = logging.getLogger(__name__)

NAME_IN_LINE = 32  # a Discord display name is at most 32 characters; a computer captain's is shorter
AI_MOVES = 5000  # a whole game between computer captains, with room to spare
Drain = Callable[[int], Awaitable[int]]  # the courier's drain of one game's outbox


def esc(text: str, limit: int = NAME_IN_LINE) -> str:
    return names.text(fit(text, limit))


async def tell(client: discord.Client, member: str, text: str) -> None:
    """A line for one entrant alone, by DM (a closed DM loses it: the standings still show it)."""
    if not member.isdigit():
        return
    try:
        await send_dm(client, int(member), fit(text), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.info("could not DM entrant %s about their league", member)


def who(member: str | None, name: str, partner: str = "") -> str:
    """A mention for a member (pinged only where the message allows it), a plain name otherwise; a
    team by its name and a mention of each member."""
    if partner:
        both = " & ".join(f"<@{m}>" for m in (member, partner) if m and m.isdigit())
        return f"**{esc(name)}**" + (f" ({both})" if both else "")
    return f"<@{member}>" if member and member.isdigit() else f"**{esc(name)}**"


def members(p: Pairing) -> list[str]:
    """Every member who plays at a table (both of each team)."""
    return [m for m in (p.a, p.a_partner, p.b, p.b_partner) if m]


def result_line(p: Pairing) -> str:
    if p.b is None:
        return (f"{who(p.a, p.a_name, p.a_partner)} forfeits the bye ({names.prose(fit(p.reason, 80))})"
                if p.forfeited else f"{who(p.a, p.a_name, p.a_partner)} has a bye (a win)")
    head = f"T{p.table}: {who(p.a, p.a_name, p.a_partner)} v {who(p.b, p.b_name, p.b_partner)}"
    if p.status != "done":
        return head + (f" → <#{p.thread_id}>" if p.thread_id else f" (game #{p.game_id})" if p.game_id else "")
    won = ("both forfeit" if p.forfeited == "AB" else "a draw" if p.winner is None
           else f"{esc(p.a_name if p.winner == p.a else p.b_name)} won")
    return f"{head}: {won}, Strike Points {p.a_points}–{p.b_points} ({names.prose(fit(p.reason, 80))})"


def round_text(info: LeagueInfo, pairings: Sequence[Pairing]) -> str:
    number = pairings[0].round if pairings else info.current_round
    due = f", decided <t:{int(info.deadline.timestamp())}:R>" if info.deadline and number == info.current_round else ""
    if info.paused and number == info.current_round:  # its deadline moves on by the pause when a GM resumes it
        due = ", ⏸️ paused by a GM: the round's time waits"
    stage = f", the top cut's {info.stage} (a draw goes to fewer Strike Points, then the higher seed)" \
        if info.stage else ""
    head = f"📋 **{esc(info.name, 64)}**: round {number} of {info.rounds}{stage}{due}"
    return fit_lines([head, *(result_line(p) for p in pairings)], " (see `/league show`)")


def stage_name(matches: int) -> str:
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(matches, f"Round of {matches * 2}")


def bracket_lines(table: Table) -> list[str]:
    """The top cut as text: each round's matches with their seeds, and who went on."""
    if not table.bracket:
        return []
    info = table.league
    entrants = {e.member: e for e in info.entrants}

    def name(member: str) -> str:
        e = entrants.get(member)
        return esc(e.name) if e else esc(member)

    def seeded(member: str) -> str:
        e = entrants.get(member)
        return f"({e.seed}) {name(member)}" if e and e.seed else name(member)

    lines = [f"🏅 Top cut of {info.top_cut}:"]
    for matches in table.bracket:
        went = "wins" if len(matches) == 1 else "goes on"
        played = "; ".join(f"{seeded(m.a)} v {seeded(m.b)}" + (f" → {name(m.winner)} {went}" if m.winner else "")
                           for m in matches)
        lines.append(f"{stage_name(len(matches))}: {played}")
    if table.champion is not None:
        lines.append(f"👑 Champion: {name(table.champion)}")
    return lines


def entrant_line(e: EntryInfo) -> str:
    """An entrant in /league show (a team with both members, mentioned: the reply pings nobody)."""
    both = f" (<@{e.member}> & <@{e.partner}>)" if e.partner.isdigit() and e.member.isdigit() else ""
    return (f"• {esc(e.name)}{both}{f' ({esc(e.squadron, 40)})' if e.squadron else ''}, "
            f"rating {e.rating:.1f}{' (waiting for its partner to join)' if e.waiting else ''}"
            f"{f', seed {e.seed}' if e.seed else ''}{' (dropped)' if e.dropped else ''}")


def final_head(table: Table) -> str:
    """The first line of the standings' post; the league's last names its champion (the top cut's)."""
    info = table.league
    if not table.final:
        return f"📊 **{esc(info.name, 64)}**: standings"
    champion = next((e.name for e in info.entrants if e.member == table.champion), None)
    return (f"🏆 **{esc(info.name, 64)}** is over" + (f": **{esc(champion)}** won the final" if champion else "")
            + ". Final standings:")


def standing_lines(table: Table) -> list[str]:
    return [f"{r.rank}. {esc(r.name)}{' (dropped)' if r.dropped else ''}: {r.wins:g} of {r.played} won"
            f"{f' ({r.forfeits} forfeited)' if r.forfeits else ''}, Strike Point margin {r.margin:+d}, "
            f"opponents' wins {r.opponents_wins:g}, rating {r.rating:.1f}" for r in table.rows]


def standings_image(table: Table) -> discord.File:
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

    cut = [(stage_name(len(matches)), [(plain(m.a), plain(m.b), plain(m.winner, False) if m.winner else None)
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


def mentions(text: str, pairings: Sequence[Pairing]) -> discord.AllowedMentions:
    """Ping the members of unfinished pairings whom the text names (a long round's text is cut short:
    the members of the tables cut off are not pinged for lines they cannot see), at most 100."""
    users = sorted({m for p in pairings if p.status != "done" for m in members(p)
                    if m.isdigit() and f"<@{m}>" in text})[:MAX_PINGS]
    return discord.AllowedMentions(users=[discord.Object(int(u)) for u in users]) if users else \
        discord.AllowedMentions.none()


async def play_computer_games(service: GameService, report: RoundReport, threads: dict[str, discord.Thread],
                              drain: Drain) -> None:
    """Each new game is opened in its thread; computer captains play what is theirs at once (a game
    between two of them to its end), and a game with a member gets its board."""
    for p in report.made:
        if p.game_id is None:
            continue
        thread = threads.get(p.thread_id or "")
        await service.commands.play_ai(p.game_id, limit=AI_MOVES)
        if thread is None:
            continue
        humans = [m for m in members(p) if m.isdigit()]
        teams = " Each team fights on one side, each member commanding one of its two squadrons." if p.a_partner else ""
        await thread.send(fit(f"⚓ Round {p.round}, table {p.table}: {who(p.a, p.a_name, p.a_partner)} (side A) v "
                              f"{who(p.b, p.b_name, p.b_partner)} (side B), game #{p.game_id}.{teams} A ranked "
                              "league game: play it here; its result is recorded when it ends."),
                          allowed_mentions=discord.AllowedMentions(
                              users=[discord.Object(int(u)) for u in humans]) if humans else
                          discord.AllowedMentions.none())
        if humans:
            await service.front.announce(p.game_id)  # the board and the status, through the outbox
            await drain(p.game_id)
        else:
            ended = (await service.lobby.info(p.game_id)).status == "over"
            await thread.send("🏁 The computer captains have played it out." if ended else
                              "The computer captains could not finish it; a GM records it with /league result.")


async def post_round(channel: discord.abc.Messageable, report: RoundReport, info: LeagueInfo,
                     table: Table | None, automatic: bool = False) -> None:
    """The closed round's results, the new round's tables and the standings, in the league's channel.
    `info` is the league with the pairings of the round `report` began."""
    if report.closed:
        lines = [f"🧾 **{esc(info.name, 64)}**: results of round {report.closed[0].round}"
                 f"{' (its last game has ended: the round closed by itself)' if automatic else ''}",
                 *(result_line(p) for p in report.closed)]
        await channel.send(fit_lines(lines, " (see `/league show`)"), allowed_mentions=discord.AllowedMentions.none())
    if report.started:
        text = round_text(info, info.pairings)
        await channel.send(text, allowed_mentions=mentions(text, info.pairings))
    if table is not None:
        # the bracket above the Swiss standings it was seeded from
        body = [*bracket_lines(table), *(["Swiss standings:"] if table.bracket else []), *standing_lines(table)]
        await channel.send(fit_lines([final_head(table), *body], " (see `/league standings`)"),
                           file=standings_image(table), allowed_mentions=discord.AllowedMentions.none())


async def round_closed(client: discord.Client, service: GameService, drain: Drain, league_id: int, closed: int,
                       told: Sequence[tuple[str, str]] = ()) -> None:
    """A round that closed by itself as its last game ended (the courier delivers its post): the next
    round's games are made in threads of the league's channel and the channel is told, as `/league
    round` would have told it."""
    leagues = service.leagues
    found = await leagues.where(league_id)
    if found is None:  # the league is gone (its server's data purged): nothing to tell
        return
    guild_id, channel_id = found
    channel: object = client.get_channel(int(channel_id))
    if channel is None:
        try:
            channel = await client.fetch_channel(int(channel_id))
        except discord.NotFound:  # the channel was deleted: the message below says where things stand
            channel = None
    threads: dict[str, discord.Thread] = {}

    async def place(title: str) -> str | None:
        if not isinstance(channel, discord.TextChannel):
            raise RulesError("League games are played in threads of a text channel.",
                             "A GM runs /league round in the league's channel.")
        made = await channel.create_thread(name=thread_name(title), type=discord.ChannelType.public_thread)
        threads[str(made.id)] = made
        return str(made.id)

    posting = channel if isinstance(channel, discord.abc.Messageable) else client.get_partial_messageable(
        int(channel_id), guild_id=int(guild_id) if guild_id.isdigit() else None)
    try:
        report = await leagues.continue_round(league_id, closed, place)
    except (RulesError, discord.Forbidden) as exc:
        # told once, not retried: a GM's /league round makes the games still missing
        why = exc.message if isinstance(exc, RulesError) else "I may not create threads here (I need Create Public Threads)"
        await posting.send(fit(f"⚠️ Round {closed} has closed and the next is paired, but its games could not be "
                               f"made: {names.text(why.rstrip('.'))}. A GM runs `/league round` once they can be."),
                           allowed_mentions=discord.AllowedMentions.none())
        return
    if report is None:
        return
    for member, text in told:
        await tell(client, member, f"🏆 {text}")
    # the standings after the round that closed, read before the computer captains play the new one:
    # their games may close it by themselves (a league of computers runs to its end here), and that
    # round's own post shows the standings after it, the league's last naming its champion
    table = await leagues.standings(guild_id, report.league.name)
    await play_computer_games(service, report, threads, drain)
    if report.started and not report.made:
        # a GM's /league round made this round's games before this post went out, and posted its tables
        report = dataclasses.replace(report, started=())
    number = report.started[0].round if report.started else closed
    info = await leagues.show(guild_id, report.league.name, round=number)
    await post_round(posting, report, info, table, automatic=True)
