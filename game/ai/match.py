"""Games played by computer captains: for the demo, the tests and the benchmarks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from game.ai.captain import Captain
from game.commands import Enlist
from game.model import Game
from game.phases.flow import deciders
from game.phases.preparation import drafted_game
from game.rules_data import RulesData, load_rules
from game.scenario import quickstart
from game.squadron import SquadronList
from game.table_session import TableSession

MAX_COMMANDS = 5000  # far beyond any real game: a guard against a policy that loops


def play(
    game: Game,
    captains: Mapping[str, Captain],
    rules: RulesData | None = None,
    after_each: Callable[[TableSession], None] | None = None,
    session: TableSession | None = None,
) -> TableSession:
    """Play until the game is over, each decision taken by its player's captain (going on from
    `session` when given, so its earlier events stay in the record)."""
    session = session or TableSession(game, rules or load_rules(game.system))
    for _ in range(MAX_COMMANDS):
        who = deciders(session.state)
        if not who:
            return session
        player = sorted(who)[0]
        session.submit(captains[player].act(session.state))
        if after_each is not None:
            after_each(session)
    raise RuntimeError(f"the game did not end within {MAX_COMMANDS} commands")


def ai_game(seed: int, rules: RulesData | None = None, game: Game | None = None,
            after_each: Callable[[TableSession], None] | None = None) -> TableSession:
    rules = rules or load_rules()
    base = replace(game or quickstart(), seed=seed)
    captains = {p: Captain(p, seed, rules) for p in base.players}
    return play(base, captains, rules, after_each)


def drafted_ai_game(seed: int, a: SquadronList, b: SquadronList, rules: RulesData | None = None) -> TableSession:
    """Two lists brought to a drafted game: the captains make every set-up choice, then fight."""
    rules = rules or load_rules()
    session = TableSession(drafted_game(a.size, seed), rules)
    session.submit(Enlist("A", a))
    session.submit(Enlist("B", b))
    captains = {p: Captain(p, seed, rules) for p in session.state.players}
    return play(session.state, captains, rules, session=session)
