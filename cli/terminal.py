"""What the command line writes to a terminal. Much of it comes from files anyone may have written (a
log's ship, player and game names, a script's lines, a scenario's names), and a terminal obeys
control characters: an ESC sequence can retitle the window, clear the screen or write the clipboard
(OSC 52). So every stream the command line writes to passes through `printable`, by construction,
and a refusal is one `error:` line on stderr."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from typing import TYPE_CHECKING, TextIO, cast

if TYPE_CHECKING:
    from game.service.errors import ServiceError

# An escape sequence as a whole (CSI, OSC or DCS-like strings up to BEL or ST, or ESC and one more
# character), so nothing of it is left to show, then any other C0 control but tab and newline, DEL
# and the C1 controls (a terminal may read U+009B as CSI).
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"  # CSI … final byte
    r"|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, DCS, SOS, PM, APC … BEL or ST
    r"|\x1b.?"  # any other escape
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]",
    re.DOTALL,
)


def printable(text: str) -> str:
    """`text` without anything a terminal would act on: only tab and newline of the controls stay."""
    return _CONTROL.sub("", text)


class TerminalText(io.TextIOBase):
    """A text stream that writes only printable text to the one it wraps."""

    def __init__(self, raw: TextIO) -> None:
        self._raw = raw

    def write(self, s: str) -> int:
        self._raw.write(printable(s))
        return len(s)

    def flush(self) -> None:
        self._raw.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._raw.isatty()


@contextmanager
def terminal_streams() -> Iterator[None]:
    """sys.stdout and sys.stderr filtered through `printable` while the command runs."""
    # cast: a TextIOBase is every text stream print and json.dump write to, though typing's TextIO
    # names more methods than it has
    with redirect_stdout(cast(TextIO, TerminalText(sys.stdout))), redirect_stderr(cast(TextIO, TerminalText(sys.stderr))):
        yield


def service_fault(exc: ServiceError) -> str:
    """A fault of the game service, owned as its own trouble: the command may well be fine."""
    what = exc.allowed or "Try again in a moment."
    return (f"{exc.message} {what} (A problem in Quarterdeck's game service, not in your command: nothing "
            "was changed. If it keeps happening, report it.)")


def refuse(text: str) -> int:
    """A refusal: one `error:` line on stderr, whatever the text held, and the exit status 2."""
    print(f"error: {' '.join(text.split())}", file=sys.stderr)
    return 2
