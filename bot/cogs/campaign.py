"""/campaign: create, join, leave, battle, apply, ledger, show, end (docs/campaigns.md).

Every answer to the member who asked is private (the deferral is); what the campaign's members should
all see (a battle made, a carry-over applied) is posted in the channel. Everything a campaign decides
lives in the database (game/service/campaigns.py); the ledger's picture is drawn in a worker."""

from __future__ import annotations

import io
import logging
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import actor_of, answer, choices, defer, post_here, reply, service_of
from bot.cogs.squadron import saved_names
from bot.limits import fit, fit_lines, thread_name
from game import names
from game.campaign import MAX_POINTS, CarryOver, Picture, PictureMember, ship_state
from game.errors import RulesError
from game.service.campaigns import BattleInfo, CampaignInfo
from game.service.errors import ServiceError

log = logging.getLogger(__name__)

PAGE_CHARS = 1700  # a ledger page's lines: with its heading and the pointer to the next, one message
LINE_CHARS = 600  # a ledger line (a carry-over of many ships is long): at most this, so a page holds two
NAME_IN_LINE = 32


def _esc(text: str, limit: int = NAME_IN_LINE) -> str:
    return names.text(fit(text, limit))


async def campaign_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return choices(await service_of(interaction).campaigns.names(str(interaction.guild_id)), current)


def paged(lines: list[str], room: int = PAGE_CHARS) -> list[list[str]]:
    """Lines in pages of at most `room` characters, never splitting a line; always one page."""
    pages: list[list[str]] = [[]]
    used = 0
    for line in lines:
        if pages[-1] and used + len(line) + 1 > room:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += len(line) + 1
    return pages


def _battle_line(info: CampaignInfo, b: BattleInfo) -> str:
    sides = " v ".join(" & ".join(_esc(info.name_of(m)) for m in members) for _, members in b.sides)
    where = f"<#{b.channel_id}>" if b.channel_id.isdigit() else f"game #{b.game_id}"
    if b.status == "playing":  # nothing of a game under way: where it is played, no more
        return f"⚔️ Battle {b.number}: {sides}, being fought in {where}"
    won = f"side {b.winner} won" if b.winner else "a draw"
    result = f"{won} ({names.prose(fit(b.result, 100))})" if b.result else won
    applied = (f"; carry-over applied by {_esc(info.name_of(b.applied_by))}" if b.status == "applied"
               else f"; carry-over not yet applied (`/campaign apply battle: {b.number}`)")
    return f"🏁 Battle {b.number}: {sides}: {result}{applied}"


def _member_lines(info: CampaignInfo) -> list[str]:
    out = []
    for m in info.members:
        afloat = m.squadron.afloat
        damaged = sum(1 for s in afloat if s.damage)
        lost = len(m.squadron.ships) - len(afloat)
        out.append(f"• {_esc(m.name)}{' (left)' if m.left else ''}: {_esc(m.squadron.name, 40)}, "
                   f"{len(afloat)} ship{'s' if len(afloat) != 1 else ''} afloat"
                   f"{f' ({damaged} damaged)' if damaged else ''}{f', {lost} lost' if lost else ''}; "
                   f"{m.points} campaign point{'s' if m.points != 1 else ''}")
    return out


def _ship_lines(info: CampaignInfo) -> list[str]:
    return [f"• {_esc(m.name)}: " + "; ".join(f"{_esc(s.name, 40)} ({_esc(s.entry.cls, 30)}) {ship_state(s)}"
                                            for s in m.squadron.ships) for m in info.members]


def picture_of(info: CampaignInfo) -> Picture:
    applied = sum(1 for b in info.battles if b.status == "applied")
    subtitle = (f"after {applied} battle{'s' if applied != 1 else ''}" if applied else "before its first battle")
    if info.status == "over":
        subtitle += " · the campaign is over"
    return Picture(info.name, f"{info.size} squadrons {subtitle}",
                   tuple(PictureMember(m.name, m.points, m.left, m.squadron) for m in info.members))


async def _picture(info: CampaignInfo) -> discord.File:
    from render.pooled import campaign_png_async  # drawing stays out of the bot's start-up

    png, alt = await campaign_png_async(picture_of(info))
    return discord.File(io.BytesIO(png), filename="campaign.png", description=alt)


