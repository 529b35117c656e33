"""Discord's limits on what the bot sends, and the one way each is kept: text is cut with "…", a
list ends with "… and N more", a name is shortened where it is made. Discord refuses a message that
breaks a limit (400 Invalid Form Body), so an uncut echo of a long name would lose the whole answer.
tests/bot/fake_discord.py enforces the same limits on every request of every bot test."""

from __future__ import annotations

from collections.abc import Sequence

MAX_CONTENT = 2000  # a message's text
MAX_FILES = 10  # files in one message
MAX_REQUEST = 25 * 1024 * 1024  # bytes one message may carry, whatever a file's own limit
DEFAULT_UPLOAD = 10 * 1024 * 1024  # bytes a file, in a server without boosts
MAX_THREAD_NAME = 100
MAX_CHOICES = 25  # autocomplete choices in one answer
MAX_CHOICE_NAME = 100  # characters of a choice's name (and of a string value)
MAX_RULES_HINT = 900  # of an error's "what is allowed" part, when the whole does not fit
ELLIPSIS = "…"


def fit(text: str, limit: int = MAX_CONTENT) -> str:
    """The text, or as much of it as fits in `limit` characters ending with "…"."""
    return text if len(text) <= limit else text[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


def newest_lines(text: str, limit: int = 1900) -> str:
    """The end of a log, in whole lines: a line cut at its start could lose the backslash of an
    escaped name (docs/bot.md, "Names are text") and show the rest as markup."""
    return text if len(text) <= limit else text[-limit:].split("\n", 1)[-1]


def error_text(message: str, allowed: str, prefix: str = "❌ ", limit: int = MAX_CONTENT) -> str:
    """A rules error that fits one message. What was wrong often echoes what the user typed (which may
    be thousands of characters), so that part is cut first and what is allowed is kept."""
    allowed = fit(allowed, MAX_RULES_HINT) if allowed else ""
    room = limit - len(prefix) - (len(allowed) + 1 if allowed else 0)
    return f"{prefix}{fit(message, room)}" + (f" {allowed}" if allowed else "")


def fit_lines(lines: Sequence[str], more: str = "", limit: int = MAX_CONTENT, line_limit: int = 300,
              beyond: int = 0) -> str:
    """Lines, each cut to `line_limit`, as many as fit in `limit`, then "… and N more" counting the
    lines left out and `beyond` (items not even fetched, such as further pages), followed by `more`:
    where to find them (e.g. " (next page: `/game list page:2`)")."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        line = fit(line, line_limit)
        left = len(lines) - i - 1 + beyond  # after this line
        tail = f"{ELLIPSIS} and {left} more{more}" if left else ""
        if used + len(line) + (1 + len(tail) if tail else 0) > limit:
            out.append(fit(f"{ELLIPSIS} and {left + 1} more{more}", limit - used))
            break
        out.append(line)
        used += len(line) + 1
    else:
        if beyond:
            out.append(f"{ELLIPSIS} and {beyond} more{more}")
    return "\n".join(out)


def thread_name(text: str) -> str:
    return fit(" ".join(text.split()), MAX_THREAD_NAME) or "Oak & Iron"


def file_batches(sizes: Sequence[int], room: int = MAX_REQUEST - 1_000_000, most: int = MAX_FILES) -> list[list[int]]:
    """The indexes of files, in order, grouped into messages of at most `most` files and `room` bytes
    (a file larger than the room goes alone)."""
    out: list[list[int]] = []
    used = 0
    for i, size in enumerate(sizes):
        if not out or len(out[-1]) >= most or used + size > room:
            out.append([])
            used = 0
        out[-1].append(i)
        used += size
    return out
