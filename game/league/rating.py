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
