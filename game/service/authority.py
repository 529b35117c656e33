"""Who may give which order, checked in the service whatever a Discord server's role settings say.

A seated player commands their own side. The computer captain commands only its own seat. Anyone else
acts for a side through one rule, `acting_for`: a member the side's player named to stand in while
away, during that time; a GM (Manage Server or the server's GM role, as the front end reports it) once
the player's deadline has passed or their seat stands empty, or through an explicit, logged override.
The log then says who acted and why. Consent to an undo comes from someone else (`undo_consent`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

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
from game.service.errors import NotPermitted, NotSeated, UndoRefused
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


@dataclass(frozen=True)
class Proxies:
    """What lets someone other than a side's player act for it now."""

    absent: frozenset[str] = frozenset()  # past their deadline, or nobody in their seat
    stand_ins: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # side -> (stand-in, away player)
    override: bool = False  # a GM asked for it explicitly; logged, and shown when the game ends

    def stood_in(self, state: Game, seats: Sequence[Seat], actor: Actor) -> list[str]:
        """The sides the actor stands in for now. Never a side against one of the actor's own: a stand-in
        who plays the other team would command both."""
        own = seated(seats, actor)
        return sorted(side for side, (member, _) in self.stand_ins.items()
                      if member == actor.user_id and side not in own
                      and all(state.allied(side, p) for p in own))


def acting_for(state: Game, seats: Sequence[Seat], actor: Actor, side: str, proxies: Proxies,
               ending: bool = False) -> ev.ActedFor | None:
    """The one rule for acting for a side: None for its own player, else the log line saying who acts
    for it and why, or a refusal saying what would allow it. `ending`: a GM ends the game for the side
    (a GM's power whatever the clock says, and logged)."""
    if side in seated(seats, actor):
        return None
    if side in proxies.stood_in(state, seats, actor):
        if ending:
            raise NotPermitted(f"A stand-in plays for player {side} while they are away, but does not concede for them.",
                               "Only the player (or a GM) ends the game for their side.")
        away = proxies.stand_ins[side][1]
        return ev.ActedFor(side, actor.user_id, "standing in while {away} is away", "stand-in", away)
    if actor.gm and ending:
        return ev.ActedFor(side, actor.user_id, "a GM ends the game")
    if actor.gm and side in proxies.absent:
        return ev.ActedFor(side, actor.user_id, "their deadline had passed")
    if actor.gm and proxies.override:
        return ev.ActedFor(side, actor.user_id, "GM override by {by}", "override")
    if actor.gm:
        raise NotPermitted(f"Player {side} is still within their deadline: a GM may act for a player, or take their "
                           "seat, only after it has passed, when their seat is empty, or with the player's consent "
                           "(they name you to stand in: /clock away).",
                           "Wait, ask the player, or repeat the command with `override: True`: the override is "
                           "logged and shown when the game ends.")
    raise NotYourShip(f"You do not command side {side}.", f"Your sides: {', '.join(seated(seats, actor)) or 'none'}.")


def authorise(state: Game, seats: Sequence[Seat], actor: Actor, cmd: Command,
              proxies: Proxies) -> tuple[Command, ev.ActedFor | None]:
    """The command with its acting side filled in, and the log line when someone acts for a player."""
    captain = actor.captain_of
    if captain is not None:
        who = acting_player(state, cmd, [captain])
        if who != captain:
            raise NotYourShip(f"The computer captain of side {captain} cannot act for side {who}.")
        return with_player(cmd, who), None
    players = seated(seats, actor)
    sides = [*players, *proxies.stood_in(state, seats, actor)]  # their own first: an unnamed side is theirs
    if not sides and not actor.gm:
        raise NotSeated("You are not playing in this game.", "Join a side first (/game join), or watch.")
    who = acting_player(state, cmd, sides)
    if not who:
        raise NotSeated("Say which side you give this order for, e.g. `B: keep`.",
                        "A GM acts for a player only after their deadline has passed.")
    if actor.gm or who in sides:
        return with_player(cmd, who), acting_for(state, seats, actor, who, proxies, isinstance(cmd, Concede))
    mine = ", ".join(s.id for s in state.ships if s.controller in sides)
    if isinstance(cmd, Reroll | UseFortune | KeepRoll | Decline | Decide):
        raise NotYourShip(f"This decision is player {who}'s.", "Wait for your opponent.")
    if getattr(cmd, "ship", ""):
        raise NotYourShip(f"{getattr(cmd, 'ship', '')} is not yours to command: it belongs to player {who}.",
                          f"Your ships: {mine or 'none'}.")
    raise NotYourShip(f"You do not command side {who}.", f"Your sides: {', '.join(sides) or 'none'}.")


def undo_consent(state: Game, seats: Sequence[Seat], actor: Actor, asker: str, asked_by: str) -> str:
    """Why an undo may go ahead with this actor's consent (the log's words), or a refusal. Consent
    comes from someone else: a member holding a seat on the other team who is not the member who asked
    (whatever other seat the asker holds), or a GM who plays no part in the game."""
    if actor.local:
        asked_by = ""  # the offline table: both sides share one screen, so the other side is there too
    may = sorted(s.player for s in seats if s.user_id and not s.is_ai and s.user_id != asked_by
                 and not state.allied(s.player, asker))
    who = f"a player on the other team who did not ask (player {', '.join(may)}) or a GM" if may else "a GM"
    # before any other reason: not even a GM who asked (and has since left their seat) consents to it
    if actor.user_id == asked_by:
        raise UndoRefused("You asked for this undo, so the consent cannot be your own.", f"{who[0].upper()}{who[1:]} may consent.")
    mine = [p for p in seated(seats, actor) if p in may]
    if mine:
        return f"undone with player {mine[0]}'s consent"
    if actor.gm:
        return f"undone with a GM's consent ({{by}}) at player {asker}'s request"  # by: the actor, in the event
    raise UndoRefused(f"Only {who} may consent to player {asker}'s undo.")

