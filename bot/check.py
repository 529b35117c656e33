"""`python -m bot --check`: whether the token works, which servers the bot is in, and what it may not
do in each channel and thread that has or had a game, in plain words, for the person who runs it.

Over Discord's REST API only (no gateway connection, so a check can run beside the running bot).
Permissions are computed the way Discord does, by discord.py's `permissions_for` from the server's
roles, the bot's member and the channel's overwrites; a thread has its parent's (Discord's
documentation, topics/permissions, "Permission Overwrites" and "Inherited Permissions (Threads)").

Exit status: 0 when every game channel is fine, 1 when one lacks a permission or cannot be reached,
2 when the check itself could not run (a token Discord refuses, no database, an unexpected error)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

import aiohttp
import discord

from game.service.results import GameChannel
from game.service.settings import Settings

OK, BAD, NOTE = "✅", "❌", "ℹ️"
SECTION = 'docs/hosting.md, "Checking the bot\'s permissions"'

# Discord's names for the flags, as its settings pages show them, in the order the guide lists them
NAMES = {
    "view_channel": "View Channel", "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads", "create_public_threads": "Create Public Threads",
    "attach_files": "Attach Files", "read_message_history": "Read Message History",
}
# What a game needs where it is played: in a channel, Send Messages; in a thread, Send Messages in
# Threads (Send Messages does not apply there). Attach Files follows from whichever of the two applies.
IN_CHANNEL = ("view_channel", "send_messages", "attach_files", "read_message_history")
IN_THREAD = ("view_channel", "send_messages_in_threads", "attach_files", "read_message_history")
# ...and where games are played in threads, the next one needs a thread of its own
TO_OPEN_THREADS = ("create_public_threads",)
SHOWN_GUILDS = 25  # a bot in hundreds of servers lists the first ones and how many more


@dataclass
class Place:
    """A text channel and the games played in it and in its threads."""

    channel: discord.abc.GuildChannel
    games: list[GameChannel] = field(default_factory=list)  # played in the channel itself
    threads: list[tuple[discord.Thread, list[GameChannel]]] = field(default_factory=list)


@dataclass
class Report:
    out: TextIO
    places: int = 0
    problems: int = 0

    def line(self, text: str) -> None:
        print(text, file=self.out)

    def place(self, ok: bool, text: str, counts: bool = True, channels: int = 1) -> None:
        """A game channel (or a server's `channels`): fine, a problem, or (counts False) only worth
        mentioning."""
        self.places += channels
        self.problems += not ok and counts
        self.line(f"  {OK if ok else BAD if counts else NOTE} {text}")


async def run_check(settings: Settings, out: TextIO) -> int:
    """The whole check, as `python -m bot --check` runs it; never raises."""
    try:
        return await _run(settings, Report(out))
    except aiohttp.ClientError as exc:
        print(f"error: cannot reach Discord ({_said(exc)})", file=out)
        return 2
    except Exception as exc:  # the one place that turns any failure into a line, never a traceback
        logging.getLogger(__name__).debug("the check failed", exc_info=True)
        print(f"error: {_said(exc)}", file=out)
        return 2


async def _run(settings: Settings, report: Report) -> int:
    # no gateway connection is made, so the intents only keep discord.py from warning about their absence
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        try:
            await client.login(settings.discord_token)
        except discord.LoginFailure:
            report.line(f"{BAD} token does not work: Discord answered 401 Unauthorized. Copy the token again from "
                        "the Developer Portal (Bot → Reset Token) into DISCORD_TOKEN.")
            return 2
        me = client.user
        assert me is not None  # login sets it
        report.line(f"{OK} token works: logged in as {me} (id {me.id})")
        games = await _games(settings, report)
        if games is None:
            return 2
        joined = [g async for g in client.fetch_guilds(limit=None)]
        _guilds_line(report, joined)
        by_guild: dict[str, list[GameChannel]] = {}
        for game in games:
            by_guild.setdefault(game.guild_id, []).append(game)
        for guild in joined:
            await _check_guild(client, me.id, guild.id, by_guild.pop(str(guild.id), []), report)
        for guild_id, gone in by_guild.items():  # servers that had games and no longer have the bot
            live = _live(gone)
            report.line(f"server {guild_id}: the bot is not in it")
            report.place(False, f"{_games_text(gone)}: {_reinvite(live)}", counts=live,
                         channels=len({g.channel_id for g in gone}))
        return _summary(report)
    finally:
        await client.close()


async def _games(settings: Settings, report: Report) -> list[GameChannel] | None:
    """The games' channels from the service, or None (and the reason said) if it cannot be read."""
    from game.service.opening import StorageUnreadable, game_channels_at, missing_database

    url = settings.database_url
    path = missing_database(url)
    if path is not None:  # opening it would make an empty one
        report.line(f"no database at {path} yet (DATABASE_URL): the bot has not run here, so no channel has a game")
        return []
    try:
        return await game_channels_at(url)
    except StorageUnreadable as exc:
        report.line(f"error: cannot read the games from DATABASE_URL ({_said(exc.cause)}). Has the bot started "
                    "with this DATABASE_URL before? Its first start makes the tables.")
        return None


def _guilds_line(report: Report, joined: Sequence[discord.Guild]) -> None:
    if not joined:
        report.line("guilds: 0 — the bot is in no server yet: invite it with the link in docs/hosting.md")
        return
    shown = ", ".join(f"{g.name} (id {g.id})" for g in joined[:SHOWN_GUILDS])
    more = f", and {len(joined) - SHOWN_GUILDS} more" if len(joined) > SHOWN_GUILDS else ""
    report.line(f"guilds: {len(joined)} — {shown}{more}")


async def _check_guild(client: discord.Client, bot_id: int, guild_id: int, games: list[GameChannel],
                       report: Report) -> None:
    guild = await client.fetch_guild(guild_id)  # with its roles and owner, which permissions come from
    if not games:
        report.line(f"{guild.name} (id {guild.id}): no games yet")
        return
    me = await guild.fetch_member(bot_id)
    places: dict[int, Place] = {}
    unreachable: list[tuple[str, list[GameChannel], str]] = []
    for where, here in _by_channel(games).items():
        is_thread = here[0].thread_id is not None
        found, why = await _fetch(guild, int(where))
        if found is None:
            unreachable.append((f"{'thread' if is_thread else 'channel'} {where}", here, why))
            continue
        if isinstance(found, discord.Thread):
            parent, why = await _parent(guild, found)
            if parent is None:
                unreachable.append((f"thread {found.name!r} (id {found.id})", here, why))
                continue
            places.setdefault(parent.id, Place(parent)).threads.append((found, here))
        else:
            places.setdefault(found.id, Place(found)).games.extend(here)
    report.line(f"{guild.name} (id {guild.id}): {_count(len(places) + len(unreachable), 'game channel')}")
    for place in sorted(places.values(), key=lambda p: (p.channel.position, p.channel.id)):
        _check_place(place, me, report)
    for label, here, why in unreachable:
        live = _live(here)
        report.place(False, f"{label} ({_games_text(here)}): {why}"
                     + ("" if live else "; its games are over, so nothing needs doing"), counts=bool(live))


def _check_place(place: Place, me: discord.Member, report: Report) -> None:
    """One text channel: what its games and the next ones need there, and its threads' own states."""
    here = place.channel.permissions_for(me)
    missing = [f for f in IN_CHANNEL if not getattr(here, f)] if place.games else []
    note = ""
    if place.threads:
        missing += [f for f in TO_OPEN_THREADS if not getattr(here, f)]
        inside = place.threads[0][0].permissions_for(me)  # every thread of a channel has its permissions
        missing += [f for f in IN_THREAD if not getattr(inside, f)]
    else:
        cannot = [f for f in (*TO_OPEN_THREADS, "send_messages_in_threads") if not getattr(here, f)]
        if cannot and not missing:
            note = f" (a game started with `thread: True` would need {_names(cannot)} too)"
    in_threads = [g for _, gs in place.threads for g in gs]
    label = f"#{place.channel.name} ({_games_text(place.games + in_threads, {g.game_id for g in in_threads})})"
    if missing:
        report.place(False, f"{label}: missing {_names(missing)}{_why(missing, me)}")
    else:
        report.place(True, f"{label}: every permission the games need{note}")
    for thread, gs in place.threads:
        if thread.locked and thread.archived and _live(gs) and not thread.permissions_for(me).manage_threads:
            # the thread was counted with its channel: this line is one more problem, not one more channel
            report.place(False, f"#{place.channel.name} › {thread.name} ({_games_text(gs)}): archived and locked by "
                                "a moderator: the bot cannot post there until a moderator unlocks it", channels=0)


async def _fetch(guild: discord.Guild, channel_id: int) -> tuple[discord.abc.GuildChannel | discord.Thread | None, str]:
    """The channel or thread, or None and why Discord would not give it."""
    try:
        return await guild.fetch_channel(channel_id), ""
    except discord.NotFound:
        return None, "deleted (Discord answers 404 Unknown Channel)"
    except discord.Forbidden:
        return None, "the bot cannot see it (Discord answers 403 Missing Access): give it View Channel there"
    except discord.InvalidData:
        return None, "Discord says it is not a channel of this server"


async def _parent(guild: discord.Guild, thread: discord.Thread) -> tuple[discord.abc.GuildChannel | None, str]:
    known = guild.get_channel(thread.parent_id)
    if known is not None:
        return known, ""
    fetched, why = await _fetch(guild, thread.parent_id)
    if fetched is None or isinstance(fetched, discord.Thread):
        return None, why or "its parent is not a channel"
    # Thread.permissions_for reads its parent from the server's cache, which a client that never
    # connects to the gateway does not fill: the parent fetched goes there
    guild._add_channel(fetched)  # type: ignore[arg-type]  # a thread's parent is a text or forum channel
    return fetched, ""


def _why(missing: Sequence[str], me: discord.Member) -> str:
    """Where to fix it: the channel's own settings deny what the bot's roles grant, or no role grants it."""
    granted = me.guild_permissions
    if all(getattr(granted, f) for f in missing):
        return " (the channel's permission settings deny it)" if len(missing) == 1 else \
            " (the channel's permission settings deny them)"
    if not any(getattr(granted, f) for f in missing):
        return " (no role of the bot grants it)" if len(missing) == 1 else " (no role of the bot grants them)"
    return ""


def _by_channel(games: Sequence[GameChannel]) -> dict[str, list[GameChannel]]:
    out: dict[str, list[GameChannel]] = {}
    for game in games:
        out.setdefault(game.channel_id, []).append(game)
    return out


def _live(games: Sequence[GameChannel]) -> bool:
    return any(not g.over for g in games)


def _games_text(games: Sequence[GameChannel], threaded: set[int] | None = None) -> str:
    ids = sorted({g.game_id for g in games})
    text = ", ".join(f"#{i}" + (" in a thread" if i in (threaded or ()) else "") for i in ids)
    return ("game " if len(ids) == 1 else "games ") + text


def _names(flags: Sequence[str]) -> str:
    wanted = dict.fromkeys(flags)
    return ", ".join(NAMES[f] for f in NAMES if f in wanted)


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _reinvite(live: bool) -> str:
    return ("invite it again with the link in docs/hosting.md, or the games there cannot go on" if live else
            "its games there are over, so nothing needs doing")


def _summary(report: Report) -> int:
    if report.problems:
        report.line(f"{BAD} {_count(report.problems, 'problem')} in {_count(report.places, 'game channel')}: "
                    f"{SECTION} says what to do.")
        return 1
    if not report.places:
        report.line(f"{OK} no channel has a game yet: nothing more to check.")
    else:
        report.line(f"{OK} the bot may do all it needs in every game channel ({report.places}).")
    return 0


def _said(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__

