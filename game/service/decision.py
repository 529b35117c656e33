"""The decision a scheduled action was planned for, and the one check every scheduled action makes.

A side's *wait* begins when the game comes to wait on that side for a decision (a pick, an
activation, a roll), or when the side changes hands while it waits; it lasts while the same side is
waited on in the same phase of the same turn by the same holder. It is stored with the game
(`games.waits`, written in the transaction of the command that began it) and is what the side's clock
is planned from: when it began, and the hours a GM added to it.

A scheduled action (a deadline, a reminder, a standing order, a computer captain's move) names its
`Decision`: the game, the side, the holder and the log position the wait began at, with the exact
position for an action decided on the game as it stood. It acts only while `still_waiting` holds,
checked under the game's lock before anything is written; otherwise it ends quietly. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Protocol


@dataclass(frozen=True)
class Moment:
    """What the rules of a wait read of a state, in any system (game/service/waiting.py reads it): the
    turn and phase, whether the game is over, and the seats it waits on (by their seats' keys)."""

    turn: int
    phase: str
    over: bool
    waiting: frozenset[str]


class SeatLike(Protocol):
    @property
    def player(self) -> str: ...
    @property
    def user_id(self) -> str | None: ...
    @property
    def is_ai(self) -> bool: ...


@dataclass(frozen=True)
class Wait:
    """One side's current wait: its clock starts at `started`, plus `extended` hours a GM gave."""

    since: int  # the log position the wait began at
    holder: str | None  # the member holding the side, "ai:A" for the computer captain, None for nobody
    started: datetime
    extended: int = 0
    used: int = 0  # seconds of its clock spent before a pause: a resume starts it again with the rest


@dataclass(frozen=True)
class Decision:
    """What a scheduled action was planned for."""

    game_id: int
    player: str
    holder: str | None
    since: int
    at: int | None = None  # the log position an immediate action was decided at (None: any, while waited)


Retime = Callable[[dict[str, Wait]], dict[str, Wait]]  # a change of the clock: the waits it re-times


def holder_of(seats: Iterable[SeatLike], player: str) -> str | None:
    seat = next((s for s in seats if s.player == player), None)
    if seat is None:
        return None
    return f"ai:{player}" if seat.is_ai else seat.user_id


def waits_after(before: Mapping[str, Wait], old: Moment, new: Moment, seats: Iterable[SeatLike], position: int,
                now: datetime) -> dict[str, Wait]:
    """The waits once `new` is the state (its last event at `position`): a side still waited on in the
    same phase of the same turn by the same holder keeps its wait (and any extension); every other
    side the game waits for begins one now."""
    if new.over:
        return {}
    seats = list(seats)
    kept = old.waiting if (old.phase, old.turn) == (new.phase, new.turn) else frozenset()
    out: dict[str, Wait] = {}
    for player in sorted(new.waiting):
        holder = holder_of(seats, player)
        wait = before.get(player)
        if wait is not None and player in kept and wait.holder == holder:
            out[player] = wait
        else:
            out[player] = Wait(position, holder, now)
    return out


def changed(before: Mapping[str, Wait], after: Mapping[str, Wait]) -> list[str]:
    """The sides whose plan must be made again: a wait begun, ended or re-timed."""
    return sorted(p for p in {*before, *after} if before.get(p) != after.get(p))


def decision_of(game_id: int, waits: Mapping[str, Wait], player: str, at: int | None = None) -> Decision | None:
    """The decision the game waits on from this side now (None: it waits on nothing of theirs)."""
    wait = waits.get(player)
    return None if wait is None else Decision(game_id, player, wait.holder, wait.since, at)


def still_waiting(game_id: int, position: int, state: Moment, seats: Sequence[SeatLike], waits: Mapping[str, Wait],
                  decision: Decision) -> bool:
    """The one check: the game still waits on exactly the decision the action was planned for."""
    if decision.game_id != game_id or state.over or decision.player not in state.waiting:
        return False
    if decision.at is not None and decision.at != position:
        return False
    wait = waits.get(decision.player)
    return (wait is not None and wait.since == decision.since and wait.holder == decision.holder
            and holder_of(seats, decision.player) == decision.holder)


def restart(now: datetime, holder: str | None = None) -> Retime:
    """Every wait (or those of sides this member holds) starts its clock again now, with its whole time
    (what it spent before a pause too); extensions stay."""

    def retime(waits: dict[str, Wait]) -> dict[str, Wait]:
        return {p: replace(w, started=now, used=0) if holder is None or w.holder == holder else w
                for p, w in waits.items()}

    return retime


def resumed(now: datetime, spent: Callable[[Wait], float]) -> Retime:
    """The clock runs again after a pause: each wait keeps the clock time it had spent (`spent`: what
    ran of it from its start to the pause) and starts its clock again now with the rest."""

    def retime(waits: dict[str, Wait]) -> dict[str, Wait]:
        return {p: replace(w, started=now, used=w.used + int(spent(w))) for p, w in waits.items()}

    return retime


def keep(waits: dict[str, Wait]) -> dict[str, Wait]:
    """No wait re-timed: the plans are made again from what changed around them (a pause)."""
    return waits


def lengthen(hours: int) -> Retime:
    def retime(waits: dict[str, Wait]) -> dict[str, Wait]:
        return {p: replace(w, extended=w.extended + hours) for p, w in waits.items()}

    return retime


def encode_waits(waits: Mapping[str, Wait]) -> str:
    return json.dumps({p: {"since": w.since, "holder": w.holder, "started": w.started.isoformat(),
                           "extended": w.extended, **({"used": w.used} if w.used else {})}
                       for p, w in sorted(waits.items())}, separators=(",", ":"))


def decode_waits(text: str | None) -> dict[str, Wait]:
    try:
        data: Any = json.loads(text or "{}")
        out = {}
        for player, w in data.items():
            started = datetime.fromisoformat(w["started"])
            out[str(player)] = Wait(int(w["since"]), w["holder"], started if started.tzinfo else started.replace(tzinfo=UTC),
                                    int(w.get("extended", 0)), int(w.get("used", 0)))
        return out
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}


def current_waits(stored: str | None, state: Moment, seats: Iterable[SeatLike], stored_at: datetime,
                  follow_seats: bool = True) -> dict[str, Wait]:
    """The waits of a game as stored with it. A side waited on with none stored (a game from before
    waits were stored) waits since position 0, its clock from when the game was last written. With
    `follow_seats`, a seat given to someone outside a command (a seat taken or freed at a join) is the
    new holder's wait; without, as a command sees the seats it is about to change (a hand-over), the
    stored holder stays, so the command begins the new holder's wait. The planner and the check see
    the same waits, and the next command stores them."""
    if state.over:
        return {}
    seats = list(seats)
    when = stored_at if stored_at.tzinfo else stored_at.replace(tzinfo=UTC)
    waiting = state.waiting
    waits = {p: w for p, w in decode_waits(stored).items() if p in waiting}
    for player in sorted(waiting):
        holder = holder_of(seats, player)
        wait = waits.get(player)
        if wait is None:
            waits[player] = Wait(0, holder, when)
        elif wait.holder != holder and follow_seats:
            waits[player] = Wait(wait.since, holder, when)
    return waits
