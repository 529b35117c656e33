"""Who may give which order, checked in the service whatever a Discord server's role settings say.

A seated player commands their own side. The computer captain commands only its own seat. A GM (Manage
Server or the server's GM role, as the front end reports it) may act for a player only once that
player's deadline has passed or their seat stands empty, and the log then says who acted and why.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from game import events as ev
from game.commands import (
    SETUP_COMMANDS,
    Command,
    Concede,
    Decide,
    Decline,
    KeepRoll,
    PickCard,
    Reroll,
    UseFortune,
)
from game.errors import NotYourShip, UnknownName
from game.model import Game
from game.service.errors import NotPermitted, NotSeated
from game.service.models import Seat

LOCAL_GUILD = "offline"  # the offline table and the script runner: one person at one screen
AI_PREFIX = "ai:"


@dataclass(frozen=True)
class Actor:
    """Who acts: a Discord user (or the offline table's local user) and whether they are a GM."""

    user_id: str
    guild_id: str
    gm: bool = False

    @property
    def local(self) -> bool:
        return self.guild_id == LOCAL_GUILD

    @property
    def captain_of(self) -> str | None:
        """The seat a computer-captain actor plays (the service's own actors only)."""
        return self.user_id[len(AI_PREFIX):] if self.user_id.startswith(AI_PREFIX) else None


def seated(seats: Sequence[Seat], actor: Actor) -> list[str]:
    """The sides this person holds in the game."""
    return sorted(s.player for s in seats if s.user_id == actor.user_id and not s.is_ai)


def as_seated(seats: Sequence[Seat], actor: Actor) -> Actor:
    """A GM who plays in this game is one of its players there, no more: acting for the other side,
    ending the game for it or undoing without its consent would be a player's power over an opponent."""
    return replace(actor, gm=False) if actor.gm and seated(seats, actor) else actor


def require_gm(actor: Actor, what: str) -> None:
    if not actor.gm:
        raise NotPermitted(f"Only a GM may {what}.",
                           "A GM is a member with Manage Server or the server's GM role (/game gm-role).")


def decider(state: Game) -> str | None:
    """Whose answer a pending roll, offer or choice waits for."""
    if state.pending is not None:
        return state.pending.player
    if state.offer is not None:
        return state.offer.player
    if state.choices:
        return state.choices[0].player
    return None


def acting_player(state: Game, cmd: Command, players: Sequence[str]) -> str:
    """The side on whose behalf the command is given."""
    named: str = getattr(cmd, "player", "") or ""
    if isinstance(cmd, SETUP_COMMANDS):
        who = named or (players[0] if len(players) == 1 else "")
        if not who:
            raise NotSeated("Say which side gives the order (e.g. `A: role attacker`).",
                            f"Your sides: {', '.join(players) or 'none'}.")
        return who
    if isinstance(cmd, PickCard | Concede):
        return cmd.player
    if isinstance(cmd, Reroll | UseFortune | KeepRoll | Decline | Decide):
        return named or decider(state) or (players[0] if players else "")
    ship_id: str = getattr(cmd, "ship", "") or ""
    if ship_id:
        try:
            return state.ship(ship_id).controller
        except KeyError:
            raise UnknownName(f"There is no ship called {ship_id!r}.") from None
    return named or (players[0] if players else "")


def with_player(cmd: Command, who: str) -> Command:
    if hasattr(cmd, "player") and not getattr(cmd, "player", ""):
        return replace(cmd, player=who)  # type: ignore[arg-type]
    return cmd


def authorise(state: Game, seats: Sequence[Seat], actor: Actor, cmd: Command,
              absent: Collection[str]) -> tuple[Command, ev.ActedFor | None]:
    """The command with its acting side filled in, and the log line when a GM acts for a player.
    `absent` are the players past their deadline or with an empty seat."""
    players = seated(seats, actor)
    captain = actor.captain_of
    if captain is not None:
        who = acting_player(state, cmd, [captain])
        if who != captain:
            raise NotYourShip(f"The computer captain of side {captain} cannot act for side {who}.")
        return with_player(cmd, who), None
    if not players and not actor.gm:
        raise NotSeated("You are not playing in this game.", "Join a side first (/game join), or watch.")
    who = acting_player(state, cmd, players)
    if who in players:
        return with_player(cmd, who), None
    if not who:
        raise NotSeated("Say which side you give this order for, e.g. `B: keep`.",
                        "A GM acts for a player only after their deadline has passed.")
    if actor.gm and isinstance(cmd, Concede):
        return cmd, ev.ActedFor(who, actor.user_id, "a GM ends the game")
    if actor.gm and who in absent:
        return with_player(cmd, who), ev.ActedFor(who, actor.user_id, "their deadline had passed")
    if actor.gm:
        raise NotPermitted(f"Player {who} is still within their deadline: a GM may act for a player only after it "
                           "has passed (or when their seat is empty).", "Wait, or ask the player.")
    mine = ", ".join(s.id for s in state.ships if s.controller in players)
    if isinstance(cmd, Reroll | UseFortune | KeepRoll | Decline | Decide):
        raise NotYourShip(f"This decision is player {who}'s.", "Wait for your opponent.")
    if getattr(cmd, "ship", ""):
        raise NotYourShip(f"{getattr(cmd, 'ship', '')} is not yours to command: it belongs to player {who}.",
                          f"Your ships: {mine or 'none'}.")
    raise NotYourShip(f"You do not command side {who}.", f"Your sides: {', '.join(players) or 'none'}.")
