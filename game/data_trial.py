"""An imported data set is tried before it is accepted: two computer captains play the quick start
for a couple of turns with it, then a drafted Patrol is set up with random legal squadrons, all on
fixed seeds. A file can pass every schema and still break a game (a card the quick start's hands
name was renamed, a die on which no roll can succeed for a whole phase …); this finds it at import,
not in the middle of a guild's game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from game.ai.captain import Captain
from game.ai.match import play
from game.commands import Enlist
from game.errors import DataError
from game.model import Phase
from game.phases.preparation import drafted_game
from game.rules_data import RulesData
from game.scenario import builtin_scenarios, load_scenario_text
from game.squadron import random_squadron
from game.table_session import TableSession

TRIAL_SEED = 11
QUICKSTART_TURNS = 2
MAX_COMMANDS = 400  # a quick-start turn takes about 15 commands, the drafted set-up about 20


def trial_game(rules: RulesData, data_set: str = "data set") -> None:
    """Play the trial games with these rules; any fault is a DataError naming the data set, the
    trial and what failed."""
    trial = "quick start"
    try:
        game = load_scenario_text(builtin_scenarios(rules.system)["quickstart"], "quickstart.toml", rules)
        session = TableSession(replace(game, seed=TRIAL_SEED), rules)
        _play(session, rules, lambda s: s.state.turn > QUICKSTART_TURNS)
        trial = "drafted Patrol set-up"
        session = TableSession(drafted_game("patrol", TRIAL_SEED), rules)
        for i, player in enumerate(("A", "B")):
            session.submit(Enlist(player, random_squadron(TRIAL_SEED + i, "patrol", rules)))
        _play(session, rules, lambda s: s.state.phase is not Phase.PREPARATION)
    except DataError as exc:
        raise DataError(data_set, f"trial game ({trial})", exc.field, f"{exc.file}, entry {exc.entry!r}: "
                                                                      f"{exc.problem}") from None
    except Exception as exc:  # whatever the engine raised: the data set cannot be played
        raise DataError(data_set, f"trial game ({trial})", type(exc).__name__,
                        f"a game with this data failed: {exc}"[:500]) from None


class _Enough(Exception):
    """The trial has seen what it came for."""


def _play(session: TableSession, rules: RulesData, done: Callable[[TableSession], bool]) -> None:
    captains = {p: Captain(p, TRIAL_SEED, rules) for p in session.state.players}
    count = 0

    def check(s: TableSession) -> None:
        nonlocal count
        count += 1
        if done(s):
            raise _Enough
        if count >= MAX_COMMANDS:
            raise RuntimeError(f"the game did not get through its first turns in {MAX_COMMANDS} commands")

    try:
        play(session.state, captains, rules, after_each=check, session=session)
    except _Enough:
        return
    if session.state.phase is not Phase.OVER:
        raise RuntimeError(f"the game stalled in the {session.state.phase.value} phase: nobody can act")
