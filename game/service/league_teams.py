"""Team leagues: an entrant is a team of two members, and each pairing is one 2 vs 2 fleet battle.

A fleet battle's scenario gives each squadron a `team`; the two teams are the game's sides
(game/model.py: `teams`, `players_of`). A team league's scenario must be such a battle with two
squadrons a side: the team on side A takes the first team's two squadrons (the member who registered
the team the first, the partner the second), the team on side B the other two."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.model import Game
from game.service.errors import ServiceRefusal
from game.service.models import LeagueEntry, LeagueGame

TEAM_SIZE = 2


class TeamRefused(ServiceRefusal):
    code = "league-refused"


@dataclass(frozen=True)
class SeatPlan:
    """Who takes a squadron of a league game: `side` is the pairing's side ("A" or "B")."""

    squadron: str
    member: str
    name: str
    side: str


def check_scenario(state: Game) -> None:
    """A team league plays 2 vs 2 fleet battles: two sides (teams) of two squadrons each."""
    shape = [len(state.players_of(t)) for t in state.teams]
    if not state.fleet_battle or shape != [TEAM_SIZE, TEAM_SIZE]:
        raise TeamRefused("A team league plays 2 vs 2 fleet battles: its scenario needs two teams of two squadrons "
                          f"(this one has {len(state.players)} squadrons on {len(state.teams)} sides).",
                          "Use the built-in fleet_battle, or your own scenario with a `team` for each of four "
                          "squadrons (docs/scenario-format.md, Fleet battles).")


def members(entry: LeagueEntry) -> list[str]:
    """Who plays for an entrant: the member, and a team's partner."""
    return [entry.member, entry.partner] if entry.partner else [entry.member]


def complete(entry: LeagueEntry, teams: bool) -> bool:
    """Whether the entrant can be paired: in a team league, once the partner has joined the team."""
    return not teams or entry.partner_joined


def seat_plan(state: Game, row: LeagueGame, entries: Sequence[LeagueEntry]) -> list[SeatPlan]:
    """Each squadron's member: side A's entrant on the first side (team), side B's on the second."""
    by_member = {e.member: e for e in entries}
    plan = []
    for side, team, who in (("A", state.teams[0], row.a_member), ("B", state.teams[1], row.b_member or "")):
        entry = by_member[who]
        names = [entry.name, entry.partner_name] if entry.partner else [entry.name]
        for i, squadron in enumerate(state.players_of(team)):
            k = min(i, len(names) - 1)
            plan.append(SeatPlan(squadron, members(entry)[k], names[k], side))
    return plan


def find_team(entries: Sequence[LeagueEntry], name: str) -> LeagueEntry | None:
    key = " ".join(name.split()).casefold()
    return next((e for e in entries if e.dropped_at is None and e.name.casefold() == key), None)


def plays_in(entry: LeagueEntry, member: str) -> bool:
    """Whether a member plays for the entrant: a partner only once they joined (being named binds nobody:
    a partner named against their will simply never joins, and stays free to join another team)."""
    return member == entry.member or (member == entry.partner and entry.partner_joined)


def team_of(entries: Sequence[LeagueEntry], member: str) -> LeagueEntry | None:
    """The team (not dropped) a member registered or joined as its partner."""
    return next((e for e in entries if e.dropped_at is None and plays_in(e, member)), None)
