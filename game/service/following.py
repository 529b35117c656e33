"""Following games by DM (/game follow): a member follows the game of a channel, or another member's
games played in that channel, and gets the spectator's board at each board post, or a daily digest.

Who may follow what is decided where the follow is made: the bot takes the follow from within a
channel or thread, which the member could see (Discord delivered the command from it), and in the
server of the interaction. A member's games are followed in that channel or thread only (a game in a
thread is played at the thread's id, so a follow made in its parent channel does not reach it: the
thread may be private), never across the server: the bot cannot tell which other channels the
follower may view. What a follower gets is a spectator's view (Reading.board), never a hand or a sealed pick.

The DMs go through the outbox: when the courier delivers a game's board post it first writes one DM
row per follower (`fan_out`, keyed by the board row and the follower, so a board post retried writes
none twice); each DM is then delivered and retried on its own. A follower whose DMs are closed is
dropped (`drop_user`) rather than retried."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import delete, func, or_, select
from sqlmodel import col

from game.errors import RulesError
from game.service import posts
from game.service.models import EventRecord, Follow, GameRecord, PlayerClock, Seat, utcnow
from game.service.posts import FollowBoard, FollowDigest, stored
from game.service.scheduler import schedule
from game.service.store import GameStore

DIGEST_JOB = "follow_digest"
MAX_FOLLOWS = 25  # a member's follows: enough to watch friends, too few to flood anyone's DMs


@dataclass(frozen=True)
class Followed:
    """One follow as its follower may read it."""

    id: int
    game_id: int | None
    member_id: str | None
    channel_id: str
    digest_hour: int | None


def next_digest(hour: int, time_zone: str, now: datetime) -> datetime:
    """The next time it is `hour` o'clock in `time_zone` (UTC when the zone is unknown), after now."""
    try:
        zone = ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    at = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if at <= local:
        at = (local + timedelta(days=1)).replace(hour=hour, minute=0, second=0, microsecond=0)
    return at.astimezone(UTC)


def token(when: datetime | None) -> str:
    """A time as a digest job carries it: the same whether the database gave it back aware or not."""
    if when is None:
        return ""
    aware = when.replace(tzinfo=UTC) if when.tzinfo is None else when
    return aware.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")


