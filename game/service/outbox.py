"""The outbox: what the bot owes Discord for each game, kept in the database.

Rows are written in the transaction that commits the game's events (Repository.append), so a crash
between the commit and the post loses nothing: a courier (bot/outbox.py) delivers them later, at least
once. Delivery is in order per game on three lanes:

- the channel lane (board posts, reminders, deadline notices, planned-order notes): strictly in order;
  a row that failed blocks the rows after it until it is delivered or given up;
- the status lane: only the newest status row of a game matters (the edit shows the state as it is
  when it goes out), so older ones are superseded, and one edit goes out per STATUS_GAP at most;
- DMs (nudges): each on its own, so a closed DM or a failing board post never holds a nudge back.

Claims take a lease (a claimer that dies lets the row fall due again) and are conditional updates,
after a `FOR UPDATE SKIP LOCKED` read on PostgreSQL (SQLite ignores it and serialises writers). A lease
names its owner, a process's identity that stays the same across its restarts: a restarted process
takes back at once the rows it held when it was killed (`reclaim`), while any other process waits out
the lease, since the owner may still be delivering (docs/service.md, "Outbox leases").
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from game.service.models import OutboxRow, utcnow

# the row form of a post, and where each kind waits its turn: the post types say (game/service/posts.py)
from game.service.posts import Post as Post
from game.service.posts import lane


class Claimed(Protocol):
    """A claimed row as delivered/failed/later_boards need it: the row itself, or what the service's
    front end (game/service/frontend.py) hands the courier instead."""

    @property
    def id(self) -> int | None: ...
    @property
    def game_id(self) -> int: ...
    @property
    def attempts(self) -> int: ...


# a delivery takes seconds; a claimer gone this long has died, or is stuck. Shorter than the few minutes
# Discord checks a message nonce for: a post tried again when its lease ends carries the nonce of a try
# less than a minute old, so a try that did reach Discord is answered with its message, not made twice
LEASE = timedelta(minutes=1)
STATUS_GAP = timedelta(seconds=3)  # at most one status edit per game this often
MAX_ATTEMPTS = 10
BACKOFF_BASE = 2.0  # seconds before the first retry; doubled each time
BACKOFF_CAP = 600.0
OPEN = ("pending", "running")


def _update() -> Any:
    # rows read in the same session hold naive datetimes on SQLite: nothing to synchronise with them
    return update(OutboxRow).execution_options(synchronize_session=False)


def backoff(attempts: int) -> timedelta:
    """How long before the next try after `attempts` failed ones."""
    return timedelta(seconds=min(BACKOFF_CAP, BACKOFF_BASE * 2 ** max(0, attempts - 1)))


def _due(now: datetime) -> Any:
    return or_(
        and_(col(OutboxRow.status) == "pending", col(OutboxRow.next_try_at) <= now),
        and_(col(OutboxRow.status) == "running", col(OutboxRow.locked_until) < now),
    )


async def games_due(s: AsyncSession, now: datetime) -> list[int]:
    """Games with a row that may go out now."""
    q = select(col(OutboxRow.game_id)).where(_due(now)).distinct()
    return sorted(int(g) for g in (await s.execute(q)).scalars())


async def _candidates(s: AsyncSession, game_id: int, now: datetime) -> list[OutboxRow]:
    """The rows of this game that may be claimed now, in the order they should go out."""
    rows = list((await s.execute(
        select(OutboxRow).where(col(OutboxRow.game_id) == game_id, col(OutboxRow.status).in_(OPEN))
        .order_by(col(OutboxRow.id))
    )).scalars())
    out: list[OutboxRow] = []
    channel = [r for r in rows if lane(r.kind) == "channel"]
    if channel and _is_due(channel[0], now):  # only the head: what follows waits for it
        out.append(channel[0])
    statuses = [r for r in rows if lane(r.kind) == "status"]
    if statuses and _is_due(statuses[-1], now) and not any(r.status == "running" and not _is_due(r, now)
                                                            for r in statuses):
        out.append(statuses[-1])
    out += [r for r in rows if lane(r.kind) == "dm" and _is_due(r, now)]
    return sorted(out, key=lambda r: r.id or 0)


def _aware(when: datetime | None) -> datetime | None:
    from datetime import UTC

    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


def _is_due(row: OutboxRow, now: datetime) -> bool:
    if row.status == "pending":
        nxt = _aware(row.next_try_at)
        return nxt is None or nxt <= now
    locked = _aware(row.locked_until)
    return row.status == "running" and locked is not None and locked < now


async def claim(s: AsyncSession, game_id: int, now: datetime, owner: str | None = None) -> OutboxRow | None:
    """Claim the next row of this game to deliver (in the caller's transaction) for `owner`, or None.
    Older status rows are superseded by the newest; a status edit too soon after the last one is put off."""
    for row in await _candidates(s, game_id, now):
        if row.kind == "status":
            await s.execute(_update().where(
                col(OutboxRow.game_id) == game_id, col(OutboxRow.kind) == "status",
                col(OutboxRow.status) == "pending", col(OutboxRow.id) < row.id).values(status="superseded"))
            last = _aware((await s.execute(select(func.max(OutboxRow.done_at)).where(
                col(OutboxRow.game_id) == game_id, col(OutboxRow.kind) == "status",
                col(OutboxRow.status) == "done"))).scalar())
            if last is not None and now - last < STATUS_GAP:
                await s.execute(_update().where(col(OutboxRow.id) == row.id, col(OutboxRow.status) == "pending")
                                .values(next_try_at=last + STATUS_GAP))
                continue
        # the read that found it may be stale (another process): the update claims it only if still due;
        # on PostgreSQL a row another claimer holds is passed over rather than waited for (SQLite has one writer)
        if s.sync_session.get_bind().dialect.name == "postgresql":
            locked = (await s.execute(
                select(col(OutboxRow.id)).where(col(OutboxRow.id) == row.id).with_for_update(skip_locked=True)
            )).scalar_one_or_none()
            if locked is None:
                continue
        claimed = await s.execute(
            _update().where(col(OutboxRow.id) == row.id, _due(now))
            .values(status="running", attempts=row.attempts + 1, locked_until=now + LEASE, owner=owner))
        if claimed.rowcount == 1:  # type: ignore[attr-defined]
            row.status, row.attempts, row.locked_until, row.owner = "running", row.attempts + 1, now + LEASE, owner
            if row.kind == "board":
                await _absorb(s, row)
            return row
    return None


async def _absorb(s: AsyncSession, head: OutboxRow) -> None:
    """The board rows that follow a claimed board row directly in the channel lane (the moves of
    computer captains, played one after another) join it: one post tells them all, under the newest
    board, instead of a post each (Discord allows a channel about five messages in five seconds). The
    head's range of events grows to cover theirs, so a failed post is retried with all of them."""
    later = (await s.execute(
        select(OutboxRow).where(col(OutboxRow.game_id) == head.game_id, col(OutboxRow.id) > head.id,
                                col(OutboxRow.status) == "pending").order_by(col(OutboxRow.id))
    )).scalars()
    joined: list[OutboxRow] = []
    for row in later:
        if lane(row.kind) != "channel":
            continue
        if row.kind != "board":
            break  # a notice keeps its place between the boards around it
        joined.append(row)
    taken: list[OutboxRow] = []
    for row in joined:  # one by one: a row another claimer changed ends the run, which stays in order
        done = await s.execute(_update().where(col(OutboxRow.id) == row.id, col(OutboxRow.status) == "pending")
                               .values(status="superseded"))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            break
        taken.append(row)
    if taken:
        head.payload = json.dumps(merged_range([json.loads(head.payload), *(json.loads(r.payload) for r in taken)]))
        await s.execute(_update().where(col(OutboxRow.id) == head.id).values(payload=head.payload))


def merged_range(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """The events of several board rows, first to last (a board with no new events has no range)."""
    ranged = [p for p in payloads if "first" in p]
    if not ranged:
        return {}
    return {"first": min(int(p["first"]) for p in ranged), "last": max(int(p["last"]) for p in ranged)}


async def reclaim(s: AsyncSession, owner: str, now: datetime) -> int:
    """A process starting again under `owner` frees the rows it held when it stopped: due now, in their
    places, so a game's later posts no longer queue behind a lease nobody will end. The try the stop cut
    short still counts (a row that kills its process each time is given up after MAX_ATTEMPTS). The
    cut-short try may have reached Discord: the retry carries the same nonce (bot/outbox.py), so Discord
    returns that message rather than making a second. The number of rows freed."""
    freed = await s.execute(_update().where(col(OutboxRow.status) == "running", col(OutboxRow.owner) == owner)
                            .values(status="pending", locked_until=None, owner=None, next_try_at=now))
    return int(freed.rowcount)  # type: ignore[attr-defined]


async def delivered(s: AsyncSession, row: Claimed, now: datetime) -> None:
    await s.execute(_update().where(col(OutboxRow.id) == row.id)
                    .values(status="done", locked_until=None, owner=None, done_at=now, last_error=""))


async def failed(s: AsyncSession, row: Claimed, error: str, now: datetime, retry_at: datetime | None) -> str:
    """Record a failed try: due again at `retry_at`, or given up (None, or too many tries). The status."""
    status = "pending" if retry_at is not None and row.attempts < MAX_ATTEMPTS else "failed"
    values: dict[str, Any] = {"status": status, "locked_until": None, "owner": None, "last_error": error[:2000]}
    if status == "pending":
        values["next_try_at"] = retry_at
    else:
        values["done_at"] = now
    await s.execute(_update().where(col(OutboxRow.id) == row.id).values(**values))
    return status


async def later_boards(s: AsyncSession, row: Claimed) -> int:
    """Board rows of the same game written after this one and not yet delivered."""
    found = await s.execute(select(func.count()).select_from(OutboxRow).where(
        col(OutboxRow.game_id) == row.game_id, col(OutboxRow.kind) == "board", col(OutboxRow.id) > row.id,
        col(OutboxRow.status).in_(OPEN)))
    return int(found.scalar_one())


async def rows_of(s: AsyncSession, game_id: int) -> list[OutboxRow]:
    return list((await s.execute(
        select(OutboxRow).where(col(OutboxRow.game_id) == game_id).order_by(col(OutboxRow.id)))).scalars())


def now_or(now: datetime | None) -> datetime:
    return now or utcnow()


async def backlog(s: AsyncSession, now: datetime) -> tuple[int, timedelta]:
    """The rows not yet delivered, and how long the longest-due of them has been due (zero when none
    is): a courier that runs keeps the second near zero, whatever the first."""
    count = (await s.execute(select(func.count()).select_from(OutboxRow)
                             .where(col(OutboxRow.status).in_(OPEN)))).scalar() or 0
    oldest = _aware((await s.execute(select(func.min(OutboxRow.next_try_at)).where(_due(now)))).scalar())
    return int(count), max(timedelta(0), now - oldest) if oldest is not None else timedelta(0)
