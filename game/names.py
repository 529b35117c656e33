"""Names are text: whatever a member, a squadron, a ship, a scenario, a league or a referee's unit is
called, the bot says it as written, never as markup (docs/bot.md, "Names are text").

Names are stored and logged raw; the text builders pass every name through `text` as they compose a
line for chat, and wording composed around raw names (a rules error, a referee system's account line)
goes through `prose` where it becomes a message, so no event carries markup and no front end gets a
name another front end escaped (`plain` gives a terminal or an image the names back). Members and
times are said as tokens (`member`, `moment`) that each front end says its own way: only bot/ makes
Discord markup (bot/markup.py). Pure: game/ imports no Discord, so this is Discord's markdown as its
clients read it, written out here."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

# a backslash before any of these shows the character itself: emphasis, strike-through, spoilers,
# code, masked links, mentions, channels, roles, timestamps and custom emoji (`<…>`), @everyone and @here
_ANYWHERE = re.compile(r"([\\*_~`|\[\]<>@])")
# these mean something only where a line starts, and a name may start a line: headings, quotes,
# lists and the small-text `-#`
_AT_START = re.compile(r"^([ \t]*)([#>+-]|\d+(?=\.\s))", re.MULTILINE)
_LINK = re.compile(r":(?=//)")  # a bare link (https://…) would be made a link and previewed
# a side's label (A, B1, British, Royal Navy): typed in commands and said in nearly every line, so it
# is held to letters and digits, with spaces and ' . - between them, and never needs escaping
SIDE_LABEL = re.compile(r"[^\W_](?:[^\W_]|[ .'-])*")
SIDE_RULE = "letters and digits (spaces and ' . - between them)"
# an inline code span as Discord's clients find one: nothing in it is markup, so nothing is escaped
CODE_SPAN = re.compile(r"(`+)([\s\S]*?[^`])\1(?!`)")


def text(name: str) -> str:
    """The name as literal text in a chat message (without the marks of a member or time token)."""
    return _line_starts(_inline(name.replace(_OPEN, "\ufffd").replace(_CLOSE, "\ufffd")))


def prose(words: str) -> str:
    """Wording the game composed around names it did not escape one by one (a rules error, an option
    naming ships and targets): all of it is text, but for its code spans, which show as written."""
    out, at = [], 0
    for span in CODE_SPAN.finditer(words):
        out += [_inline(words[at:span.start()]), span.group(0)]
        at = span.end()
    out.append(_inline(words[at:]))
    return _line_starts("".join(out))


def is_side_label(label: str) -> bool:
    return SIDE_LABEL.fullmatch(label) is not None


def code(words: str) -> str:
    """A command to copy that holds a name, as a code span: shown as written, whatever backticks the
    name has (the span's fence is longer than any run of them inside)."""
    fence = "`" * (max((len(run) for run in re.findall("`+", words)), default=0) + 1)
    pad = " " if words.startswith("`") or words.endswith("`") else ""
    return f"{fence}{pad}{words}{pad}{fence}"


def _inline(words: str) -> str:
    return _LINK.sub(r"\\:", _ANYWHERE.sub(r"\\\1", words))


def _line_starts(words: str) -> str:
    return _AT_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}" if not m.group(2).isdigit()
                         else f"{m.group(1)}{m.group(2)}\\", words)


def plain(line: str) -> str:
    """A line built with `text` as the reader of a terminal or an image should see it: the names as
    written, and the members and times it names as plain text (`spoken`). Only for lines whose every
    backslash came from `text` (the game's own wording has none)."""
    return spoken(re.sub(r"\\(.)", r"\1", line), lambda user_id: f"@{user_id}", utc_text)


# A member or a time in a line the game composes is a token, not markup: the front end says it
# (bot/markup.py as a mention or a Discord timestamp; `plain` as the id and a UTC time). Its marks are
# control characters, which no name, file or command may hold (schema/common.py), and `text` takes
# them out of a name, so a name cannot forge one; its inside holds nothing `prose` escapes.
_OPEN, _CLOSE = "\x02", "\x03"
_TOKEN = re.compile("\x02(?:m([0-9]{1,20})|t(-?[0-9]{1,12}):([a-zA-Z]))\x03")


def member(user_id: str) -> str:
    """A member named in a line: a token for a Discord id (a mention where the bot posts it, pinged
    only where the post allows it), the id itself otherwise (the offline table's players, a computer
    captain)."""
    discord_id = user_id.isascii() and user_id.isdigit() and len(user_id) <= 20
    return f"{_OPEN}m{user_id}{_CLOSE}" if discord_id else user_id


def moment(when: datetime | str, style: str = "f") -> str:
    """A time named in a line (a datetime, or ISO 8601 as events store it; naive means UTC): `f` the
    date and time, `R` relative where the front end can say it ("in 3 hours"), absolute where not."""
    at = datetime.fromisoformat(when) if isinstance(when, str) else when
    at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    epoch = int(at.timestamp())
    datetime.fromtimestamp(epoch, UTC)  # ValueError for a time before year 1 in UTC: no token says it
    return f"{_OPEN}t{epoch}:{style}{_CLOSE}"


def iso(when: datetime) -> str:
    """A time as events store it: ISO 8601 in UTC, to the second."""
    at = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return at.astimezone(UTC).isoformat(timespec="seconds")


def spoken(line: str, say_member: Callable[[str], str], say_time: Callable[[int, str], str]) -> str:
    """The line with each member token said by `say_member(user_id)`, each time by `say_time(epoch, style)`."""
    return _TOKEN.sub(lambda m: say_member(m[1]) if m[1] is not None else say_time(int(m[2]), m[3]), line)


def utc_text(epoch: int, style: str = "f") -> str:
    """A time as plain text: the date and the minute, in UTC (whatever the style: no relative time
    stays true in a log read later)."""
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d %H:%M UTC")
