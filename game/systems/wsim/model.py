"""The state of a Wooden Ships & Iron Men game under the Casus Belli rules: the wind, one ship log
per ship, the secret orders of the phase and the fire of the Combat Phase. Frozen; `apply` alone
builds new ones."""

from __future__ import annotations

from dataclasses import dataclass

from game.model import evolve
from game.systems.orders import OrderBook
from game.systems.tables import PrintedEntry

QUALITIES = ("El", "Cr", "Se", "Av", "Gr", "Pr")  # best to worst
SIDES = ("left", "right")
AMMO = ("R", "DS", "C", "G")
AMMO_NAMES = {"R": "roundshot", "DS": "double shot", "C": "chain shot", "G": "grape shot"}
ANCHOR_NOTES = ("A", "AB", "AS")
PARTIES = ("OBP", "DBP", "TBP")
ATTITUDES = ("A", "B", "C", "D")
ACTIVE = ""  # a ship's status while it still sails and fights


@dataclass(frozen=True)
class Wind:
    direction: int  # 1-6 clockwise, the hex side the wind blows towards (the wind arrow)
    velocity: int  # 0 becalmed … 6 storm, 7 hurricane


@dataclass(frozen=True)
class Broadside:
    side: str
    load: str = ""  # "", R, DS, C, G ("?" in another player's view: the load column is never inspected)
    ds_loading: bool = False  # double shot half loaded (it takes two Load Phases)
    initial_used: bool = False  # fired, or loaded in play: the initial broadside is the load from before the battle
    obscured: int = 0  # Combat Phases left of Broadside Obscured, counted from the next one
    fired: bool = False  # fired this turn (the "/" across the load)


@dataclass(frozen=True)
class Party:
    kind: str  # OBP | DBP | TBP
    sections: tuple[int, ...]  # crew sections, 1-based
    target: str = ""  # the ship boarded (OBP) or joined (TBP)


@dataclass(frozen=True)
class Ship:
    id: str
    player: str
    ship_class: int  # 1-7
    battle_sail: int  # 3 or 4
    full_sail: int  # 5-7
    turning: int
    quality: str
    guns: int  # per broadside, as the CB Fire Base counts them
    hull: int
    crew: tuple[int, ...]  # squares per crew section
    rigging: tuple[int, ...]  # squares per rigging section
    heading: int  # 1-6 clockwise
    carronades: int = 0
    eighty_gun: bool = False
    rowed: bool = False
    nation: str = ""
    leaders: tuple[str, ...] = ()
    hull_lost: int = 0
    crew_lost: tuple[int, ...] = ()
    rigging_lost: tuple[int, ...] = ()
    sails: str = "battle"  # battle | full
    broadsides: tuple[Broadside, ...] = (Broadside("left"), Broadside("right"))
    fouled: tuple[str, ...] = ()
    grappled: tuple[str, ...] = ()
    anchored: str = ""  # "", A, AB, AS
    weighing: int = 0  # turns left of weighing anchor, once (A) is written
    anchor_lost: bool = False  # the cable was cut or severed: the ship may not anchor again
    fire_turns: int = 0  # Combat Phases the fire on board still burns, counted from the next one
    fire_penalty: int = 0  # MFN reduction while it burns
    repair: str = ""  # "", hull, rigging
    repair_turns: int = 0
    broadsides_fired: int = 0  # for the optional fatigue rule
    waterline: bool = False  # a crew section permanently at the pumps
    turning_lost: int = 0
    status: str = ACTIVE  # "", struck, captured, sunk, exploded
    doom: str = ""  # "", "may sink", "may explode": the roll comes in a later Unfouling Phase
    captured: bool = False  # sailed by a prize crew (fires at -3)
    parties: tuple[Party, ...] = ()  # this turn's boarding parties
    hexes_moved: int = -1  # last movement phase (-1: none yet)
    still: int = 0  # consecutive movement phases without the bow leaving its hex
    loaded_this_turn: bool = False
    mast_over: str = ""  # optional rule VIII: a fallen mast over this side

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def broadside(self, side: str) -> Broadside:
        return next(b for b in self.broadsides if b.side == side)

    def with_broadside(self, b: Broadside) -> Ship:
        return evolve(self, broadsides=tuple(b if x.side == b.side else x for x in self.broadsides))

    @property
    def crew_left(self) -> tuple[int, ...]:
        return tuple(size - lost for size, lost in zip(self.crew, self.crew_lost, strict=True))

    @property
    def pumps(self) -> int:
        """Waterline Damage: the crew section kept at the pumps, the last one with crew left (boarding parties
        take the lowest first); 0 without the damage or with no crew left."""
        if not self.waterline:
            return 0
        live = [i for i, left in enumerate(self.crew_left, start=1) if left > 0]
        return live[-1] if live else 0

    @property
    def crew_sections_lost(self) -> int:
        return sum(1 for left in self.crew_left if left <= 0)

    @property
    def rigging_sections_lost(self) -> int:
        return sum(1 for size, lost in zip(self.rigging, self.rigging_lost, strict=True) if lost >= size)

    @property
    def dismasted(self) -> bool:
        return self.rigging_sections_lost == len(self.rigging)

    @property
    def hull_left(self) -> int:
        return self.hull - self.hull_lost

    @property
    def turning_left(self) -> int:
        return max(0, self.turning - self.turning_lost)


