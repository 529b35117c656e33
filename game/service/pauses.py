"""A pause by consent (`/game pause`, `/game resume`): a player asks, the game's other human players
agree or decline, and when all have agreed the game's clock stops (game/service/clock_service.py
`Clock.stop`); each wait keeps the clock time it had left and gets it back on resume. A GM who does
not play in the game pauses and resumes alone.

The open request is stored with the game's clock as JSON (`game_clocks.proposal`), so its buttons
answer after a restart; it names itself by the log position it was asked at, so a button of an
older request (answered, declined, lapsed) does nothing. Who must agree is read from the seats at
each answer, not at the asking: a side handed over meanwhile is answered by its new holder, and a
request whose asker no longer plays lapses. A computer captain is never asked: it has no clock of
its own to lose, so against computer captains alone a player's pause is made at once.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from game import names
from game.service.authority import Actor, as_seated
from game.service.clock_service import SYSTEM, Clock, quoted
from game.service.errors import AlreadyDecided, NotPermitted, NotSeated, ServiceRefusal
from game.service.models import utcnow
from game.service.repository import Loaded
from game.service.results import Outcome
from game.service.scheduler import Job
from game.service.sides import moment
from game.service.store import GameStore
from game.systems.base import DEADLINE_ACTIONS

MAX_HOURS = 24 * 30
MAX_REASON = 200


@dataclass(frozen=True)
class Proposal:
    """An open request for a pause: `id` is the log position it was asked at."""

    id: int
    by: str
    hours: int | None
    reason: str
    agreed: tuple[str, ...] = ()

    def encode(self) -> str:
        return json.dumps({"id": self.id, "by": self.by, "hours": self.hours, "reason": self.reason,
                           "agreed": list(self.agreed)}, separators=(",", ":"))

    @staticmethod
    def decode(text: str) -> Proposal | None:
        try:
            data: Any = json.loads(text) if text else None
            if not isinstance(data, dict):
                return None
            hours = data.get("hours")
            return Proposal(int(data["id"]), str(data["by"]), int(hours) if hours is not None else None,
                            str(data.get("reason", ""))[:MAX_REASON], tuple(str(u) for u in data.get("agreed", ())))
        except (ValueError, TypeError, KeyError):
            return None


@dataclass(frozen=True)
class PauseAnswer:
    """What a pause command did: `asked` the members whose answer it waits for (empty once the clock
    stopped or the request ended), `proposal` the request's id for its buttons, `text` for the one who
    acted, and the logged change to post with the game."""

    text: str
    outcome: Outcome | None = None
    paused: bool = False
    proposal: int | None = None
    asked: tuple[str, ...] = field(default=())


class Pauses:
    """Pauses asked and agreed by the players, or made by a GM alone, over the game's clock."""

    def __init__(self, store: GameStore, clock: Clock,
                 league_paused: Callable[[int], Awaitable[bool]] | None = None) -> None:
        self.store = store
        self.clock = clock
        # whether the game's league is paused by a GM: a pause of the players' that ends then leaves
        # the clock stopped under the league's pause (only a GM's /league resume starts it)
        self.league_paused = league_paused

    async def ask(self, actor: Actor, game_id: int, hours: int | None = None, reason: str = "") -> PauseAnswer:
        """A player asks to pause the game's clock (for `hours`, or until someone resumes it); a GM who
        does not play in the game pauses it at once, as does a player whose opponents are computer
        captains alone."""
        if hours is not None and not 1 <= hours <= MAX_HOURS:
            raise ServiceRefusal("A pause lasts from 1 to 720 hours.", "Leave the hours out to pause until "
                                 "someone resumes (/game resume).")
        reason = " ".join(reason.split())[:MAX_REASON]
        loaded = await self.store.load(game_id, actor)
        self._clocked(loaded)
        clock = await self.clock.paused(game_id)
        if clock.paused:
            raise ServiceRefusal("The game's clock is already paused.", "/game resume starts it again.")
        until = utcnow() + timedelta(hours=hours) if hours is not None else None
        seated = as_seated(loaded.seats, actor)
        if seated.gm:
            outcome = await self.clock.stop(actor, game_id, "gm", until, reason,
                                            "a GM ({by}) pauses the game's clock: no reminders and no deadlines")
            return PauseAnswer("⏸️ The game's clock is paused.", outcome, True)
        if not self.store.players_of(loaded, actor):
            raise NotSeated("Only a player of this game (or a GM) may ask for a pause.")
        open_one = Proposal.decode(clock.proposal)
        if open_one is not None and self._mine(loaded, open_one.by):
            waiting = [u for u in self._asked(loaded, open_one.by) if u not in open_one.agreed]
            raise ServiceRefusal("A pause is already asked for in this game.",
                                 f"It waits for {_members(waiting) or 'nobody'}; they answer with its buttons.")
        asked = self._asked(loaded, actor.user_id)
        if not asked:
            outcome = await self.clock.stop(actor, game_id, "consent", until, reason,
                                            "{by} pauses the game's clock; the computer captain agrees")
            return PauseAnswer("⏸️ The game's clock is paused: the computer captain agrees.", outcome, True)
        proposal = Proposal(loaded.record.last_seq + 1, actor.user_id, hours, reason)
        if not await self.clock.save_proposal(game_id, proposal.encode(), clock.proposal):
            raise ServiceRefusal("A pause was asked for in this game a moment ago.", "Its buttons answer it.")
        how_long = f"for {hours} h" if hours is not None else "until a player resumes it"
        outcome = await self.clock.log(game_id, actor, "pause asked", f"{{by}} asks to pause the game's clock "
                                       f"{how_long}{f' ({quoted(reason)})' if reason else ''}; every other player must agree")
        return PauseAnswer(f"⏸️ Asked: the clock stops when {_members(asked)} "
                           f"{'agrees' if len(asked) == 1 else 'agree'}.", outcome, False,
                           proposal.id, tuple(asked))

    async def answer(self, actor: Actor, game_id: int, proposal_id: int, agree: bool) -> PauseAnswer:
        """One of the asked players agrees or declines. The asker's own press, a spectator's, or a press
        on a request that is no longer open changes nothing and is refused."""
        clock = await self.clock.paused(game_id)
        proposal = Proposal.decode(clock.proposal)
        if proposal is None or proposal.id != proposal_id:
            raise AlreadyDecided("This request for a pause is no longer open.", "/game pause asks again.")
        loaded = await self.store.load(game_id, actor)
        if moment(loaded.system, loaded.state).over or not self._mine(loaded, proposal.by):
            await self.clock.save_proposal(game_id, "", clock.proposal)
            raise AlreadyDecided("This request for a pause has lapsed: the game is over or its asker no longer "
                                 "plays in it.", "/game pause asks again.")
        asked = self._asked(loaded, proposal.by)
        if actor.user_id == proposal.by:
            raise NotPermitted("You asked for this pause: the others answer it.",
                               f"It waits for {_members([u for u in asked if u not in proposal.agreed])}.")
        if actor.user_id not in asked:
            raise NotPermitted("Only the game's other players answer this request for a pause.",
                               "A GM who does not play in the game may pause it alone with /game pause.")
        if not agree:
            if not await self.clock.save_proposal(game_id, "", clock.proposal):
                raise AlreadyDecided("This request for a pause was answered a moment ago.")
            outcome = await self.clock.log(game_id, actor, "pause declined", "{by} declines the pause: the clock runs on")
            return PauseAnswer("▶️ You declined the pause; the clock runs on.", outcome)
        agreed = tuple(sorted({*proposal.agreed, actor.user_id}))
        waiting = [u for u in asked if u not in agreed]
        if waiting:
            if not await self.clock.save_proposal(game_id, Proposal(proposal.id, proposal.by, proposal.hours,
                                                                    proposal.reason, agreed).encode(), clock.proposal):
                raise AlreadyDecided("This request for a pause was answered a moment ago.", "Press again.")
            return PauseAnswer(f"✅ You agree; the pause waits for {_members(waiting)}.", None, False, proposal.id,
                               tuple(waiting))
        if not await self.clock.save_proposal(game_id, "", clock.proposal):
            raise AlreadyDecided("This request for a pause was answered a moment ago.")
        until = utcnow() + timedelta(hours=proposal.hours) if proposal.hours is not None else None
        outcome = await self.clock.stop(Actor(proposal.by, loaded.record.guild_id), game_id, "consent", until,
                                        proposal.reason, "the game's clock is paused with every player's consent "
                                        "(asked by {by}): no reminders and no deadlines")
        return PauseAnswer("⏸️ Everyone agrees: the game's clock is paused.", outcome, True)

    async def resume(self, actor: Actor, game_id: int) -> PauseAnswer:
        """Any player resumes a pause the players agreed; a GM's or a league's pause only a GM resumes."""
        loaded = await self.store.load(game_id, actor)
        self._clocked(loaded)
        clock = await self.clock.paused(game_id)
        if not clock.paused:
            raise ServiceRefusal("The game's clock is not paused.", "/game pause asks for a pause.")
        seated = as_seated(loaded.seats, actor)
        if not seated.gm:
            if not self.store.players_of(loaded, actor):
                raise NotSeated("Only a player of this game (or a GM) may resume it.")
            if clock.pause_kind in ("gm", "league"):
                raise NotPermitted(f"A GM paused this game{' with its league' if clock.pause_kind == 'league' else ''}"
                                   ": only a GM resumes it.", "Ask a GM, or wait for the pause's end.")
        outcome = await self.clock.resume(actor, game_id)
        return PauseAnswer("▶️ The game's clock runs again, with the time each side had left.", outcome)

    async def ended(self, job: Job) -> Outcome | None:
        """A pause's end fell due: the clock runs again, unless that pause is already over."""
        if job.game_id is None:
            return None
        paused_at = str(json.loads(job.payload).get("paused_at", ""))
        loaded = await self.store.load(job.game_id, fresh=True)
        if moment(loaded.system, loaded.state).over:
            return None  # its clock stopped for good: nothing to run again, nothing to log
        if self.league_paused is not None and await self.league_paused(job.game_id):
            return await self.clock.hold(SYSTEM, job.game_id, "league", paused_at, "the pause is over, but the "
                                         "game's league is paused by a GM: the clock stays stopped until a GM "
                                         "resumes the league")
        try:
            return await self.clock.resume(SYSTEM, job.game_id, "the pause is over: each clock runs again with "
                                                                "the time it had left", paused_at=paused_at)
        except ServiceRefusal:
            return None

    def _clocked(self, loaded: Loaded) -> None:
        if DEADLINE_ACTIONS not in loaded.system.capabilities:
            raise ServiceRefusal("This game has no deadlines to pause.", "Its referee keeps its pace.")
        if moment(loaded.system, loaded.state).over:
            raise ServiceRefusal("This game is over: its clock has stopped for good.")

    def _mine(self, loaded: Loaded, user_id: str) -> bool:
        return bool(self.store.players_of(loaded, Actor(user_id, loaded.record.guild_id)))

    @staticmethod
    def _asked(loaded: Loaded, asker: str) -> list[str]:
        """The game's human players other than the asker, as the seats stand now."""
        return sorted({s.user_id for s in loaded.seats if s.user_id and not s.is_ai and s.user_id != asker})


def _members(users: list[str] | tuple[str, ...]) -> str:
    return " and ".join(names.member(u) for u in users)
