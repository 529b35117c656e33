"""Fleet building for fleet battles (the rulebook's chapter 9, p. 29): "Both sides should construct
fleets of equal point values made up of 2-4 Squadrons each. Individual Squadrons do not have to be
made up of the same number of points as long as the total combined point value is equal to that of
the opposing fleet." A fleet is assembled where a scenario gives its squadrons a `team`
(game/scenario.py); the check is here, pure, so every front end refuses the same fleet alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FLEET_SQUADRONS = (2, 4)  # fewest and most squadrons a side
RULE = ("Fleet battles (chapter 9, Fleet Building): both sides build fleets of equal point values "
        f"made up of {FLEET_SQUADRONS[0]}-{FLEET_SQUADRONS[1]} squadrons each")


@dataclass(frozen=True)
class FleetProblem:
    side: str  # the side (team) to fix, or "" when it is the balance between them
    message: str


def fleet_problem(sides: Mapping[str, Sequence[int]]) -> FleetProblem | None:
    """The first way two fleets break the fleet-building rule, or None. `sides` maps each side to
    its squadrons' points, in the order the file gives them."""
    low, high = FLEET_SQUADRONS
    for side, squadrons in sides.items():
        if not low <= len(squadrons) <= high:
            return FleetProblem(side, f"{RULE}; side {side} has {len(squadrons)} squadron(s): "
                                      f"give it {low} to {high}")
    totals = {side: sum(points) for side, points in sides.items()}
    if len(set(totals.values())) > 1:
        shown = ", ".join(f"{side} {total}" for side, total in totals.items())
        return FleetProblem("", f"{RULE}; the sides have {shown} points: make the totals equal "
                                        "(a squadron's ships, their skill, upgrades and captains, and its admiral)")
    return None
