"""Names are text (issue 22, property 7): the one escape the chat texts use, exactly; the account
escapes names for chat and keeps them raw in the log; a terminal or an image gets them back as written."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import events as ev
from game.account import account
from game.names import code, is_side_label, member, plain, prose, text


@pytest.mark.parametrize(("name", "shown"), [
    ("[Free Nitro](https://t.ly/x)", r"\[Free Nitro\](https\://t.ly/x)"),
    ("@everyone", r"\@everyone"),
    ("@here", r"\@here"),
    ("<@123>", r"\<\@123\>"),
    ("<#1>", r"\<#1\>"),
    ("<@&1>", r"\<\@&1\>"),
    ("<t:1795913367:R>", r"\<t:1795913367:R\>"),
    ("**bold**", r"\*\*bold\*\*"),
    ("__underline__ ~~gone~~", r"\_\_underline\_\_ \~\~gone\~\~"),
    ("`code`", r"\`code\`"),
    ("||spoiler||", r"\|\|spoiler\|\|"),
    ("# heading", r"\# heading"),
    ("-# small", r"\-# small"),
    ("> quote", r"\> quote"),
    ("- item", r"\- item"),
    ("1. first", r"1\. first"),
    ("```fence", r"\`\`\`fence"),
    ("back\\slash", r"back\\slash"),
    ("Jean-Bart", "Jean-Bart"),  # marks that mean nothing where they stand are left alone
    ("HMS Victory (1765)", "HMS Victory (1765)"),
    ("Queen Anne's Revenge #2", "Queen Anne's Revenge #2"),
])
def test_a_name_is_escaped_exactly(name: str, shown: str) -> None:
    assert text(name) == shown
    assert plain(shown) == name


# every name but one holding the two control characters that mark a member or time token, which no
# name may hold (schema/common.py) and `text` takes out (tests/game/test_markup.py)
@given(st.text(max_size=80).filter(lambda name: "\x02" not in name and "\x03" not in name))
def test_plain_gives_back_every_name(name: str) -> None:
    assert plain(text(name)) == name


@given(st.text(alphabet="[]()<>@#&*_~`|:/->! x1.\\\n", max_size=40))
def test_an_escaped_name_holds_no_mark_outside_an_escape(name: str) -> None:
    bare = re.sub(r"\\.", "", text(name), flags=re.DOTALL)  # what is left once every escape is taken out
    assert not set(bare) & set("[]<>@*_~`|\\"), (name, text(name))
    # no link: no unescaped colon before "//" (taking the escapes out, as `bare` does, would join an
    # escaped colon's neighbour to the slashes: ":\\://" holds no "://" that Discord could read)
    marks = re.findall(r"\\.|.", text(name), flags=re.DOTALL)  # each escape one mark
    assert not any(marks[i:i + 3] == [":", "/", "/"] for i in range(len(marks))), (name, text(name))


def test_prose_escapes_all_but_its_code_spans() -> None:
    words = "There is no ship called '**x**'. Known: <@1>, `move \"<@1>\" ahead`."
    assert prose(words) == r"""There is no ship called '\*\*x\*\*'. Known: \<\@1\>, `move "<@1>" ahead`."""
    assert prose("# a heading\n> a quote") == "\\# a heading\n\\> a quote"


def test_code_fences_a_command_past_its_backticks() -> None:
    assert code("/league join name: Autumn") == "`/league join name: Autumn`"
    assert code("/league join name: ```x") == "````/league join name: ```x````"
    assert code("`x") == "`` `x ``"

def test_a_side_label_is_letters_and_digits() -> None:
    assert all(map(is_side_label, ("A", "B1", "British", "Royal Navy", "Queen's", "Ü")))
    assert not any(map(is_side_label, ("**A**", "<@1>", "A_B", "- A", "A|B", "", " A")))


HAND_OVER = ev.SeatHandedOver("A", "[Free Nitro](https://t.ly/x)", "@everyone", "777777777777777777", False)


def test_the_hand_over_line_names_both_members_as_text() -> None:
    assert account(HAND_OVER) == (r"🔁 Side A changes hands: \@everyone plays it from now on (was "
                                  r"\[Free Nitro\](https\://t.ly/x); handed over by "
                                  f"{member('777777777777777777')}).")  # a token: the bot says <@…>
    assert HAND_OVER.before == "[Free Nitro](https://t.ly/x)"  # the log keeps the name as it is


def test_a_terminal_shows_names_as_written() -> None:
    from cli.common import print_events

    out = io.StringIO()
    print_events([HAND_OVER], out)
    assert "(was [Free Nitro](https://t.ly/x);" in out.getvalue() and "\\" not in out.getvalue()


def test_one_helper_escapes_names() -> None:
    """Every echoed name goes through game/names.py: no module escapes names a second way (discord.py's
    escape_markdown leaves mentions and masked links whole, so two ways would mean two rules)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    others = [str(path.relative_to(root)) for folder in ("bot", "game", "cli", "render")
              for path in (root / folder).rglob("*.py")
              if any(w in path.read_text(encoding="utf-8") for w in ("escape_markdown", "escape_mentions"))]
    assert others == []
