"""Reading a line of table notation into words: the one reader behind Oak & Iron's notation
(game/notation.py) and the assistant systems' (game/systems/common.py), so a quote, a comment or a
`NAME:` prefix means the same in every game Quarterdeck serves."""

from __future__ import annotations

import shlex
from collections.abc import Collection

from game.errors import ParseError


def split_words(text: str) -> list[str]:
    """Words, with double quotes around a name that holds spaces. An apostrophe is part of a name
    (Flag Officer's Eye, Lookout's Cry, a ship called Anne's Revenge), never a quote."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    lexer.quotes = '"'
    return list(lexer)


def quote(name: str) -> str:
    """A name as a word `split_words` reads back whole."""
    if name and all(ch.isalnum() or ch in "-_'!.&" for ch in name):
        return name
    return '"' + name.replace('"', '\\"') + '"'


def read_words(line: str, verbs: Collection[str]) -> tuple[str, list[str]]:
    """Who gives the line (an optional `NAME:` prefix that is not a verb, "" if none) and its words;
    `#` starts a comment."""
    text = line.split("#", 1)[0].strip()
    if not text:
        raise ParseError("The line is empty.")
    player = ""
    head, sep, rest = text.partition(":")
    if sep and head.strip() and " " not in head.strip() and head.strip().lower() not in verbs:
        player, text = head.strip(), rest.strip()
    try:
        words = split_words(text)
    except ValueError as exc:
        raise ParseError(f"Unbalanced quotes in {line!r}: {exc}.") from None
    if not words:
        raise ParseError("The line is empty.")
    return player, words


class Tokens:
    """A cursor over a line's words."""

    HINT = "See `help` for the notation."  # where the notation is written down

    def __init__(self, line: str, items: list[str]) -> None:
        self.line = line
        self.items = items
        self.i = 0

    def peek(self) -> str | None:
        return self.items[self.i].lower() if self.i < len(self.items) else None

    def take(self, what: str) -> str:
        if self.i >= len(self.items):
            raise ParseError(f"{self.line!r} is missing {what}.", self.HINT)
        tok = self.items[self.i]
        self.i += 1
        return tok

    def take_choice(self, what: str, choices: tuple[str, ...]) -> str:
        tok = self.take(what).lower()
        if tok not in choices:
            raise ParseError(f"Expected {what} ({' | '.join(choices)}), got {tok!r}.")
        return tok

    def take_int(self, what: str) -> int:
        tok = self.take(what)
        try:
            return int(tok)
        except ValueError:
            raise ParseError(f"Expected a whole number for {what}, got {tok!r}.") from None

    def done(self) -> bool:
        return self.i >= len(self.items)

    def end(self) -> None:
        if not self.done():
            raise ParseError(f"Did not understand {' '.join(self.items[self.i:])!r} in {self.line!r}.")
