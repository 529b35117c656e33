"""The board read works the options out only as far as they are shown (game/options.py
`shown_options`, issue 29); what a player sees must be word for word what the full options give.

Compared, at each of the 200 recorded moments of tests/game/option_positions.py (quick start,
20-ship Engagement, fleets of 16, 32 and 64 a side), between `public_options` (every ship worked
out; tests/game/test_option_words.py holds those to the recorded words) and the board read's job
(`public_options_job`, bounded):
- the board post's options: `options_text` of every waiting player's lines, as `post_board` builds
  it (the bot's escapes, each line's cut, the 700 characters and the "… and N more" count);
- the options menu, when one player waits: each choice's label and value as Discord gets them
  (`OptionSelect`), and whether the post carries a menu at all (an option with an order);
- the option each menu choice gives (`_chosen_option` reads the full options: the menu's first 25
  ordered items are the same options, in the same places).
"""

from __future__ import annotations

import pytest

from bot.publish import options_text
from bot.views import OptionSelect
from game import names
from game.options import Options, public_options
from game.phases.flow import deciders
from game.rules_data import load_rules
from game.service.jobs import public_options_job
from game.views import view_of
from tests.game.option_positions import moments


def _post(waiting: list[Options]) -> str:
    return options_text([names.prose(line) for o in waiting for line in o.lines()[1:]],
                        more=sum(o.left_out for o in waiting))


def _menu(options: Options) -> list[tuple[str, str]]:
    select = OptionSelect(1, 1, options).item
    return [(choice.label, choice.value) for choice in select.options]


def _ordered(options: Options) -> list[tuple[str, str, str]]:
    return [(o.ship, o.text, o.order) for o in options.items if o.order][:25]


@pytest.fixture(scope="module")
def compared() -> list[tuple[str, list[Options], list[Options]]]:
    rules = load_rules()
    out = []
    for label, state in moments():
        players = sorted(deciders(state))
        full = [public_options(view_of(state, p), rules) for p in players]
        shown = public_options_job(state, players, rules)
        out.append((label, full, shown))
    return out


def test_the_post_and_the_menu_read_as_the_full_options_do(
        compared: list[tuple[str, list[Options], list[Options]]]) -> None:
    for label, full, shown in compared:
        assert _post(shown) == _post(full), label
        assert [o.player for o in shown] == [o.player for o in full], label
        if len(full) == 1:
            assert _menu(shown[0]) == _menu(full[0]), label
            assert any(o.order for o in shown[0].items) == any(o.order for o in full[0].items), label
        for f, s in zip(full, shown, strict=True):
            assert _ordered(s) == _ordered(f), label  # what a menu choice gives (the full options)
            assert s.items == f.items[:len(s.items)], label  # the ships worked out, as they are in full
            assert s.left_out == 0 or len(s.lines()) + s.left_out == len(f.lines()), label


def test_the_big_fleets_leave_ships_out(compared: list[tuple[str, list[Options], list[Options]]]) -> None:
    """The bound is real: at 64 a side ships go unworked (the post's short lines hold some 35 ships),
    on small tables none do."""
    left = {label: sum(o.left_out for o in shown) for label, _, shown in compared}
    assert left["fleet 64 1 @1"] >= 20 and left["fleet 64 1 @40"] >= 8
    assert all(n == 0 for label, n in left.items() if label.startswith("quick start"))
