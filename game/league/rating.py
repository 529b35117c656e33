"""A rating per server with OpenSkill (the Plackett-Luce model, Weng & Lin 2011): each member has a
skill estimate mu and an uncertainty sigma; the ordinal mu - 3 sigma is what a table is sorted by,
so a newcomer starts low and rises as the games make the estimate sure."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(a: Skill, b: Skill, winner: str | None) -> tuple[Skill, Skill]:
    """Both ratings after one game; `winner` is "a", "b" or None for a draw."""
    ranks = {"a": [1.0, 2.0], "b": [2.0, 1.0], None: [1.0, 1.0]}[winner]
    (ra,), (rb,) = _MODEL.rate([[_MODEL.rating(mu=a.mu, sigma=a.sigma)], [_MODEL.rating(mu=b.mu, sigma=b.sigma)]],
                               ranks=ranks)
    return Skill(ra.mu, ra.sigma), Skill(rb.mu, rb.sigma)


def rate_teams(a: list[Skill], b: list[Skill], winner: str | None) -> tuple[list[Skill], list[Skill]]:
    """Every member's rating after one game between two teams (OpenSkill rates teams natively: a team's
    skill is its members' summed, and each member moves by their share of its uncertainty); `winner` is
    "a", "b" or None for a draw. A team of one is a player: the same as `rate`."""
    ranks = {"a": [1.0, 2.0], "b": [2.0, 1.0], None: [1.0, 1.0]}[winner]
    ra, rb = _MODEL.rate([[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in a],
                          [_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in b]], ranks=ranks)
    return [Skill(r.mu, r.sigma) for r in ra], [Skill(r.mu, r.sigma) for r in rb]