@dataclass(frozen=True)
class Fire:
    """One broadside of the Combat Phase. Hits are marked, and the critical applied, when it ends."""

    number: int
    ship: str
    side: str
    target: str
    range: int
    aim: str  # hull | rigging
    ammo: str
    rake: str  # "", bow, stern
    mfn: int
    ffn: int
    critical_number: int
    hits: str | None  # "2H1C1R"; None until the referee reads the printed row
    critical_roll: int = 0  # d6 + Critical Number; 0: no critical roll (grape shot, an explosion)
    critical: str = ""
    blast: bool = False  # an exploding ship's blast (optional rule X), marked at once
    hits_source: str = ""  # whose entry of the printed table the hits come from ("": the play aid's text)


@dataclass(frozen=True)
class Melee:
    attacker: str
    defender: str
    attacker_sections: tuple[int, ...]
    defender_sections: tuple[int, ...]
    rounds: int = 0  # fought this turn


@dataclass(frozen=True)
class Options:
    fatigue: bool = False  # the optional fatigue rule (-1 per 5 broadsides)
    rigging_loss: bool = True  # WS&IM optional rule VIII (dismasted, fallen masts); CB uses it
    exploding: bool = True  # WS&IM optional rule X (exploding ships); CB uses it
    hidden_sails: bool = False  # Full Sails plotted in secret in phase K
    skip_empty: bool = True  # phases with nothing to do are skipped; false: the referee's `next` walks each one


@dataclass(frozen=True)
class WsimGame:
    players: tuple[str, ...]
    referee: str
    ships: tuple[Ship, ...]
    wind: Wind
    initial_direction: int
    wind_shift_number: int
    wind_next: Wind | None = None  # a change rolled this turn: it takes effect next turn
    options: Options = Options()
    turn: int = 0
    phase: str = ""
    orders: OrderBook = OrderBook()
    printed: tuple[PrintedEntry, ...] = ()
    fires: tuple[Fire, ...] = ()
    melees: tuple[Melee, ...] = ()
    result: str = ""
    seed: int = 0
    log_position: int = 0

    def ship(self, ship_id: str) -> Ship:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def with_ship(self, ship: Ship) -> WsimGame:
        return evolve(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    def fire(self, number: int) -> Fire | None:
        return next((f for f in self.fires if f.number == number), None)

    def melee(self, a: str, b: str) -> Melee | None:
        return next((m for m in self.melees if {m.attacker, m.defender} == {a, b}), None)