class CampaignCog(commands.GroupCog, name="campaign", description="Campaigns: a series of battles whose losses carry over"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(description="Create a campaign (GM): members join with saved squadrons of one size")
    @app_commands.describe(name="The campaign's name", size="The size of the squadrons its members bring")
    async def create(self, interaction: discord.Interaction, name: str,
                     size: Literal["patrol", "skirmish", "engagement"] = "skirmish") -> None:
        if not await defer(interaction):
            return
        try:
            info = await service_of(interaction).campaigns.create(
                await actor_of(interaction), str(interaction.channel_id), name, size)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        posted = await post_here(
            interaction, f"🗺️ The campaign **{_esc(info.name, 64)}** begins: {info.size} squadrons. Join with "
            + names.code(f"/campaign join name: {fit(info.name, 64)} squadron: YOUR LIST")
            + "; the campaign keeps its own copy of your squadron, and what it loses stays lost.")
        await reply(interaction, f"✅ {_esc(info.name, 64)} is created" + (
            " and announced here." if posted else ", but I could not announce it here (I need Send Messages)."))

    @app_commands.command(description="Join a campaign with one of your saved squadrons")
    @app_commands.describe(name="The campaign", squadron="The saved squadron you bring (the campaign keeps a copy)")
    @app_commands.autocomplete(name=campaign_names, squadron=saved_names)
    async def join(self, interaction: discord.Interaction, name: str, squadron: str) -> None:
        if not await defer(interaction):
            return
        try:
            member = await service_of(interaction).campaigns.join(
                await actor_of(interaction), name, squadron, interaction.user.display_name)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        await reply(interaction, f"✅ You joined {_esc(name, 64)} with {_esc(member.squadron.name, 64)} "
                                 f"({len(member.squadron.ships)} ships). The campaign keeps this copy: editing your "
                                 "saved list later changes nothing in it.")

    @app_commands.command(description="Leave a campaign: your squadron stays in its ledger, you fight no new battle")
    @app_commands.describe(name="The campaign")
    @app_commands.autocomplete(name=campaign_names)
    async def leave(self, interaction: discord.Interaction, name: str) -> None:
        if not await defer(interaction):
            return
        try:
            info = await service_of(interaction).campaigns.leave(await actor_of(interaction), name)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        await reply(interaction, f"✅ You left {_esc(info.name, 64)}. Its ledger keeps your squadron and points.")

    @app_commands.command(description="Make a battle between campaign members (GM), from their squadrons as they stand")
    @app_commands.describe(name="The campaign", a="A member on side A", b="A member on side B",
                           a2="Another member on side A (a fleet battle)", b2="Another member on side B",
                           thread="Play it in a new thread of this channel (else in this channel)")
    @app_commands.autocomplete(name=campaign_names)
    async def battle(self, interaction: discord.Interaction, name: str, a: discord.Member, b: discord.Member,
                     a2: discord.Member | None = None, b2: discord.Member | None = None, thread: bool = True) -> None:
        if not await defer(interaction):
            return
        service = service_of(interaction)
        channel = interaction.channel
        made: dict[str, discord.Thread] = {}

        async def place(title: str) -> str | None:
            if not thread:
                return None
            if not isinstance(channel, discord.TextChannel):
                raise RulesError("A battle's thread is made in a text channel.",
                                 "Run this in a text channel, or choose thread: False to play it here.")
            new = await channel.create_thread(name=thread_name(title), type=discord.ChannelType.public_thread)
            made[str(new.id)] = new
            return str(new.id)

        side_a = [str(m.id) for m in (a, a2) if m is not None]
        side_b = [str(m.id) for m in (b, b2) if m is not None]
        try:
            info = await service.campaigns.battle(await actor_of(interaction), name, side_a, side_b,
                                                  str(interaction.channel_id), place)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        except discord.Forbidden:
            await reply(interaction, "❌ I may not create threads here (I need Create Public Threads). Nothing was "
                                     "made; run it again once I may, or with thread: False.")
            return
        members = [*side_a, *side_b]
        text = (f"⚔️ **{_esc(name, 64)}**, battle {info.number}: "
                + " v ".join(" & ".join(f"<@{m}>" for m in side) for side in (side_a, side_b))
                + f" (game #{info.game_id}). Fight it here: what it costs carries over to the campaign.")
        where = made.get(info.channel_id) or interaction.client.get_partial_messageable(
            int(info.channel_id), guild_id=interaction.guild_id)
        try:
            await where.send(fit(text), allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(int(m)) for m in members if m.isdigit()]))
        except discord.HTTPException as exc:
            log.warning("could not announce campaign battle %s: %s", info.game_id, exc)
        await service.front.announce(info.game_id)  # the board and the status, through the outbox
        await cast(Any, self.bot).courier.drain(info.game_id)
        await reply(interaction, f"✅ Battle {info.number} is made: game #{info.game_id} in <#{info.channel_id}>.")

    @app_commands.command(description="Apply what carries over from an ended battle (GM), once")
    @app_commands.describe(name="The campaign", battle="The battle's number (see /campaign show)",
                           losses="Ships sunk or captured leave their squadron, or every ship comes home",
                           prizes="A captured ship joins its captor's squadron, or is lost to both",
                           damage="Damage kept into the next battle, or repaired",
                           fortune="Fortune reset to the list's, or what was left kept",
                           points_a="Campaign points for each member of side A",
                           points_b="Campaign points for each member of side B")
    @app_commands.autocomplete(name=campaign_names)
    async def apply(self, interaction: discord.Interaction, name: str, battle: app_commands.Range[int, 1, 100_000],
                    losses: Literal["leave", "return"] = "leave", prizes: Literal["captor", "none"] = "captor",
                    damage: Literal["repaired", "kept"] = "repaired", fortune: Literal["reset", "kept"] = "reset",
                    points_a: app_commands.Range[int, -MAX_POINTS, MAX_POINTS] = 0,
                    points_b: app_commands.Range[int, -MAX_POINTS, MAX_POINTS] = 0) -> None:
        if not await defer(interaction):
            return
        try:
            done = await service_of(interaction).campaigns.apply(
                await actor_of(interaction), name, battle, CarryOver(losses, prizes, damage, fortune),
                {"A": points_a, "B": points_b}, interaction.user.display_name)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        info = done.campaign
        lines = [f"🧾 **{_esc(info.name, 64)}**: the carry-over of battle {battle}, applied by "
                 f"{_esc(interaction.user.display_name)}", _battle_line(info, done.battle),
                 names.prose(CarryOver(losses, prizes, damage, fortune).said()).capitalize() + ".",
                 *(f"• {names.prose(line)}" for line in done.lines)]
        posted = await post_here(interaction, fit_lines(lines, " (see `/campaign ledger`)"), file=await _picture(info))
        await reply(interaction, f"✅ The carry-over of battle {battle} is applied" +
                    (" and posted here." if posted else "; I could not post it here (I need Send Messages)."))

    @app_commands.command(description="Read a campaign's ledger: battles, results, carry-overs, points and squadrons")
    @app_commands.describe(name="The campaign", page="Which page of the ledger (oldest first)")
    @app_commands.autocomplete(name=campaign_names)
    async def ledger(self, interaction: discord.Interaction, name: str,
                     page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        if not await defer(interaction):
            return
        try:
            ledger = await service_of(interaction).campaigns.ledger(str(interaction.guild_id), name)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        info = ledger.campaign
        entries = [f"`{line.at[:16].replace('T', ' ')}` {names.prose(fit(line.text, LINE_CHARS))}"
                   for line in ledger.lines]
        pages = paged([*entries, "**Now:**", *_member_lines(info)])
        if page > len(pages):
            await reply(interaction, f"❌ There is no page {page}: the ledger has {len(pages)} "
                                     f"page{'s' if len(pages) != 1 else ''}.")
            return
        head = (f"📜 **{_esc(info.name, 64)}**{' (over)' if info.status == 'over' else ''}: ledger page {page} of "
                f"{len(pages)}")
        more = ("\n(next: " + names.code(f"/campaign ledger name: {fit(info.name, 64)} page: {page + 1}") + ")"
                if page < len(pages) else "")
        text = "\n".join([head, *pages[page - 1]]) + more
        await reply(interaction, text, file=await _picture(info), allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(description="A campaign's members, squadrons and battles (empty: this server's campaigns)")
    @app_commands.describe(name="The campaign")
    @app_commands.autocomplete(name=campaign_names)
    async def show(self, interaction: discord.Interaction, name: str | None = None) -> None:
        if not await defer(interaction):
            return
        campaigns = service_of(interaction).campaigns
        if name is None:
            found = await campaigns.names(str(interaction.guild_id))
            await reply(interaction, fit_lines(["🗺️ Campaigns here:", *(f"• {_esc(n, 64)}" for n in found)])
                        if found else "No campaigns yet. A GM creates one with /campaign create.")
            return
        try:
            info = await campaigns.show(str(interaction.guild_id), name)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        lines = [f"🗺️ **{_esc(info.name, 64)}**: {info.size} squadrons, {len(info.members)} members, "
                 f"{len(info.battles)} battles{' (over)' if info.status == 'over' else ''}",
                 *_member_lines(info), *(_battle_line(info, b) for b in info.battles), *_ship_lines(info)]
        await reply(interaction, fit_lines(lines, " (see `/campaign ledger`)"),
                    allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(description="End a campaign (GM): no more battles; its ledger stays")
    @app_commands.describe(name="The campaign")
    @app_commands.autocomplete(name=campaign_names)
    async def end(self, interaction: discord.Interaction, name: str) -> None:
        if not await defer(interaction):
            return
        try:
            info = await service_of(interaction).campaigns.end(await actor_of(interaction), name)
        except (RulesError, ServiceError) as exc:
            await reply(interaction, answer(exc))
            return
        lines = [f"🏁 **{_esc(info.name, 64)}** is over. Campaign points:",
                 *(f"{i}. {_esc(m.name)}: {m.points}" for i, m in
                   enumerate(sorted(info.members, key=lambda m: -m.points), 1))]
        await post_here(interaction, fit_lines(lines, " (see `/campaign ledger`)"), file=await _picture(info))
        await reply(interaction, f"✅ {_esc(info.name, 64)} is over; its ledger stays.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CampaignCog(bot))
