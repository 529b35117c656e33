"""The one filter between the command line and a terminal (cli/terminal.py): nothing a terminal acts
on survives it, whatever the text, and text with nothing to act on passes unchanged."""

from __future__ import annotations

import io
import re

from hypothesis import given
from hypothesis import strategies as st

from cli.terminal import TerminalText, printable

CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
PIECES = st.sampled_from(["\x1b]0;title\x07", "\x1b[2J", "\x1b]52;c;aGk=\x1b\\", "\x9b1m", "\x1b", "\x07", "\r",
                          "\x7f", "\x85", "[", "]", "\\", ";", "\n", "\t", "Kestrel", "é", "—"])


@given(st.lists(PIECES | st.text(max_size=5), max_size=20).map("".join))
def test_nothing_a_terminal_acts_on_survives(text: str) -> None:
    shown = printable(text)
    assert not CONTROLS.search(shown)
    assert printable(shown) == shown


@given(st.text(alphabet=st.characters(exclude_categories=("Cc",)) | st.sampled_from("\n\t")))
def test_printable_text_passes_unchanged(text: str) -> None:
    assert printable(text) == text


def test_whole_sequences_go_not_only_their_escape() -> None:
    sequences = "\x1b]0;pwned\x07\x1b[2J\x1b[1;31m\x1b]52;c;cm0gLXJmIH4K\x1b\\\x1bPq#0\x1b\\"
    assert printable(f"Ot{sequences}ter\r\n") == "Otter\n"
    raw = io.StringIO()
    print("A\x1b[2Jgame\x9b", file=TerminalText(raw))
    assert raw.getvalue() == "Agame\n"
