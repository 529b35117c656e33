"""What the board shows the player to act: which ships may act now, their broadside paths cut into
the rules' range bands, and which enemies lie in those paths at which band. The geometry is the
engine's own (`game.geometry`); nothing here decides whether an attack is legal."""

from __future__ import annotations

from dataclasses import dataclass

from game import geometry as geo
from game.model import Game, Phase, ShipSide
from game.phases.common import hull
from game.rules_data import RulesData


@dataclass(frozen=True)
class InPath:
    """An enemy in one of a ship's broadside paths."""

    ship: str
    side: str  # port | starboard
    target: str
    band: str  # the band's label, e.g. "Pistol Shot"
    unloaded: bool = False  # that side carries a reload marker


@dataclass(frozen=True)
class Guide:
    ships: tuple[str, ...] = ()  # ships whose paths are drawn
    in_path: tuple[InPath, ...] = ()
    done: frozenset[str] = frozenset()  # ships that have had their activation this phase

    @property
    def rings(self) -> bool:
        """Whole range rings only for a single ship: for many they would hide the board."""
        return len(self.ships) == 1


def in_paths(game: Game, ship_id: str, rules: RulesData) -> tuple[InPath, ...]:
    """Every enemy still fighting that lies in one of this ship's broadside paths within the longest band."""
    ship = game.ship(ship_id)
    me = hull(ship)
    out = []
    for s in game.ships:
        if game.allied(s.controller, ship.controller) or not s.on_table or not s.can_act:
            continue
        other = hull(s)
        band = rules.band_for(geo.distance(me.polygon, other.polygon))
        if band is None:
            continue
        for side in ("port", "starboard"):
            if geo.in_broadside_path(me, side, other):
                out.append(InPath(ship_id, side, s.id, band.label, ShipSide(side) in ship.reload))
    return tuple(out)


def ships_to_act(game: Game, active_ship: str | None = None) -> tuple[str, ...]:
    """The ships whose paths the player to act wants to see: the one asked for; else the ship whose
    roll, activation or free attack is under way; else in the Attack Phase every ship of the side
    to act still to attack. In the Movement Phase, before a ship is chosen, none (the move preview
    shows where a ship would bear)."""
    if active_ship is not None:
        return (active_ship,) if _on_table(game, active_ship) else ()
    if game.offer is not None:
        return tuple(s for s in game.offer.ships if _on_table(game, s))
    if game.pending is not None:
        return (game.pending.ship,) if _on_table(game, game.pending.ship) else ()
    if game.activation is not None:
        return (game.activation.ship,) if _on_table(game, game.activation.ship) else ()
    if game.phase is Phase.ATTACK and game.active_player is not None:
        players = game.players_of(game.active_player) or (game.active_player,)
        return tuple(s.id for s in game.ships
                     if s.controller in players and s.can_act and s.id not in game.activated)
    return ()


def _on_table(game: Game, ship_id: str) -> bool:
    try:
        return game.ship(ship_id).on_table
    except KeyError:
        return False


def guide(game: Game, rules: RulesData, active_ship: str | None = None, enabled: bool = True) -> Guide:
    done = frozenset(game.activated) if game.phase in (Phase.MOVEMENT, Phase.ATTACK) else frozenset()
    if not enabled and active_ship is None:
        return Guide(done=done)
    ships = ships_to_act(game, active_ship)
    found = tuple(p for s in ships for p in in_paths(game, s, rules))
    return Guide(ships, found, done)
