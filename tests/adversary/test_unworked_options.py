"""The board read works out a big fleet's options only as far as the post and its menu show them
(game/options.py `shown_options`). A player who names ships to stretch or shrink the post's lines
(long names cut at 300 characters, Markdown the bot escapes, one-letter names) or who presses a menu
choice must still see and get exactly what the full options give, and no ship left unworked may be
lost: `/options` (the full options) still offers it, and the engine takes the order."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks.fleets import fleet
from bot.publish import options_text
from bot.views import OptionSelect
from game import names
from game.dice import FairDice, seed_from_number
from game.engine import decide_and_apply
from game.model import Game
from game.notation import parse
from game.options import Options, options_for, public_options, shown_options
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.views import view_of

RULES = load_rules()


def _started(per_side: int) -> Game:
    from benchmarks.engine import to_movement

    return to_movement(fleet(per_side))


def _renamed(g: Game, name: str) -> Game:
    return replace(g, ships=tuple(replace(s, id=name.format(i)) for i, s in enumerate(g.ships)))


def _post(o: Options) -> str:
    return options_text([names.prose(line) for line in o.lines()[1:]], more=o.left_out)


def _menu(o: Options) -> list[str]:
    return [c.label for c in OptionSelect(1, 1, o).item.options]


@pytest.mark.parametrize("name", ["{0}", "*Bold_* `tick` ~~{0}~~ " * 4 + "{0}", "L" * 90 + "{0}"])
def test_names_that_stretch_the_lines_show_the_same(name: str) -> None:
    state = _renamed(_started(40), name)
    player = sorted(deciders(state))[0]
    full = public_options(view_of(state, player), RULES)
    shown = shown_options(view_of(state, player), RULES)
    assert shown.left_out > 0  # forty ships: the post cannot hold them all
    assert _post(shown) == _post(full)
    assert _menu(shown) == _menu(full)


def test_a_ship_left_unworked_is_still_offered_and_its_order_taken() -> None:
    state = _started(64)
    player = sorted(deciders(state))[0]
    shown = shown_options(view_of(state, player), RULES)
    worked = {o.ship for o in shown.items}
    left = [s for s in state.ships_of(player) if s.can_act and s.id not in worked]
    assert len(left) + (1 if any(not o.ship for o in public_options(view_of(state, player), RULES).items) else 0) \
        == shown.left_out
    last = left[-1]
    mine = options_for(view_of(state, player), RULES, last.id)  # /options for that ship
    order = next(o.order for o in mine.items if o.order)
    cmd = replace(parse(order, state), player=player)  # type: ignore[type-var]
    after = decide_and_apply(state, cmd, FairDice(seed_from_number(1), state.log_position), RULES)[1]
    assert after.ship(last.id) != state.ship(last.id)
