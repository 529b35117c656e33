"""The table teaches (issue 25): `hand` says what each card does and the lines it needs, `rules NAME`
answers a card, trait or term from the game's data, and `help` lists every line the cards need."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from cli.common import HELP
from cli.table import run_table
from game.errors import UnknownName
from game.glossary import how_to_play, look_up
from game.notation import parse
from game.rules_data import load_rules

RULES = load_rules()
ROOT = Path(__file__).resolve().parents[2]


def _table(tmp_path: Path, lines: list[str], vs_ai: str | None = None) -> str:
    out = io.StringIO()
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    assert run_table(None, 3, iter([*lines, "quit"]), out, interactive=False, vs_ai=vs_ai, db=db) == 0
    return out.getvalue()


def test_hand_gives_each_card_its_effect_and_the_lines_it_needs(tmp_path: Path) -> None:
    text = _table(tmp_path, ["hand A"])
    assert "Player A's hand (5 cards; Fortune 3):" in text
    assert "  Rolling Broadsides (3): Ships may spend their Crew Action to attack during the Movement Phase." in text
    assert "`move SHIP crew fire port TARGET`" in text
    assert "  Adjust Position (4): " in text and "`move SHIP shift start port 0.5`" in text
    assert "`pick A Effective Fire`" in text  # the player's own letter, ready to type
    assert "Nothing to type: it is in force while the card is face up" in text  # Effective Fire, Down!


def test_hand_shows_no_computer_side_and_at_a_shared_screen_both_sides(tmp_path: Path) -> None:
    against = _table(tmp_path, ["hand B", "hand"], vs_ai="B")
    assert "refused: player B's hand is not yours to see." in against
    assert "Player A's hand (5 cards" in against and "Player B's hand (" not in against
    (tmp_path / "two").mkdir()
    shared = _table(tmp_path / "two", ["hand"])
    assert "Player A's hand (5 cards" in shared and "Player B's hand (5 cards" in shared


def test_rules_answers_a_card_a_trait_and_a_term_and_names_the_nearest_otherwise(tmp_path: Path) -> None:
    text = _table(tmp_path, ["rules Effective Fire", "rules small", "rules Shaken", "rules efective fire",
                             "rules Zzyzx", "rules Ad"])
    assert "Effective Fire (initiative card, value 3): +1 Broadside value for each ship this turn." in text
    assert "Small (ship trait): The ship's Fortitude counts as 2 against attacks at Cannon Shot" in text
    assert "Shaken (term): Fatigue 7." in text and "`move SHIP crew rally`" in text
    assert text.count("Effective Fire (initiative card") == 2  # one misspelling away is still answered
    assert "refused: No card, trait or term is called 'Zzyzx'." in text
    assert "refused: No card, trait or term is called 'Ad'. Nearest: Adjust Position" in text
    assert "Did you mean" not in text  # `rules` is a table word, not an unknown command


def test_every_line_a_card_needs_parses_and_is_in_help() -> None:
    names = {"SHIP": "Kestrel", "TARGET": "Otter", "PLAYER": "A", "CARD": "Reload!"}
    for card in RULES.cards.values():
        for line in how_to_play(card):
            for order in re.findall(r"`([^`]+)`", line):
                if "…" in order or "[" in order:
                    continue
                typed = " ".join(names.get(w, w) for w in order.split())
                parse(typed)  # raises if the notation does not read it
                keywords = [w for w in order.split() if w.islower() and w not in ("port", "starboard")
                            and w not in card.name.split()]
                missing = [w for w in keywords if not re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", HELP)]
                assert not missing, (card.name, order, missing)
    for needed in ("shift start|end SIDE INCHES", "crew fire SIDE TARGET", "crew boat TARGET", "borrow CARD",
                   "rules NAME"):
        assert needed in HELP
    notation = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    assert "`move Kestrel shift start port 0.5`" in notation and "`move Kestrel crew fire port Otter`" in notation


def test_the_glossary_refuses_an_empty_name_with_examples() -> None:
    with pytest.raises(UnknownName) as err:
        look_up(RULES, "  ")
    assert "`rules Effective Fire`" in err.value.text
    assert look_up(RULES, "Petite Fregate").name == "Petite Frégate"  # without the accent
    assert look_up(RULES, "cannon shot").text.startswith('within 12"')


def test_the_table_says_an_idle_reveal_and_a_pass(tmp_path: Path) -> None:
    # the quick start: B's Take Courage is face up in turn 1; its ships are in Formation, none tired
    text = _table(tmp_path, ["pick A Down!", "pick B Take Courage", "pick A Careful Aim", "pick B Reload!",
                             "move Otter", "move Kestrel", "move Hoorn", "move Amazone", "pass Otter"])
    assert ("  Take Courage (player B) does nothing: none of player B's ships in Formation has Fatigue to remove."
            in text)
    assert "  Otter passes: no attack this turn." in text