class Following:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._repo = store.repo

    async def follow(self, user_id: str, guild_id: str, channel_id: str, game_id: int | None,
                     member_id: str | None, digest_hour: int | None) -> Followed:
        """Follow the game of this channel (`game_id`) or a member's games in it (`member_id`); following
        the same again changes only the digest hour."""
        if digest_hour is not None and not 0 <= digest_hour <= 23:
            raise RulesError("A digest hour is 0 to 23, in your time zone.", "Set your zone with /clock hours.")
        if member_id is not None and member_id == user_id:
            raise RulesError("You get your own games already.", "`/mygames` lists them.")
        async with self._repo.session() as s, s.begin():
            same = (await s.execute(select(Follow).where(
                col(Follow.user_id) == user_id, col(Follow.guild_id) == guild_id,
                col(Follow.channel_id) == channel_id, col(Follow.game_id) == game_id if game_id is not None
                else col(Follow.game_id).is_(None),
                col(Follow.member_id) == member_id if member_id is not None else col(Follow.member_id).is_(None),
            ))).scalar()
            if same is None:
                count = (await s.execute(select(func.count()).select_from(Follow)
                                         .where(col(Follow.user_id) == user_id))).scalar_one()
                if count >= MAX_FOLLOWS:
                    raise RulesError(f"You follow {MAX_FOLLOWS} games or members already.",
                                     "Unfollow one with `/game unfollow` or the button on its DM.")
                same = Follow(user_id=user_id, guild_id=guild_id, channel_id=channel_id, game_id=game_id,
                              member_id=member_id)
                s.add(same)
            same.digest_hour = digest_hour
            same.last_digest_at = stamp = utcnow() if digest_hour is not None else None
            await s.flush()
            zone = (await s.execute(select(col(PlayerClock.time_zone))
                                    .where(col(PlayerClock.user_id) == user_id))).scalar() or "UTC"
            assert same.id is not None
            made = Followed(same.id, same.game_id, same.member_id, same.channel_id, same.digest_hour)
        if digest_hour is not None:
            await schedule(self._repo, DIGEST_JOB, next_digest(digest_hour, zone, utcnow()), None,
                           {"follow": made.id, "hour": digest_hour, "since": token(stamp)})
        return made

    async def unfollow(self, user_id: str, follow_id: int | None = None, guild_id: str | None = None,
                       channel_id: str | None = None) -> int:
        """Drop the follower's own follows: one by its id (the DM's button), or those made in this
        channel (or every one, with no channel). How many were dropped; another's are never touched."""
        q = delete(Follow).where(col(Follow.user_id) == user_id)
        if follow_id is not None:
            q = q.where(col(Follow.id) == follow_id)
        if guild_id is not None:
            q = q.where(col(Follow.guild_id) == guild_id)
        if channel_id is not None:
            q = q.where(col(Follow.channel_id) == channel_id)
        async with self._repo.session() as s, s.begin():
            return int((await s.execute(q)).rowcount)  # type: ignore[attr-defined]

    async def drop_user(self, user_id: str) -> int:
        """Every follow of a member the bot cannot DM (closed DMs): quietly, never retried."""
        return await self.unfollow(user_id)

    async def mine(self, user_id: str) -> list[Followed]:
        async with self._repo.session() as s:
            rows = (await s.execute(select(Follow).where(col(Follow.user_id) == user_id)
                                    .order_by(col(Follow.id)))).scalars()
            return [Followed(r.id or 0, r.game_id, r.member_id, r.channel_id, r.digest_hour) for r in rows]

    async def followers(self, game_id: int) -> dict[str, int]:
        """Who gets a DM at each board of this game: follower → the follow that brings it (the game's
        own, or a member seated in it whose games are followed in the game's channel). Digest followers
        wait for their digest; the game's own players see the channel."""
        async with self._repo.session() as s:
            game = await s.get(GameRecord, game_id)
            if game is None:
                return {}
            seated = await self._seated(game_id)
            where = [col(Follow.game_id) == game_id]
            if seated:
                where.append(col(Follow.member_id).in_(seated) & (col(Follow.guild_id) == game.guild_id)
                             & (col(Follow.channel_id) == game.channel_id))  # a thread's game: the thread's id
            rows = (await s.execute(select(Follow).where(or_(*where), col(Follow.digest_hour).is_(None))
                                    .order_by(col(Follow.id)))).scalars()
            return {r.user_id: r.id or 0 for r in rows if r.user_id not in seated}

    async def fan_out(self, game_id: int, board_row: int, board: posts.Board) -> list[int]:
        """One DM row per follower for a board row being delivered (keyed: never twice for it). A
        board with no new events (/game status, which anyone may ask again and again) DMs nobody."""
        if board.first is None:
            return []
        rows = [stored(FollowBoard(user, follow, board.first, board.last))
                for user, follow in (await self.followers(game_id)).items()]
        keyed = [posts.Post(r.kind, r.payload, f"follow:{board_row}:{r.payload['user']}") for r in rows]
        return await self._repo.enqueue(game_id, keyed) if keyed else []

    async def _seated(self, game_id: int) -> set[str]:
        async with self._repo.session() as s:
            found = await s.execute(select(col(Seat.user_id)).where(col(Seat.game_id) == game_id))
            return {u for u in found.scalars() if u}

    async def still_follows(self, follow_id: int, user_id: str) -> bool:
        async with self._repo.session() as s:
            row = await s.get(Follow, follow_id)
            return row is not None and row.user_id == user_id

    async def digest(self, follow_id: int, hour: int, planned: str | None = None,
                     now: datetime | None = None) -> list[int]:
        """The daily digest of one follow: a DM row per followed game that moved since the last digest
        (how many events, and the game's status), then the next digest scheduled; the games written to. Nothing when the
        follow is gone or its hour changed (a newer job carries the new hour)."""
        now = now or utcnow()
        async with self._repo.session() as s, s.begin():
            row = await s.get(Follow, follow_id)
            # a job is the follow's only if it carries its last digest's time: following again (the same
            # hour too) plans a new job, and the old one then does nothing rather than double the digests
            if row is None or row.digest_hour != hour or (planned is not None and token(row.last_digest_at) != planned):
                return []
            since = row.last_digest_at or row.created_at
            if since.tzinfo is None:
                since = since.replace(tzinfo=UTC)
            q = select(GameRecord).where(col(GameRecord.guild_id) == row.guild_id)
            if row.game_id is not None:
                q = q.where(col(GameRecord.id) == row.game_id)
            else:
                q = q.where(col(GameRecord.channel_id) == row.channel_id)
            games = list((await s.execute(q)).scalars())
            zone = (await s.execute(select(col(PlayerClock.time_zone))
                                    .where(col(PlayerClock.user_id) == row.user_id))).scalar() or "UTC"
            row.last_digest_at = now
            user, fid = row.user_id, follow_id
        lines: list[tuple[int, str]] = []
        for g in games:
            assert g.id is not None
            if row.member_id is not None and row.member_id not in await self._seated(g.id):
                continue
            async with self._repo.session() as s:
                moved = (await s.execute(select(func.count()).select_from(EventRecord).where(
                    col(EventRecord.game_id) == g.id, col(EventRecord.created_at) > since))).scalar_one()
            if moved:
                lines.append((g.id, f"{moved} event{'s' if moved != 1 else ''} since the last digest; now {g.status}"))
        for gid, text in lines:
            await self._repo.enqueue(gid, [stored(FollowDigest(user, fid, text))])
        await schedule(self._repo, DIGEST_JOB, next_digest(hour, zone, now), None,
                       {"follow": fid, "hour": hour, "since": token(now)})
        return [gid for gid, _ in lines]
