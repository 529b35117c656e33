"""A league's own settings (`/league create`, `/league settings`): whether a round closes by itself as
its last game ends, and the clock every game of the league gets as it is made (the settings of
`/clock`: reminder and deadline hours, what a deadline does, whether deadlines wait out quiet hours).

A clock setting left unset is the server's, as for any game. A change applies to the games made after
it; the games already being played keep theirs (a GM changes one with /clock in its thread)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from game.service.clock import ACTION_TEXT, ACTIONS
from game.service.models import League

MAX_CLOCK_HOURS = 24 * 30  # as /clock allows a game


@dataclass(frozen=True)
class LeagueSettings:
    auto_close: bool = True
    reminder_hours: int | None = None
    deadline_hours: int | None = None
    on_deadline: str | None = None  # gm | captain | pass
    skip_quiet: bool | None = None

    @property
    def has_clock(self) -> bool:
        return any(v is not None for v in (self.reminder_hours, self.deadline_hours, self.on_deadline, self.skip_quiet))

    def changed(self, **changes: object) -> LeagueSettings:
        """These settings with the given ones changed (a None leaves a setting as it is)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})  # type: ignore[arg-type]

    def differences(self, old: LeagueSettings) -> list[str]:
        """Each setting changed from `old`, in words: "deadline hours: the server's → 48"."""
        return [f"{LABELS[f.name]}: {_said(getattr(old, f.name))} → {_said(getattr(self, f.name))}" for f in fields(self)
                if getattr(old, f.name) != getattr(self, f.name)]


LABELS = {"auto_close": "rounds close by themselves", "reminder_hours": "reminder hours",
          "deadline_hours": "deadline hours", "on_deadline": "at the deadline",
          "skip_quiet": "deadlines wait out quiet hours"}


def _said(value: object) -> str:
    return "the server's" if value is None else {True: "yes", False: "no"}.get(value, str(value))  # type: ignore[call-overload]


DEFAULTS = LeagueSettings()


def of(lg: League) -> LeagueSettings:
    return LeagueSettings(lg.auto_close, lg.reminder_hours, lg.deadline_hours, lg.on_deadline, lg.skip_quiet)


def problem(settings: LeagueSettings) -> tuple[str, str] | None:
    """What is wrong with these settings and what is allowed, or None."""
    for hours in (settings.reminder_hours, settings.deadline_hours):
        if hours is not None and not 1 <= hours <= MAX_CLOCK_HOURS:
            return "A game's reminder and deadline hours run from 1 to 720 (30 days).", "Give hours from 1 to 720."
    if settings.on_deadline is not None and settings.on_deadline not in ACTIONS:
        return f"A deadline cannot do {settings.on_deadline[:20]!r}.", f"It can: {', '.join(ACTIONS)}."
    return None


def describe(settings: LeagueSettings) -> str:
    """The settings in words, for /league show and the settings' answer."""
    rounds = ("a round closes by itself when its last game ends" if settings.auto_close
              else "a GM closes each round with /league round")
    clock = []
    if settings.reminder_hours is not None:
        clock.append(f"reminder after {settings.reminder_hours} h")
    if settings.deadline_hours is not None:
        clock.append(f"deadline after {settings.deadline_hours} h")
    if settings.on_deadline is not None:
        clock.append(f"at the deadline {ACTION_TEXT[settings.on_deadline]}")
    if settings.skip_quiet is not None:
        clock.append(f"deadlines {'wait out' if settings.skip_quiet else 'ignore'} quiet hours")
    return f"{rounds}; games' clock: {', '.join(clock) if clock else 'the server’s'}"
