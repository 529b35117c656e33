"""Campaigns, the pure part: a member's campaign squadron (their own copy of a saved list, whose
ships are lost, taken as prizes and damaged from battle to battle), the game a battle starts from,
and the carry-over a GM applies once a battle has ended (docs/campaigns.md).

The rulebook has no campaign system, so what carries over is the GM's choice from a short list
(`CarryOver`). Everything here is computed from plain values: the ended game's final state, which
member played which side and which ship, and the GM's choices; the service stores the results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from game.errors import RulesError
from game.model import MAX_TRACK, Game, Phase, Ship, Status, Table
from game.rules_data import RulesData
from game.setup import TABLES, build_squadron
from game.squadron import ShipEntry, SquadronList

AFLOAT, SUNK, CAPTURED = "afloat", "sunk", "captured"
LOSSES = ("leave", "return")  # ships sunk or captured leave the squadron, or all come home
PRIZES = ("captor", "none")  # a captured ship joins its captor's squadron, or is lost to both
DAMAGE = ("kept", "repaired")
FORTUNE = ("reset", "kept")
MAX_POINTS = 1000  # campaign points one carry-over gives a member: more is a typo
MAX_MEMBERS_A_SIDE = 4  # a fleet battle's most squadrons a side (chapter 9)
_LOST_STATUSES = {Status.SUNK: SUNK, Status.REMOVED: SUNK, Status.CAPTURED: CAPTURED}


class CampaignError(RulesError):
    code = "campaign"


@dataclass(frozen=True)
class CampaignShip:
    """One ship of a campaign squadron, as it stands between battles."""

    entry: ShipEntry
    damage: int = 0  # the Damage track carried into the next battle (0 once repaired)
    fate: str = AFLOAT  # afloat | sunk | captured
    lost_in: int = 0  # the battle it was lost in
    prize_of: str = ""  # the member it was taken from, for a prize

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def afloat(self) -> bool:
        return self.fate == AFLOAT


@dataclass(frozen=True)
class CampaignSquadron:
    """A member's squadron in a campaign: copied from their saved list when they joined, and changed
    only by the carry-overs a GM applies (editing the saved list afterwards changes nothing here)."""

    member: str
    name: str
    size: str
    faction: str
    admiral: str
    flagship: str
    hand: tuple[str, ...]
    ships: tuple[CampaignShip, ...]
    fortune: int | None = None  # Fortune carried into the next battle; None: the list's own

    @property
    def afloat(self) -> tuple[CampaignShip, ...]:
        return tuple(s for s in self.ships if s.afloat)

    def to_json(self) -> dict[str, Any]:
        return {"member": self.member, "name": self.name, "size": self.size, "faction": self.faction,
                "admiral": self.admiral, "flagship": self.flagship, "hand": list(self.hand), "fortune": self.fortune,
                "ships": [{"name": s.entry.name, "cls": s.entry.cls, "skill": s.entry.skill,
                           "options": list(s.entry.options), "captain": s.entry.captain, "cards": list(s.entry.cards),
                           "damage": s.damage, "fate": s.fate, "lost_in": s.lost_in, "prize_of": s.prize_of}
                          for s in self.ships]}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> CampaignSquadron:
        ships = tuple(CampaignShip(ShipEntry(s["name"], s["cls"], int(s["skill"]), tuple(s["options"]), s["captain"],
                                             tuple(s["cards"])), int(s["damage"]), s["fate"], int(s["lost_in"]),
                                   s["prize_of"]) for s in doc["ships"])
        fortune = doc.get("fortune")
        return CampaignSquadron(doc["member"], doc["name"], doc["size"], doc["faction"], doc["admiral"],
                                doc["flagship"], tuple(doc["hand"]), ships, None if fortune is None else int(fortune))


def from_list(member: str, sq: SquadronList) -> CampaignSquadron:
    """The campaign's own copy of a member's list, every ship afloat and sound."""
    return CampaignSquadron(member, sq.name, sq.size, sq.faction, sq.admiral, sq.flagship, sq.hand,
                            tuple(CampaignShip(e) for e in sq.ships))


def battle_list(sq: CampaignSquadron) -> SquadronList:
    """The list a squadron sails into its next battle with: its ships afloat. The admiral shifts
    their flag to the first ship afloat when the flagship is gone."""
    afloat = sq.afloat
    if not afloat:
        raise CampaignError(f"{sq.name} has no ship afloat.", "Leave its member out of the battle.")
    flagship = sq.flagship if any(s.name == sq.flagship for s in afloat) else afloat[0].name
    return SquadronList(sq.name, sq.size, sq.faction, sq.admiral, flagship, tuple(s.entry for s in afloat), sq.hand)


@dataclass(frozen=True)
class Roster:
    """Who is who in a battle: each player (squadron) with its member, and each ship on the table with
    its member and its name in their campaign squadron."""

    players: tuple[tuple[str, str], ...]  # (player, member)
    ships: tuple[tuple[str, str, str], ...]  # (ship id, member, campaign ship name)

    def side_of(self, member: str) -> str:
        """The side ("A" or "B") the member fought on ("" if they did not)."""
        return next((p[0] for p, m in self.players if m == member), "")

    def to_json(self) -> dict[str, Any]:
        return {"players": [list(p) for p in self.players], "ships": [list(s) for s in self.ships]}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Roster:
        return Roster(tuple((p, m) for p, m in doc["players"]), tuple((i, m, n) for i, m, n in doc["ships"]))


@dataclass(frozen=True)
class BattleStart:
    state: Game
    roster: Roster


def battle_start(name: str, side_a: Sequence[CampaignSquadron], side_b: Sequence[CampaignSquadron],
                 rules: RulesData) -> BattleStart:
    """Two sides of one or more members each, lined up as the quick line deployment does: side A
    along the south edge heading north, side B along the north edge heading south, the wind from
    the west. One member a side plays players A and B; more make a fleet battle (players A1, A2 …
    on team A, B1, B2 … on team B). Damage carried over is on the ships as they start."""
    if not side_a or not side_b:
        raise CampaignError("A battle needs at least one member on each side.")
    if max(len(side_a), len(side_b)) > MAX_MEMBERS_A_SIDE:
        raise CampaignError(f"A side has at most {MAX_MEMBERS_A_SIDE} members (a fleet battle's squadrons).")
    members = [q.member for q in (*side_a, *side_b)]
    if len(set(members)) != len(members):
        raise CampaignError("A member can fight on one side of a battle only, once.")
    size = max((q.size for q in (*side_a, *side_b)), key=list(TABLES).index)
    width, height = TABLES[size]
    fleet = len(side_a) > 1 or len(side_b) > 1
    squadrons, ships, who, which = [], [], [], []
    lists = {q.member: battle_list(q) for q in (*side_a, *side_b)}
    for team, side, y, heading in (("A", side_a, 3.5, 0.0), ("B", side_b, height - 3.5, 180.0)):
        row: list[Ship] = []
        for i, q in enumerate(side):
            player = f"{team}{i + 1}" if fleet else team
            taken = [e.name for m, lst in lists.items() if m != q.member for e in lst.ships]
            squadron, built = build_squadron(player, lists[q.member], rules, taken)
            if q.fortune is not None:
                squadron = replace(squadron, fortune=q.fortune)
            squadrons.append(replace(squadron, team=team if fleet else ""))
            who.append((player, q.member))
            for ship, kept in zip(built, q.afloat, strict=True):
                row.append(_damaged(ship, kept.damage))
                which.append((ship.id, q.member, kept.name))
        spacing = min(3.5, (width - 4) / max(1, len(row)))
        x0 = width / 2 - spacing * (len(row) - 1) / 2
        ships += [replace(s, x=x0 + i * spacing, y=y, heading=heading) for i, s in enumerate(row)]
    state = Game(system="oak_and_iron", edition="squadrons", name=name, table=Table(width, height, "W"),
                 squadrons=tuple(squadrons), ships=tuple(ships), defender="B")
    return BattleStart(state, Roster(tuple(who), tuple(which)))


def _damaged(ship: Ship, damage: int) -> Ship:
    damage = max(0, min(MAX_TRACK, damage))
    return replace(ship, damage=damage, statuses=ship.statuses | ({Status.CRIPPLED} if damage >= MAX_TRACK else set()))


@dataclass(frozen=True)
class CarryOver:
    """What the GM chose to carry over from one battle (docs/campaigns.md)."""

    losses: str = "leave"
    prizes: str = "captor"
    damage: str = "repaired"
    fortune: str = "reset"
    points: tuple[tuple[str, int], ...] = ()  # (member, campaign points awarded)

    def check(self) -> None:
        for value, allowed, what in ((self.losses, LOSSES, "losses"), (self.prizes, PRIZES, "prizes"),
                                     (self.damage, DAMAGE, "damage"), (self.fortune, FORTUNE, "fortune")):
            if value not in allowed:
                raise CampaignError(f"{what} cannot be {value[:20]!r}.", f"Choose one of: {', '.join(allowed)}.")
        for _, points in self.points:
            if not -MAX_POINTS <= points <= MAX_POINTS:
                raise CampaignError(f"A battle awards {-MAX_POINTS} to {MAX_POINTS} campaign points a member.")

    def said(self) -> str:
        losses = "ships sunk or captured leave their squadrons" if self.losses == "leave" else "every ship came home"
        prizes = ("; captured ships join their captor's squadron" if self.losses == "leave" and self.prizes == "captor"
                  else "")
        return (f"{losses}{prizes}; damage {self.damage}; Fortune {'kept' if self.fortune == 'kept' else 'reset'}, "
                "initiative cards reset")


@dataclass(frozen=True)
class Carried:
    """The squadrons after a carry-over, and what happened to each ship, a line each (plain text)."""

    squadrons: tuple[CampaignSquadron, ...]
    lines: tuple[str, ...]


def carry_over(squadrons: Mapping[str, CampaignSquadron], final: Game, roster: Roster, choice: CarryOver,
               battle: int, who: Mapping[str, str] | None = None) -> Carried:
    """The members' squadrons after `battle`, from the ended game's final state and the GM's choice.
    Only the members who fought change; their ships that were not in the battle stay as they were.
    The lines name each squadron with its member's name from `who` (two members may bring lists of
    the same name)."""
    choice.check()
    if final.phase is not Phase.OVER:
        raise CampaignError(f"Battle {battle} has not ended yet.", "Apply its carry-over once its game is over.")
    member_of = dict(roster.players)
    by_id = {s.id: s for s in final.ships}
    changed: dict[str, list[CampaignShip]] = {m: list(squadrons[m].ships) for m in member_of.values()}
    prizes: dict[str, list[CampaignShip]] = {}
    lines: list[str] = []

    def of(member: str) -> str:
        name = (who or {}).get(member)
        return f"{name}'s {squadrons[member].name}" if name else squadrons[member].name

    for ship_id, member, name in roster.ships:
        end = by_id.get(ship_id)
        if end is None:
            continue
        ships = changed[member]
        i = next(k for k, s in enumerate(ships) if s.name == name and s.afloat)
        fate = next((f for st, f in _LOST_STATUSES.items() if st in end.statuses), AFLOAT)
        damage = end.damage if choice.damage == "kept" else 0
        if fate != AFLOAT and choice.losses == "leave":
            ships[i] = replace(ships[i], fate=fate, lost_in=battle, damage=end.damage)
            captor = member_of.get(end.controller, "") if fate == CAPTURED else ""
            if captor and captor != member and choice.prizes == "captor":
                crew = ShipEntry(name, ships[i].entry.cls, 0, ships[i].entry.options)  # a prize crew: no officers
                prizes.setdefault(captor, []).append(CampaignShip(crew, damage, prize_of=member))
                lines.append(f"{name} ({of(member)}) was captured and joins {of(captor)}.")
            else:
                lines.append(f"{name} ({of(member)}) was {fate} and leaves the squadron.")
            continue
        ships[i] = replace(ships[i], damage=damage)
        if damage:
            lines.append(f"{name} ({of(member)}) keeps {damage} damage.")
    for captor, won in prizes.items():
        names = {s.name for s in changed[captor]}
        for prize in won:
            unique, n = prize.name, 2
            while unique in names:  # a prize keeps its name unless the captor already has a ship of it
                unique, n = f"{prize.name} {n}", n + 1
            names.add(unique)
            changed[captor].append(replace(prize, entry=replace(prize.entry, name=unique)))
    fortunes = {player: q.fortune for player, q in ((q.player, q) for q in final.squadrons)}
    out = []
    for player, member in roster.players:
        fortune = fortunes.get(player) if choice.fortune == "kept" else None
        out.append(replace(squadrons[member], ships=tuple(changed[member]), fortune=fortune))
    return Carried(tuple(out), tuple(lines))


@dataclass(frozen=True)
class PictureMember:
    name: str
    points: int
    left: bool
    squadron: CampaignSquadron


@dataclass(frozen=True)
class Picture:
    """What the campaign's picture shows: its squadrons as they stand between battles (nothing of a
    game under way: render/campaign.py draws only this)."""

    title: str
    subtitle: str
    members: tuple[PictureMember, ...]


def ship_state(ship: CampaignShip) -> str:
    """A ship's state in words, for the ledger's text and the picture's alt text."""
    if ship.fate != AFLOAT:
        return f"{ship.fate} in battle {ship.lost_in}" if ship.lost_in else ship.fate
    said = f"{ship.damage} damage" + (", crippled" if ship.damage >= MAX_TRACK else "") if ship.damage else "sound"
    return said + (" (a prize)" if ship.prize_of else "")
