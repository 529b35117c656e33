"""Campaigns, stored: a server's named series of battles among a group (docs/campaigns.md).

A member joins with one of their saved squadrons, and the campaign keeps its own copy from that
moment: editing or deleting the saved list afterwards changes nothing here. A GM makes each battle,
a normal game between chosen members, from their campaign squadrons as they stand (game/campaign.py),
and once its game has ended applies what carries over, chosen from a short list. Every change is a
line of the campaign's ledger, which anyone in the server may read: it holds only what the campaign
itself knows between battles, never anything of a game under way.

Two GMs applying at once: the battle is claimed (playing -> applied) and the campaign's version
bumped against the one read, in the one transaction that writes the squadrons; whoever comes second
is refused and nothing of theirs is written.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from game import names
from game.campaign import (
    CampaignError,
    CampaignSquadron,
    CarryOver,
    Roster,
    battle_start,
    carry_over,
    from_list,
)
from game.model import Game, Phase
from game.rules_data import RulesData
from game.service.authority import Actor, require_gm
from game.service.errors import ServiceRefusal
from game.service.frontend import FrontEnd
from game.service.guild_data import GuildData
from game.service.lobby import Lobby
from game.service.models import Campaign, CampaignBattle, CampaignEntry, CampaignMember, GameRecord, utcnow
from game.service.posts import CampaignBattleOver
from game.service.reading import Reading
from game.service.store import GameStore
from game.squadron import SIZES, SquadronError, parse_squadron

log = logging.getLogger(__name__)

MAX_CAMPAIGN_NAME = 64
MAX_MEMBERS = 64
Place = Callable[[str], Awaitable[str | None]]  # a battle's title -> the thread it is played in (or None)


class CampaignRefused(ServiceRefusal):
    code = "campaign-refused"


@dataclass(frozen=True)
class MemberInfo:
    member: str
    name: str
    points: int
    left: bool
    squadron: CampaignSquadron


@dataclass(frozen=True)
class BattleInfo:
    number: int
    game_id: int
    channel_id: str  # where its game is played (a thread, or the campaign's channel)
    sides: tuple[tuple[str, tuple[str, ...]], ...]  # ("A", member ids), ("B", member ids)
    status: str  # playing | over (its game ended, nothing applied yet) | applied
    result: str  # the game's result once over ("" before)
    winner: str  # the winning side, "A" or "B" ("" for a draw or before the end)
    applied_by: str  # the GM who applied the carry-over (a member id)


@dataclass(frozen=True)
class CampaignInfo:
    id: int
    name: str
    guild_id: str
    channel_id: str
    size: str
    status: str  # open | over
    members: tuple[MemberInfo, ...]
    battles: tuple[BattleInfo, ...]

    def name_of(self, member: str) -> str:
        return next((m.name for m in self.members if m.member == member), member)


@dataclass(frozen=True)
class LedgerLine:
    at: str  # ISO time, UTC
    kind: str
    text: str


@dataclass(frozen=True)
class Ledger:
    campaign: CampaignInfo
    lines: tuple[LedgerLine, ...]


@dataclass(frozen=True)
class Applied:
    campaign: CampaignInfo
    battle: BattleInfo
    lines: tuple[str, ...]  # what happened to the ships, then the points


class Campaigns:
    """The campaign part of the service; it keeps no state of its own."""

    def __init__(self, store: GameStore, data: GuildData, reading: Reading, lobby: Lobby, front: FrontEnd) -> None:
        self.store = store
        self.data = data
        self.reading = reading
        self.lobby = lobby
        self.front = front
        self.session = store.repo.session
        store.when_over(self._ended)

    async def _ended(self, record: GameRecord, state: Game) -> None:
        """A campaign battle's game has ended: its channel is told which battle it was and that a GM
        now applies the carry-over. A failure here never undoes the ending; the ledger shows the
        battle as over, waiting for its carry-over, either way."""
        if record.id is None:
            return
        try:
            async with self.session() as s:
                found = (await s.execute(
                    select(col(Campaign.name), col(CampaignBattle.number))
                    .join(CampaignBattle, col(CampaignBattle.campaign_id) == col(Campaign.id))
                    .where(col(CampaignBattle.game_id) == record.id))).first()
            if found is not None:
                await self.front.post(record.id, CampaignBattleOver(found[0], found[1]))
        except Exception:
            log.exception("could not tell game %s's channel that its campaign battle is over", record.id)

    # ------------------------------------------------------------------ GM: create, battle, apply, end

    async def create(self, actor: Actor, channel_id: str, name: str, size: str = "skirmish") -> CampaignInfo:
        require_gm(actor, "create a campaign")
        name = " ".join(name.split())
        if not 1 <= len(name) <= MAX_CAMPAIGN_NAME:
            raise CampaignRefused(f"A campaign needs a name of 1 to {MAX_CAMPAIGN_NAME} characters.")
        if size not in SIZES:
            raise CampaignRefused(f"There is no game size {size[:20]!r}.", f"Sizes: {', '.join(SIZES)}.")
        taken = CampaignRefused(f"This server already has a campaign called {name!r}.", "Choose another name.")
        if await self._find(actor.guild_id, name) is not None:
            raise taken
        try:
            async with self.session() as s, s.begin():
                row = Campaign(guild_id=actor.guild_id, channel_id=channel_id, name=name, size=size,
                               created_by=actor.user_id)
                s.add(row)
                await s.flush()
                assert row.id is not None
                s.add(CampaignEntry(campaign_id=row.id, kind="created", actor=actor.user_id,
                                    text=f"The campaign {name} begins: {size} squadrons."))
        except IntegrityError:
            raise taken from None
        return await self.show(actor.guild_id, name)

    async def battle(self, actor: Actor, campaign: str, side_a: Sequence[str], side_b: Sequence[str],
                     channel_id: str, place: Place | None = None) -> BattleInfo:
        """A battle between members of the campaign, each side one or more of them, from their campaign
        squadrons as they stand; its game is made in a thread (`place`) or the channel, and seated."""
        require_gm(actor, "make a campaign battle")
        cp = await self._open(actor.guild_id, campaign)
        assert cp.id is not None
        info = await self._info(cp)
        members = {m.member: m for m in info.members}
        for who in (*side_a, *side_b):
            found = members.get(who)
            if found is None:
                raise CampaignRefused(f"{names.member(who[:20])} is not a member of {cp.name}.",
                                      "Members join with /campaign join; /campaign show lists them.")
            if found.left:
                raise CampaignRefused(f"{found.name} has left {cp.name}.", "Choose members still in the campaign.")
            busy = next((b for b in info.battles if b.status != "applied"
                         and any(who in ms for _, ms in b.sides)), None)
            if busy is not None:
                raise CampaignRefused(f"{found.name} is still in battle {busy.number} of {cp.name}.",
                                      f"Apply its carry-over first (/campaign apply battle: {busy.number}).")
        number = 1 + max((b.number for b in info.battles), default=0)
        title = f"{cp.name}: battle {number}"
        sides = ([members[m].squadron for m in side_a], [members[m].squadron for m in side_b])
        try:  # refused before a thread is opened for it
            start = battle_start(title, *sides, await self._rules(actor.guild_id))
        except CampaignError as exc:
            raise CampaignRefused(exc.message, exc.allowed) from None

        def made(rules: RulesData) -> Game:
            nonlocal start  # the ships as the rules the game keeps build them (a server's data, this version)
            start = battle_start(title, *sides, rules)
            return start.state

        thread = await place(title) if place is not None else None
        game = await self.lobby.create_from(actor, channel_id, made, thread_id=thread)
        try:
            async with self.session() as s, s.begin():
                await self._bump(s, cp)
                s.add(CampaignBattle(campaign_id=cp.id, number=number, game_id=game.id, channel_id=game.channel_id,
                                     start=json.dumps(start.roster.to_json()),
                                     created_by=actor.user_id))
                said = " against ".join(" & ".join(members[m].name for m in side) for side in (side_a, side_b))
                s.add(CampaignEntry(campaign_id=cp.id, kind="battle", actor=actor.user_id,
                                    text=f"Battle {number} (game #{game.id}): {said}."))
        except IntegrityError:
            raise _changed(cp) from None
        for player, member in start.roster.players:
            await self.lobby.join(Actor(member, actor.guild_id), game.id, player, members[member].name)
        return next(b for b in (await self._info(cp)).battles if b.number == number)

    async def apply(self, actor: Actor, campaign: str, number: int, choice: CarryOver,
                    side_points: Mapping[str, int] | None = None, display_name: str = "") -> Applied:
        """What carries over from an ended battle, chosen by a GM, applied once. `side_points` gives
        each member of side A or B those campaign points (added to `choice.points`)."""
        require_gm(actor, "apply a campaign battle's carry-over")
        cp = await self._campaign(actor.guild_id, campaign)
        assert cp.id is not None
        info = await self._info(cp)
        battle = next((b for b in info.battles if b.number == number), None)
        if battle is None:
            raise CampaignRefused(f"{cp.name} has no battle {number}.", "/campaign ledger lists its battles.")
        if battle.status == "applied":
            raise _applied(cp, battle, info)
        if battle.status != "over":
            raise CampaignRefused(f"Battle {number} of {cp.name} has not ended yet (game #{battle.game_id}).",
                                  "Apply its carry-over once its game is over.")
        row = await self._battle_row(cp, number)
        start = _start_of(row.start)
        points = dict(choice.points)
        for side, amount in (side_points or {}).items():
            for player, member in start.players:
                if player[0] == side:
                    points[member] = points.get(member, 0) + amount
        choice = CarryOver(choice.losses, choice.prizes, choice.damage, choice.fortune, tuple(points.items()))
        final = await self._final(battle.game_id)
        squadrons = {m.member: m.squadron for m in info.members}
        try:
            carried = carry_over(squadrons, final, start, choice, number, {m.member: m.name for m in info.members})
        except CampaignError as exc:
            raise CampaignRefused(exc.message, exc.allowed) from None
        named = {m.member: m.name for m in info.members}
        by = named.get(actor.user_id) or " ".join(display_name.split())[:100] or "A GM"
        awarded = [f"{named.get(m, m)} gains {p} campaign point{'s' if p != 1 else ''}." for m, p in points.items() if p]
        async with self.session() as s, s.begin():
            claimed = cast(CursorResult[Any], await s.execute(
                update(CampaignBattle).where(col(CampaignBattle.id) == row.id, col(CampaignBattle.status) == "playing")
                .values(status="applied", applied_by=actor.user_id, applied_at=utcnow(), result=battle.result[:200],
                        winner=battle.winner)))
            if claimed.rowcount != 1:
                raise _applied(cp, battle, await self._info(cp))
            await self._bump(s, cp)
            for sq in carried.squadrons:
                await s.execute(update(CampaignMember).where(col(CampaignMember.campaign_id) == cp.id,
                                                             col(CampaignMember.member) == sq.member)
                                .values(squadron=json.dumps(sq.to_json())))
            for member, amount in points.items():
                await s.execute(update(CampaignMember).where(col(CampaignMember.campaign_id) == cp.id,
                                                             col(CampaignMember.member) == member)
                                .values(points=CampaignMember.points + amount))
            text = (f"Battle {number}: {battle.result or 'ended'}. {by} applied the "
                    f"carry-over: {choice.said()}. " + " ".join([*carried.lines, *awarded]))
            s.add(CampaignEntry(campaign_id=cp.id, kind="carry", actor=actor.user_id, text=text[:1000]))
        after = await self._info(cp)
        return Applied(after, next(b for b in after.battles if b.number == number), (*carried.lines, *awarded))

    async def end(self, actor: Actor, campaign: str) -> CampaignInfo:
        require_gm(actor, "end a campaign")
        cp = await self._open(actor.guild_id, campaign)
        assert cp.id is not None
        async with self.session() as s, s.begin():
            await self._bump(s, cp)
            await s.execute(update(Campaign).where(col(Campaign.id) == cp.id).values(status="over"))
            s.add(CampaignEntry(campaign_id=cp.id, kind="ended", actor=actor.user_id, text=f"{cp.name} is over."))
        return await self.show(actor.guild_id, cp.name)

    # ------------------------------------------------------------------ members: join, leave

    async def join(self, actor: Actor, campaign: str, squadron: str, display_name: str = "") -> MemberInfo:
        """Join with one of the actor's saved squadrons of the campaign's size: the campaign keeps its
        own copy of it from now on."""
        cp = await self._open(actor.guild_id, campaign)
        assert cp.id is not None
        mine = {r.name.casefold(): r for r in await self.store.repo.squadrons_of(actor.guild_id, actor.user_id)}
        found = mine.get(squadron.casefold())
        if found is None:
            raise CampaignRefused(f"You have no saved squadron called {squadron[:64]!r}.",
                                  "List yours with /squadron list.")
        if not found.complete or found.size != cp.size:
            raise CampaignRefused(f"{found.name} is not a complete {cp.size} list.",
                                  f"Bring a finished {cp.size} squadron (/squadron list shows which are).")
        try:
            sq = from_list(actor.user_id, parse_squadron(found.text))
        except SquadronError as exc:
            raise CampaignRefused(f"The saved squadron cannot be read: {exc.message}") from None
        name = (" ".join(display_name.split()) or actor.user_id)[:100]
        again = CampaignRefused(f"You are already a member of {cp.name}.",
                                "Your campaign squadron is the one you joined with: /campaign show.")
        try:
            async with self.session() as s, s.begin():
                joined = select(col(CampaignMember.id)).where(col(CampaignMember.campaign_id) == cp.id,
                                                              col(CampaignMember.member) == actor.user_id)
                if (await s.execute(joined)).first() is not None:
                    raise again
                count = select(func.count()).select_from(CampaignMember).where(col(CampaignMember.campaign_id) == cp.id)
                if (await s.execute(count)).scalar_one() >= MAX_MEMBERS:
                    raise CampaignRefused(f"{cp.name} is full: a campaign takes {MAX_MEMBERS} members.")
                s.add(CampaignMember(campaign_id=cp.id, member=actor.user_id, name=name,
                                     squadron=json.dumps(sq.to_json())))
                s.add(CampaignEntry(campaign_id=cp.id, kind="joined", actor=actor.user_id,
                                    text=f"{name} joins with {sq.name} ({len(sq.ships)} ships)."))
        except IntegrityError:
            raise again from None
        return MemberInfo(actor.user_id, name, 0, False, sq)

    async def leave(self, actor: Actor, campaign: str) -> CampaignInfo:
        """The actor leaves: their squadron and points stay in the ledger; no new battle takes them."""
        cp = await self._open(actor.guild_id, campaign)
        assert cp.id is not None
        member = next((m for m in await self._members(cp) if m.member == actor.user_id and m.left_at is None), None)
        if member is None:
            raise CampaignRefused(f"You are not a member of {cp.name}.")
        async with self.session() as s, s.begin():
            await self._bump(s, cp)
            await s.execute(update(CampaignMember).where(col(CampaignMember.id) == member.id).values(left_at=utcnow()))
            s.add(CampaignEntry(campaign_id=cp.id, kind="left", actor=actor.user_id,
                                text=f"{member.name} leaves the campaign."))
        return await self.show(actor.guild_id, cp.name)

    # ------------------------------------------------------------------ reading (anyone in the server)

    async def names(self, guild_id: str) -> list[str]:
        async with self.session() as s:
            q = select(col(Campaign.name)).where(col(Campaign.guild_id) == guild_id).order_by(col(Campaign.id).desc())
            return list((await s.execute(q)).scalars())

    async def show(self, guild_id: str, campaign: str) -> CampaignInfo:
        return await self._info(await self._campaign(guild_id, campaign))

    async def ledger(self, guild_id: str, campaign: str) -> Ledger:
        """The campaign's ledger: every line, oldest first, and the campaign as it stands."""
        cp = await self._campaign(guild_id, campaign)
        async with self.session() as s:
            rows = (await s.execute(select(CampaignEntry).where(col(CampaignEntry.campaign_id) == cp.id)
                                    .order_by(col(CampaignEntry.id)))).scalars()
            lines = tuple(LedgerLine(r.at.isoformat(timespec="minutes"), r.kind, r.text) for r in rows)
        return Ledger(await self._info(cp), lines)

    async def of_game(self, game_id: int) -> str | None:
        """The campaign a game is a battle of, by name (None: not a campaign battle)."""
        async with self.session() as s:
            q = (select(col(Campaign.name)).join(CampaignBattle, col(CampaignBattle.campaign_id) == col(Campaign.id))
                 .where(col(CampaignBattle.game_id) == game_id))
            return (await s.execute(q)).scalar()

    # ------------------------------------------------------------------ internals

    async def _rules(self, guild_id: str) -> RulesData:
        return await self.data.rules(guild_id)

    async def _final(self, game_id: int) -> Game:
        # the final state of an ended game: what the carry-over reads of it is public once it is over
        state = await self.reading.state_for_audit(game_id)
        if state.phase is not Phase.OVER:
            raise CampaignRefused("That battle has not ended yet.", "Apply its carry-over once its game is over.")
        return state

    async def _bump(self, s: Any, cp: Campaign) -> None:
        """Take the campaign's row for this transaction, against the version read: another GM's change
        committed since is refused here (and this transaction rolled back)."""
        done = cast(CursorResult[Any], await s.execute(
            update(Campaign).where(col(Campaign.id) == cp.id, col(Campaign.version) == cp.version)
            .values(version=cp.version + 1)))
        if done.rowcount != 1:
            raise _changed(cp)

    async def _find(self, guild_id: str, name: str) -> Campaign | None:
        async with self.session() as s:
            return (await s.execute(select(Campaign).where(
                col(Campaign.guild_id) == guild_id, func.lower(Campaign.name) == " ".join(name.split()).lower())
            )).scalars().first()

    async def _campaign(self, guild_id: str, name: str) -> Campaign:
        found = await self._find(guild_id, name)
        if found is None:
            raise CampaignRefused(f"This server has no campaign called {name[:64]!r}.",
                                  "/campaign show lists this server's campaigns.")
        return found

    async def _open(self, guild_id: str, name: str) -> Campaign:
        cp = await self._campaign(guild_id, name)
        if cp.status != "open":
            raise CampaignRefused(f"{cp.name} is over.", "Its ledger stays: /campaign ledger.")
        return cp

    async def _members(self, cp: Campaign) -> list[CampaignMember]:
        async with self.session() as s:
            q = select(CampaignMember).where(col(CampaignMember.campaign_id) == cp.id).order_by(col(CampaignMember.id))
            return list((await s.execute(q)).scalars())

    async def _battle_row(self, cp: Campaign, number: int) -> CampaignBattle:
        async with self.session() as s:
            found = (await s.execute(select(CampaignBattle).where(col(CampaignBattle.campaign_id) == cp.id,
                                                                  col(CampaignBattle.number) == number))).scalars().first()
        if found is None:
            raise CampaignRefused(f"{cp.name} has no battle {number}.")
        return found

    async def _info(self, cp: Campaign) -> CampaignInfo:
        assert cp.id is not None
        async with self.session() as s:
            rows = list((await s.execute(select(CampaignBattle).where(col(CampaignBattle.campaign_id) == cp.id)
                                         .order_by(col(CampaignBattle.number)))).scalars())
        battles = []
        for r in rows:
            start = _start_of(r.start)
            sides = tuple((side, tuple(m for p, m in start.players if p[0] == side)) for side in ("A", "B"))
            status, result, winner = r.status, r.result, r.winner
            # a battle not yet applied: whether its game is over (its status, never its state in play)
            if r.status == "playing" and (await self.lobby.info(r.game_id)).status == "over":
                final = await self._final(r.game_id)
                status, result, winner = "over", final.result, _side_of(final.winner)
            battles.append(BattleInfo(r.number, r.game_id, r.channel_id, sides, status, result, winner, r.applied_by))
        members = tuple(MemberInfo(m.member, m.name, m.points, m.left_at is not None,
                                   CampaignSquadron.from_json(json.loads(m.squadron))) for m in await self._members(cp))
        return CampaignInfo(cp.id, cp.name, cp.guild_id, cp.channel_id, cp.size, cp.status, members, tuple(battles))


def _side_of(winner: str | None) -> str:
    """The campaign side ("A" or "B") of a game's winner: a player (A, B) or a fleet battle's team."""
    return winner[0] if winner else ""


def _start_of(text: str) -> Roster:
    return Roster.from_json(json.loads(text))


def _changed(cp: Campaign) -> CampaignRefused:
    return CampaignRefused(f"{cp.name} was changed by another command at the same moment; nothing of yours was "
                           "written.", "Look at /campaign ledger and try again.")


def _applied(cp: Campaign, battle: BattleInfo, info: CampaignInfo) -> CampaignRefused:
    by = next((b.applied_by for b in info.battles if b.number == battle.number), "") or battle.applied_by
    return CampaignRefused(f"Battle {battle.number} of {cp.name}'s carry-over has already been applied"
                           f"{f' by {info.name_of(by)}' if by else ''}.",
                           "A battle carries over once; /campaign ledger shows what was applied.")
