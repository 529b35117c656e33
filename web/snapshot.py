"""A game's page as data: what the HTML shows and what the live updates send, made from a spectator's
read (game/service/web_pages.py: `Spectated`) and nothing else. Every text here is plain; the HTML
escapes it (web/html.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from game.model import Game, Phase, Ship
from game.names import plain
from game.phases.preparation import what_now as setup_what_now
from game.service.results import SeatInfo
from game.service.web_pages import Spectated


def when(moment: datetime | None) -> dict[str, str] | None:
    """A time as the page shows it: ISO 8601 for the reader's zone (page.js) and UTC words without JS."""
    if moment is None:
        return None
    at = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    return {"iso": at.isoformat().replace("+00:00", "Z"), "utc": at.strftime("%d %b %Y, %H:%M UTC")}


def seat_name(seats: tuple[SeatInfo, ...], player: str) -> str:
    seat = next((s for s in seats if s.player == player), None)
    if seat is None or seat.free:
        return f"player {player}"
    who = "the computer captain" if seat.ai else plain(seat.name)
    return f"player {player} ({who})"


def doing(g: Game) -> str:
    """What the side waited on has to do, in words (the same phases the Discord post names)."""
    if g.phase is Phase.PREPARATION:
        return f"set-up: {setup_what_now(g)}"
    if g.pending is not None:
        return f"decide on {plain(g.pending.ship)}'s roll: re-roll or keep"
    if g.offer is not None:
        return f"take or decline a free attack on {plain(g.offer.target)}"
    if g.choices:
        return f"decide about {plain(g.choices[0].ship)} ({g.choices[0].kind.replace('_', ' ')})"
    if g.phase.value in ("setup", "initiative"):
        return "choose an initiative card (face down)"
    return f"activate a ship ({g.phase.value.replace('_', ' ')} phase)"


def waiting(s: Spectated) -> str:
    g, info = s.board.spectator.game, s.board.info
    if g.phase is Phase.OVER:
        return f"Game over: {g.result or f'player {g.winner} wins'}." if (g.result or g.winner) else "Game over."
    if info.status == "open":
        free = [x.player for x in info.seats if x.free]
        return f"Waiting for players: side {', '.join(free)} free." if free else "About to begin."
    due = s.board.due
    if not due:
        return "Nobody to act right now."
    return f"Waiting for {' and '.join(seat_name(info.seats, p) for p in due)}: {doing(g)}."


def _ship(ship: Ship) -> dict[str, Any]:
    state = [s.replace("_", " ") for s in ship.status_names() if s != "out_of_action"]
    if ship.out_of_action:
        state.insert(0, "out of action")
    elif not ship.on_table:
        state.insert(0, "not on the table")
    return {"id": plain(ship.id), "class": plain(ship.cls), "damage": ship.damage, "fortitude": ship.fortitude,
            "fatigue": ship.fatigue, "state": ", ".join(state) or "in action"}


def squadrons(s: Spectated) -> list[dict[str, Any]]:
    """Each squadron as a spectator sees it: its public cards and its ships, never a hand or a pick."""
    g, info = s.board.spectator.game, s.board.info
    out = []
    for q in g.squadrons:
        out.append({
            # a squadron without a name of its own is called "Player A": the seat already says so
            "player": q.player, "who": seat_name(info.seats, q.player),
            "name": "" if q.name.lower() == f"player {q.player}".lower() else plain(q.name),
            "admiral": plain(q.admiral), "fortune": q.fortune, "face_up": plain(q.face_up or ""),
            "discards": [plain(c) for c in q.discards],
            "ships": [_ship(x) for x in g.ships if x.owner == q.player],
        })
    return out


def snapshot(s: Spectated, alt: str) -> dict[str, Any]:
    """The page's data: the same for the HTML and the live update (web/static/page.js)."""
    g, info, clock = s.board.spectator.game, s.board.info, s.clock
    ending = s.ending
    return {
        "version": s.version, "id": info.id, "name": plain(info.name), "turn": g.turn,
        "phase": g.phase.value.replace("_", " "), "over": g.phase is Phase.OVER, "waiting": waiting(s),
        "deadline": when(s.board.deadline) if g.phase is not Phase.OVER else None,
        "clock": {"reminder_hours": clock.reminder_hours, "deadline_hours": clock.deadline_hours,
                  "on_deadline": clock.on_deadline, "paused": clock.paused},
        "squadrons": squadrons(s), "account": list(s.account), "earlier": s.earlier, "frames": s.frames,
        "board": f"board.png?v={s.version}", "alt": alt, "commitment": info.dice_commitment,
        "ending": None if ending is None else {
            # the check's words without its leading mark (✅, ⚠️, ❌): a page says it in words alone
            "seed": ending.seed, "commitment": ending.commitment,
            "verification": ending.verification.lstrip("✅❌⚠\ufe0f "),
            "verified": ending.verified, "test_dice": ending.test_dice},
    }
