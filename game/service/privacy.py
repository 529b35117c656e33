"""What the service keeps about a member, handed to them (`export`) or forgotten (`forget`), across
every server (docs/privacy.md).

Forgetting keeps every game playable and checkable: a seat, a log event, a league entry or a rating
of the member is kept under a pseudonym (`former:<n>`, a number of the former_members table that
holds no user id) and the name "former member"; what is theirs alone (their hours and vacation, saved
squadrons, planned and standing orders) is deleted. The game rules never read who acted, so the log
replays to the same states and the dice verify against the same seed; the stored states and
snapshots are rewritten alike, so the audit still finds them equal to the replay."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import and_, delete, or_, select, update
from sqlmodel import col

from game.service import orders_store
from game.service.models import (
    Campaign,
    CampaignBattle,
    CampaignEntry,
    CampaignMember,
    DmChannel,
    EventRecord,
    Follow,
    FormerMember,
    GameRecord,
    League,
    LeagueAction,
    LeagueEntry,
    LeagueGame,
    OutboxRow,
    PendingSecret,
    PlannedOrder,
    PlayerClock,
    Rating,
    RecordPrivacy,
    SavedSquadron,
    ScheduledJob,
    Seat,
    ServerTableEntry,
    Snapshot,
    StandingOrderRecord,
    utcnow,
)
from game.service.store import GameStore

FORMER_NAME = "former member"
SEAT_NAMES = ("before", "to")  # SeatHandedOver: the display names a side passed between


def scrub(value: Any, user_id: str, pseudonym: str, names: frozenset[str], key: str = "") -> Any:
    """A stored JSON value with the member taken out: their id (alone, or in a mention written into
    older wording) becomes the pseudonym, a display name of theirs where a handover names a side's
    player becomes "former member". Ids are Discord snowflakes (17 to 20 digits), so an equal string
    is theirs and nothing else."""
    if isinstance(value, dict):
        return {k: scrub(v, user_id, pseudonym, names, k) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, user_id, pseudonym, names, key) for v in value]
    if isinstance(value, str):
        if value == user_id:
            return pseudonym
        if key in SEAT_NAMES and value in names:
            return FORMER_NAME
        if user_id in value:  # a mention written into older wording; never part of a longer number
            # the wrapper of a mention the bot wrote into events stored before issue 23 (it is read
            # here only to be taken out: game/ writes no markup)
            value = re.sub(rf"<[@!]+{re.escape(user_id)}>", FORMER_NAME, value)
            return re.sub(rf"(?<!\d){re.escape(user_id)}(?!\d)", pseudonym, value)
    return value


def _rewritten(text: str, user_id: str, pseudonym: str, names: frozenset[str]) -> str:
    # written as the repository writes states and events (encode_state, encode_event)
    return json.dumps(scrub(json.loads(text), user_id, pseudonym, names), ensure_ascii=False, separators=(",", ":"))


class Privacy:
    def __init__(self, store: GameStore, forgotten: Callable[[str], None] = lambda user_id: None) -> None:
        self.store = store
        self._forgotten = forgotten  # what a part keeps of a member in memory (the clock's hours) is dropped

    async def export(self, user_id: str) -> dict[str, Any]:
        """Everything stored about the member, in every server, as JSON-ready data: the answer to
        /privacy export. The events they acted in are given by number only: a game's log belongs to
        all its players, and each may read it with /log and /game replay."""
        async with self.store.repo.session() as s:
            async def rows(q: Any) -> list[Any]:
                return list((await s.execute(q)).all())

            seats = await rows(select(Seat, GameRecord).join(GameRecord, col(GameRecord.id) == col(Seat.game_id))
                               .where(col(Seat.user_id) == user_id).order_by(col(Seat.game_id)))
            clock = (await s.execute(select(PlayerClock).where(col(PlayerClock.user_id) == user_id))).scalar()
            stand_in_for = await rows(select(col(PlayerClock.user_id)).where(col(PlayerClock.substitute) == user_id))
            squadrons = await rows(select(SavedSquadron).where(col(SavedSquadron.owner_id) == user_id)
                                   .order_by(col(SavedSquadron.guild_id), col(SavedSquadron.name)))
            planned = await rows(select(PlannedOrder).where(col(PlannedOrder.user_id) == user_id)
                                 .order_by(col(PlannedOrder.id)))
            standing = await rows(select(StandingOrderRecord).where(col(StandingOrderRecord.user_id) == user_id))
            entries = await rows(select(LeagueEntry, League).join(League, col(League.id) == col(LeagueEntry.league_id))
                                 .where(or_(col(LeagueEntry.member) == user_id, col(LeagueEntry.partner) == user_id)))
            pairings = await rows(select(LeagueGame).where(or_(col(LeagueGame.a_member) == user_id,
                                                               col(LeagueGame.b_member) == user_id)))
            ratings = await rows(select(Rating).where(col(Rating.member) == user_id))
            # organiser actions they took, or that concern them (a drop, a late entry)
            league_actions = await rows(select(LeagueAction).where(or_(col(LeagueAction.actor) == user_id,
                                                                       col(LeagueAction.subject) == user_id))
                                        .order_by(col(LeagueAction.id)))
            events = await rows(select(col(EventRecord.game_id), col(EventRecord.seq)).where(col(EventRecord.actor) == user_id)
                                .order_by(col(EventRecord.game_id), col(EventRecord.seq)))
            tables = await rows(select(ServerTableEntry).where(col(ServerTableEntry.entered_by) == user_id))
            hidden = await s.get(RecordPrivacy, user_id)
            follows = await rows(select(Follow).where(col(Follow.user_id) == user_id).order_by(col(Follow.id)))
            campaigns = await rows(select(CampaignMember, Campaign).join(Campaign, col(Campaign.id) ==
                                                                         col(CampaignMember.campaign_id))
                                   .where(col(CampaignMember.member) == user_id))
            dms = await rows(select(DmChannel).where(col(DmChannel.user_id) == user_id))
        acted: dict[int, list[int]] = {}
        for game_id, seq in events:
            acted.setdefault(game_id, []).append(seq)
        return {
            "format": "quarterdeck-privacy-export/1",
            "user_id": user_id,
            "exported_at": utcnow().isoformat(),
            "seats": [{"game": g.id, "server": g.guild_id, "game_name": g.name, "status": g.status,
                       "side": seat.player, "display_name": seat.display_name} for seat, g in seats],
            "hours": None if clock is None else {
                "time_zone": clock.time_zone, "quiet_from": clock.quiet_from, "quiet_to": clock.quiet_to,
                "away_until": clock.away_until.isoformat() if clock.away_until else None,
                "away_mode": clock.away_mode, "substitute": clock.substitute, "windows": clock.windows},
            "named_as_stand_in_by": len(stand_in_for),  # other members' choices: counted, not named
            "saved_squadrons": [{"server": q.guild_id, "name": q.name, "size": q.size, "faction": q.faction,
                                 "points": q.points, "complete": q.complete, "text": q.text} for (q,) in squadrons],
            "planned_orders": [{"game": o.game_id, "side": o.player, "line": o.line, "status": o.status,
                                "note": o.note} for (o,) in planned],
            "standing_orders": [{"game": o.game_id, "side": o.player, "orders": o.body} for (o,) in standing],
            "league_entries": [{"server": lg.guild_id, "league": lg.name, "name": e.name, "squadron": e.squadron,
                                "dropped": e.dropped_at is not None}
                               | ({"team_partner": True, "partner_name": e.partner_name} if e.partner == user_id else {})
                               for e, lg in entries],
            "league_games": [{"league": p.league_id, "round": p.round, "table": p.table_no, "game": p.game_id,
                              "status": p.status, "won": None if p.winner is None else p.winner == user_id}
                             for (p,) in pairings],
            "ratings": [{"server": r.guild_id, "name": r.name, "mu": r.mu, "sigma": r.sigma, "games": r.games}
                        for (r,) in ratings],
            "league_actions": [{"league": a.league_id, "by_them": a.actor == user_id, "action": a.action,
                                "note": a.note, "at": a.at.isoformat()} for (a,) in league_actions],
            "events_acted_in": [{"game": g, "events": seqs} for g, seqs in acted.items()],
            "table_entries": [{"server": t.guild_id, "system": t.system, "table": t.table_name, "row": t.row_key,
                               "column": t.column_key, "value": t.value} for (t,) in tables],
            "record_hidden": [] if hidden is None else [c for c in hidden.hidden.split(",") if c],
            "follows": [{"server": f.guild_id, "channel": f.channel_id, "game": f.game_id, "member": f.member_id,
                         "digest_hour": f.digest_hour} for (f,) in follows],
            "campaigns": [{"server": c.guild_id, "campaign": c.name, "name": m.name, "points": m.points,
                           "left": m.left_at is not None, "squadron": json.loads(m.squadron)} for m, c in campaigns],
            # the channel the bot sends their DMs to, kept so a restart need not open it again
            "dm_channels": [{"channel": d.channel_id, "opened_at": d.opened_at.isoformat()} for (d,) in dms],
        }

    async def forget(self, user_id: str, known_names: Iterable[str] = ()) -> str:
        """Take the member out of everything stored, in one transaction; their pseudonym (`former:<n>`).
        A game under way goes on: their side keeps its pieces under "former member", free for a GM to
        hand over (/game handover); a seat of a game not yet started is simply free again.

        A handover in a log names a side's players by display name only: the names they hold now (their
        seats', their league entries', and `known_names`, what Discord calls them as they ask) are taken
        out of it; a name they had at a handover and have changed since cannot be told from anyone's."""
        if not user_id or user_id.startswith(("former:", "ai:")):
            raise ValueError(f"not a member's id: {user_id!r}")
        repo = self.store.repo
        async with repo.session() as s, s.begin():
            former = FormerMember()
            s.add(former)
            await s.flush()
            pseudonym = f"former:{former.id}"
            seats = (await s.execute(select(Seat).where(col(Seat.user_id) == user_id))).scalars().all()
            names = frozenset(n for n in (*known_names, *(seat.display_name for seat in seats)) if n) | frozenset(
                (await s.execute(select(col(LeagueEntry.name)).where(col(LeagueEntry.member) == user_id))).scalars()
            ) | frozenset((await s.execute(select(col(CampaignMember.name))
                                           .where(col(CampaignMember.member) == user_id))).scalars())
            # the games that hold them anywhere: their seats, the log's actors, a mention in an event, or
            # a handover naming them (a side a GM gave away before they played holds only their name)
            named = [col(EventRecord.payload).contains(json.dumps(n, ensure_ascii=False), autoescape=True) for n in names]
            handovers = [and_(col(EventRecord.type) == "SeatHandedOver", or_(*named))] if named else []
            games = {seat.game_id for seat in seats} | set((await s.execute(
                select(col(EventRecord.game_id)).where(or_(col(EventRecord.actor) == user_id,
                                                           col(EventRecord.payload).contains(user_id),
                                                           *handovers)))).scalars())
            status = {g: st for g, st in (await s.execute(select(col(GameRecord.id), col(GameRecord.status))
                                                         .where(col(GameRecord.id).in_(games)))).all()}
            for seat in seats:
                if status.get(seat.game_id) == "open":  # not started: anyone may join the side
                    seat.user_id, seat.display_name = None, ""
                else:
                    seat.user_id, seat.display_name = pseudonym, FORMER_NAME
            await self._rewrite_games(s, sorted(games), user_id, pseudonym, names)
            await s.execute(update(PendingSecret).where(col(PendingSecret.user_id) == user_id).values(user_id=pseudonym))
            await s.execute(update(ScheduledJob).where(col(ScheduledJob.holder) == user_id).values(holder=pseudonym))
            # a reminder's payload names whom it pings: the side's reminders and deadlines keep running
            for job in (await s.execute(select(ScheduledJob).where(col(ScheduledJob.payload).contains(user_id)))).scalars():
                job.payload = _rewritten(job.payload, user_id, pseudonym, names)
            for table, column in ((PlannedOrder, PlannedOrder.user_id), (StandingOrderRecord, StandingOrderRecord.user_id),
                                  (PlayerClock, PlayerClock.user_id), (SavedSquadron, SavedSquadron.owner_id),
                                  (RecordPrivacy, RecordPrivacy.user_id), (DmChannel, DmChannel.user_id)):
                await s.execute(delete(table).where(col(column) == user_id))
            # their follows, and others' follows of them (which name them): gone, not pseudonymised
            await s.execute(delete(Follow).where(or_(col(Follow.user_id) == user_id, col(Follow.member_id) == user_id)))
            # another member who named them as a stand-in: their time away now just stops their clock
            await s.execute(update(PlayerClock).where(col(PlayerClock.substitute) == user_id)
                            .values(substitute=None, away_mode="stop"))
            await self._leagues(s, user_id, pseudonym)
            await self._campaigns(s, user_id, pseudonym, names)
            await s.execute(update(ServerTableEntry).where(col(ServerTableEntry.entered_by) == user_id)
                            .values(entered_by=pseudonym, entered_by_name=FORMER_NAME))
            # posts delivered (or given up) keep nothing of them; one still to go out, or going out now,
            # is delivered as written: the courier would retry an emptied one forever
            await s.execute(update(OutboxRow).where(col(OutboxRow.payload).contains(user_id),
                                                    col(OutboxRow.status).in_(("done", "superseded", "failed")))
                            .values(payload="{}"))
        for game_id in games:
            self.store.forget(game_id)
        orders_store.forget_stand_ins(repo)  # their hours are gone, and none names them a stand-in now
        self._forgotten(user_id)
        return pseudonym

    @staticmethod
    async def _rewrite_games(s: Any, games: Iterable[int], user_id: str, pseudonym: str,
                             names: frozenset[str]) -> None:
        """Each game's log, snapshots, stored state and waits without the member; its version moves on,
        so a process holding the game loaded reads it again, and a command in flight is retried."""
        for game_id in games:
            record = (await s.execute(select(GameRecord).where(col(GameRecord.id) == game_id))).scalar_one()
            record.initial_state = _rewritten(record.initial_state, user_id, pseudonym, names)
            record.waits = _rewritten(record.waits or "{}", user_id, pseudonym, names)
            record.version += 1
            for event in (await s.execute(select(EventRecord).where(col(EventRecord.game_id) == game_id))).scalars():
                if event.actor == user_id:
                    event.actor = pseudonym
                if user_id in event.payload or (names and event.type == "SeatHandedOver"):
                    event.payload = _rewritten(event.payload, user_id, pseudonym, names)
            for snap in (await s.execute(select(Snapshot).where(col(Snapshot.game_id) == game_id,
                                                                col(Snapshot.state).contains(user_id)))).scalars():
                snap.state = _rewritten(snap.state, user_id, pseudonym, names)

    @staticmethod
    async def _campaigns(s: Any, user_id: str, pseudonym: str, names: frozenset[str]) -> None:
        """Their campaign squadrons, points and ledger lines stay under the pseudonym and "former
        member"; a campaign takes them into no new battle (as if they had left)."""
        for m in (await s.execute(select(CampaignMember).where(col(CampaignMember.member) == user_id))).scalars():
            m.member, m.name = pseudonym, FORMER_NAME
            m.squadron = _rewritten(m.squadron, user_id, pseudonym, names)
            m.left_at = m.left_at or utcnow()
        for b in (await s.execute(select(CampaignBattle))).scalars():
            if user_id in b.start or user_id in (b.applied_by, b.created_by):
                b.start = _rewritten(b.start, user_id, pseudonym, names)
                b.applied_by = pseudonym if b.applied_by == user_id else b.applied_by
                b.created_by = pseudonym if b.created_by == user_id else b.created_by
        for line in (await s.execute(select(CampaignEntry))).scalars():
            if line.actor == user_id:
                line.actor = pseudonym
            text = re.sub(rf"(?<!\d){re.escape(user_id)}(?!\d)", pseudonym, line.text)
            for name in sorted(names, key=len, reverse=True):  # a ledger line names members by name
                text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", FORMER_NAME, text)
            line.text = text
        await s.execute(update(Campaign).where(col(Campaign.created_by) == user_id).values(created_by=pseudonym))

    @staticmethod
    async def _leagues(s: Any, user_id: str, pseudonym: str) -> None:
        """Their results stay in the standings under the pseudonym; a league still running never pairs
        them again (as a GM's /league drop would)."""
        running = select(col(League.id)).where(col(League.status) != "over")
        await s.execute(update(LeagueEntry).where(col(LeagueEntry.member) == user_id,
                                                  col(LeagueEntry.league_id).in_(running),
                                                  col(LeagueEntry.dropped_at).is_(None))
                        .values(dropped_at=utcnow(), dropped_by=pseudonym, drop_reason="the member left (privacy)"))
        await s.execute(update(LeagueEntry).where(col(LeagueEntry.member) == user_id)
                        .values(member=pseudonym, name=FORMER_NAME, squadron=""))
        # a team league's partner: a team that lost a member who played for it cannot play on (it is
        # dropped, as a GM's drop of either member drops it); one who was only named leaves it waiting
        await s.execute(update(LeagueEntry).where(col(LeagueEntry.partner) == user_id,
                                                  col(LeagueEntry.partner_joined),
                                                  col(LeagueEntry.league_id).in_(running),
                                                  col(LeagueEntry.dropped_at).is_(None))
                        .values(dropped_at=utcnow(), dropped_by=pseudonym, drop_reason="a member left (privacy)"))
        await s.execute(update(LeagueEntry).where(col(LeagueEntry.partner) == user_id)
                        .values(partner=pseudonym, partner_name=FORMER_NAME))
        await s.execute(update(LeagueEntry).where(col(LeagueEntry.dropped_by) == user_id).values(dropped_by=pseudonym))
        await s.execute(update(League).where(col(League.created_by) == user_id).values(created_by=pseudonym))
        # the league's action log keeps what was done, by and to whom, under the pseudonym
        await s.execute(update(LeagueAction).where(col(LeagueAction.actor) == user_id).values(actor=pseudonym))
        await s.execute(update(LeagueAction).where(col(LeagueAction.subject) == user_id).values(subject=pseudonym))
        for column in ("a_member", "b_member", "winner", "claim"):
            await s.execute(update(LeagueGame).where(getattr(LeagueGame, column) == user_id)
                            .values({column: pseudonym}))
        await s.execute(update(Rating).where(col(Rating.member) == user_id).values(member=pseudonym, name=FORMER_NAME))
