"""One line of plain English per WS&IM event. Never shows a sealed order or another player's load."""

from __future__ import annotations

from typing import Any

from game.systems.common import account_shared
from game.systems.wsim import events as ev
from game.systems.wsim.model import AMMO_NAMES, Wind
from game.systems.wsim.notation import format_parties


def _wind(w: Wind) -> str:
    return f"towards hex side {w.direction}, velocity {w.velocity}"


def _lost(sizes_lost: tuple[int, ...]) -> str:
    return "/".join(str(n) for n in sizes_lost)


def account(e: Any) -> str:
    shared = account_shared(e)
    if shared is not None:
        return shared
    match e:
        case ev.WindForecast(wind=None):
            return "The wind holds."
        case ev.WindForecast(wind=Wind() as w):
            return f"The wind will change next turn: {_wind(w)}."
        case ev.WindChanged(wind=w):
            return f"The wind is now blowing {_wind(w)}."
        case ev.PlotExecuted():
            notes = f" {' '.join(e.notes)}" if e.notes else ""
            extra = "".join(f" {r}" for r in e.remarks)
            return f"{e.ship} moves {e.moves}{notes}: now heading {e.heading}.{extra}"
        case ev.HeadingSet(ship=ship, heading=h):
            return f"{ship} now heads {h}."
        case ev.FoulingChanged(ship=a, other=b, fouled=f):
            return f"{a} and {b} are {'fouled' if f else 'unfouled'}."
        case ev.GrapplingChanged(ship=a, other=b, grappled=g):
            return f"{a} and {b} are {'grappled' if g else 'ungrappled'}."
        case ev.PartiesSet(ship=ship, parties=parties):
            return f"{ship}: {format_parties(parties)}."
        case ev.LoadChanged(ship=ship, side=side, load="?"):
            return f"{ship} works its {side} broadside."
        case ev.LoadChanged(load="", ds_loading=False):  # another player's double shot completed (views.py)
            return ""
        case ev.LoadChanged(ship=ship, side=side, load="", ds_loading=True):
            return f"{ship} starts loading double shot on the {side} (two turns)."
        case ev.LoadChanged(ship=ship, side=side, load=load):
            return f"{ship} loads {AMMO_NAMES.get(load, load)} on the {side}."
        case ev.RepairChanged(ship=ship, repair=""):
            return f"{ship} is no longer repairing."
        case ev.RepairChanged(ship=ship, repair=kind, turns=n):
            return f"{ship} repairs its {kind} (turn {n} of 3)."
        case ev.SailsSet(ship=ship, sails=sails):
            return f"{ship} sets {sails} sails."
        case ev.FireResolved(fire=f, calculation=calc) if f.blast:
            hits = f.hits if f.hits is not None else "read from the printed table"
            if f.hits is not None and f.hits_source:
                hits += f" ({f.hits_source})"
            return f"Blast {f.number}: {f.ship} on {f.target}: MFN {f.mfn}, FFN {f.ffn}, rigging hits {hits}."
        case ev.FireResolved(fire=f, calculation=calc):
            rake = f", raking ({f.rake})" if f.rake else ""
            if f.ammo == "G":
                return (f"Fire {f.number}: {f.ship} {f.side} at {f.target}, range {f.range}, grape shot: "
                        f"MFN {f.mfn} = {calc}; Critical Number {f.critical_number} = {f.hits} crew hit(s).")
            hits = f.hits if f.hits is not None else "read from the printed table"
            if f.hits is not None and f.hits_source:
                hits += f" ({f.hits_source})"
            return (f"Fire {f.number}: {f.ship} {f.side} at {f.target}'s {f.aim}, range {f.range}{rake}, "
                    f"{AMMO_NAMES.get(f.ammo, f.ammo)}: MFN {f.mfn} = {calc}; FFN {f.ffn}; "
                    f"hits {hits}; Critical Number {f.critical_number}, critical roll {f.critical_roll}: {f.critical}.")
        case ev.HitsEntered(number=n, hits=hits):
            return f"Fire {n}: the referee enters {hits} from the printed table."
        case ev.DamageMarked(ship=ship, hull_lost=h, crew_lost=c, rigging_lost=r, reason=why):
            return f"{ship}'s log ({why}): hull lost {h}, crew lost {_lost(c)}, rigging lost {_lost(r)}."
        case ev.CriticalApplied(ship=ship, effect=effect, outcome=outcome):
            return f"Critical hit on {ship}, {effect}: {outcome}."
        case ev.ShipChanged(ship=ship, what=what) if what:
            status = f" ({ship.status})" if ship.status else ""
            return f"{ship.id}{status}: {what}."
        case ev.ShipChanged():
            return ""
        case ev.FiresCleared():
            return ""
        case ev.MeleeRound():
            return (f"Melee round {e.round}: {e.attacker} (strength {e.attacker_strength}) against {e.defender} "
                    f"(strength {e.defender_strength}): {e.attacker} loses {e.attacker_loses}, "
                    f"{e.defender} loses {e.defender_loses} crew square(s).")
        case ev.MeleeChanged(melee=None, attacker=a, defender=d):
            return f"The melee between {a} and {d} is over."
        case ev.MeleeChanged():
            return ""
    return ""
