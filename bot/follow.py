"""Following games by DM (/game follow, game/service/following.py): the follower's DMs, each with an
Unfollow button, and the answers of /game follow and /game unfollow.

Who may follow what (docs/bot.md, "Following games"): a follow is made from within a channel or
thread of a server, which Discord only lets a member use when they can see it. `/game follow` follows
the game there; `/game follow member:` follows that member's games played there (the bot cannot tell
which other channels the follower may view, so never the server's other channels). A follower's DM
shows what a spectator sees (Reading.board): never a hand, a sealed pick or a seat's private answer.

A follower who closed their DMs is unfollowed quietly: the DM is not tried again and no other follow
of theirs sends another. Discord answers a message to such a user (Create Message in a DM channel,
Discord's API reference, resources/message) with 403 and JSON error code 50007, "Cannot send
messages to this user" (Discord's JSON error codes table, topics/opcodes-and-status-codes#json-json-
error-codes; the fake Discord answers the same: tests/bot/fake_discord.py, `closed_dms`)."""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.actions import UNEXPECTED, defer, game_here, refusal, reply, service_of
from bot.dms import send_dm
from bot.follow_access import may_still_view
from bot.limits import fit
from bot.publish import account_text
from game import names
from game.errors import RulesError
from game.service import posts
from render.alt_text import board_alt
from render.options import RenderOptions
from render.overlays import last_attacks, last_move
from render.pooled import render_board_async

if TYPE_CHECKING:
    from game.service.frontend import Delivery as Row
    from game.service.game_service import GameInfo, GameService


class Delivering(Protocol):
    """What a follower's post needs of the courier's delivery (bot/outbox.py `Delivering`, which has
    these and more): named here rather than imported, since the outbox imports these handlers."""

    @property
    def service(self) -> GameService: ...
    @property
    def client(self) -> discord.Client: ...
    @property
    def row(self) -> Row: ...
    @property
    def info(self) -> GameInfo: ...
    @property
    def channel(self) -> discord.PartialMessageable: ...
    @property
    def nonce(self) -> str: ...  # the row's message nonce: a DM retried after a crash is not sent twice

log = logging.getLogger(__name__)
CLOSED_DMS = 50007  # Discord: "Cannot send messages to this user"


class UnfollowButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"qd:unfollow:(?P<follow>\d+):(?P<user>\d+)"):
    """Ends the follow its DM came from. The custom id names the follower: pressed by anyone else (a
    forged button) it ends nothing, and the service drops only the presser's own follows anyway."""

    def __init__(self, follow_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Unfollow", style=discord.ButtonStyle.secondary, emoji="🔕",
                                           custom_id=f"qd:unfollow:{follow_id}:{user_id}"))
        self.follow_id, self.user_id = follow_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> UnfollowButton:
        return cls(int(match["follow"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            await interaction.response.send_message("❌ That button ends someone else's follow.", ephemeral=True)
            return
        if not await defer(interaction):
            return
        try:
            dropped = await service_of(interaction).following.unfollow(str(self.user_id), self.follow_id)
        except Exception:
            log.exception("could not unfollow")
            await reply(interaction, UNEXPECTED)
            return
        await reply(interaction, "🔕 Unfollowed: no more DMs from it." if dropped else
                    "🔕 You no longer followed it.")


def unfollow_view(follow_id: int, user_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(UnfollowButton(follow_id, int(user_id)))
    return view


async def _dm(d: Delivering, user_id: str, **kwargs: Any) -> None:
    """Send a follower's DM; closed DMs end their follows quietly (nothing raised: nothing retried)."""
    try:
        await send_dm(d.client, int(user_id), nonce=d.nonce, **kwargs)
    except discord.HTTPException as exc:
        if exc.code != CLOSED_DMS:
            raise
        dropped = await d.service.following.drop_user(user_id)
        log.info("user %s does not take DMs: %s follows dropped", user_id, dropped)


async def _deliverable(d: Delivering, post: posts.FollowBoard | posts.FollowDigest) -> bool:
    """Whether the follower still follows and may still see the game's channel: a follower who left
    the server or lost the channel has the follow ended instead (bot/follow_access.py)."""
    if not post.user.isdigit() or not await d.service.following.still_follows(post.follow, post.user):
        return False  # unfollowed since the row was written
    if await may_still_view(d.client, d.info.guild_id, d.info.channel_id, post.user) is False:
        await d.service.following.unfollow(post.user, post.follow)
        log.info("user %s may no longer see game %s: follow %s ended", post.user, d.info.id, post.follow)
        return False
    return True


async def follow_board(d: Delivering, post: posts.FollowBoard) -> None:
    """A board post of a followed game, as a spectator sees it, in the follower's DM."""
    if not await _deliverable(d, post):
        return
    read = await d.service.reading.board(d.row.game_id, post.first, post.last)
    g = read.spectator.game
    head = (f"👁️ Game #{read.info.id} **{names.text(read.info.name)}**, turn {g.turn} {g.phase.value}: "
            f"{d.channel.jump_url}")
    events = list(read.events)
    body = "\n".join(x for x in (head, account_text(events, 1500) if events else "") if x)
    options = RenderOptions(last_move=last_move(events), last_attacks=last_attacks(events), rules=read.rules)
    png = await render_board_async(read.spectator, options)
    alt = board_alt(read.spectator, options.last_move, options.last_attacks)
    await _dm(d, post.user, content=fit(body), view=unfollow_view(post.follow, post.user),
              file=discord.File(io.BytesIO(png), filename=f"board-{read.info.id}.png", description=alt),
              allowed_mentions=discord.AllowedMentions.none())


async def follow_digest(d: Delivering, post: posts.FollowDigest) -> None:
    """One followed game's line of the daily digest."""
    if not await _deliverable(d, post):
        return
    text = f"📰 Game #{d.info.id} **{names.text(d.info.name)}**: {names.prose(post.text)}. {d.channel.jump_url}"
    await _dm(d, post.user, content=fit(text), view=unfollow_view(post.follow, post.user),
              allowed_mentions=discord.AllowedMentions.none())


async def follow_command(interaction: discord.Interaction, member: discord.Member | None,
                         digest_hour: int | None) -> None:
    """/game follow: this channel's game, or `member`'s games in this channel."""
    if not await defer(interaction):
        return
    if interaction.guild_id is None:
        await reply(interaction, "❌ Follow from within the game's channel or thread, in its server.")
        return
    if member is not None and member.bot:
        await reply(interaction, "❌ A bot plays no games of its own: follow a member, or this channel's game.")
        return
    service = service_of(interaction)
    try:
        gid = None if member is not None else await game_here(interaction, include_over=False)
        made = await service.following.follow(str(interaction.user.id), str(interaction.guild_id),
                                              str(interaction.channel_id), gid,
                                              str(member.id) if member is not None else None, digest_hour)
    except RulesError as exc:
        await reply(interaction, refusal(exc))
        return
    what = f"game #{gid}" if gid is not None else f"{names.text(member.display_name if member else '')}'s games here"
    how = (f"a digest each day at {made.digest_hour}:00 your time (`/clock hours` sets your zone)"
           if made.digest_hour is not None else "a DM at each new board")
    await reply(interaction, f"👁️ Following {what}: {how}. Each DM has an Unfollow button; `/game unfollow` "
                             "here ends the follows made in this channel.")


async def unfollow_command(interaction: discord.Interaction) -> None:
    """/game unfollow: the follows made in this channel (from a DM: every follow)."""
    if not await defer(interaction):
        return
    here = interaction.guild_id is not None
    dropped = await service_of(interaction).following.unfollow(
        str(interaction.user.id), guild_id=str(interaction.guild_id) if here else None,
        channel_id=str(interaction.channel_id) if here else None)
    await reply(interaction, f"🔕 {dropped} follow{'s' if dropped != 1 else ''} ended." if dropped else
                "You follow nothing from here.")
