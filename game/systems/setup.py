"""Reading a setup description (a parsed TOML document): typed fields, and an error that names the
entry and the field at fault."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.errors import IllegalAction
from game.names import SIDE_RULE, is_side_label
from game.schema.common import MAX_NAME

_MISSING = object()


class SetupError(IllegalAction):
    code = "setup"


def field(doc: Mapping[str, Any], key: str, kind: type, where: str, default: Any = _MISSING) -> Any:
    if key not in doc:
        if default is _MISSING:
            raise SetupError(f"The setup's {where} needs `{key}`.")
        return default
    value = doc[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise SetupError(f"The setup's {where}: `{key}` must be a whole number, got {value!r}.")
    if not isinstance(value, kind):
        raise SetupError(f"The setup's {where}: `{key}` must be {kind.__name__}, got {value!r}.")
    return value


def int_in(doc: Mapping[str, Any], key: str, lo: int, hi: int, where: str, default: Any = _MISSING) -> int:
    value: int = field(doc, key, int, where, default)
    if not lo <= value <= hi:
        raise SetupError(f"The setup's {where}: `{key}` must be from {lo} to {hi}, got {value}.")
    return value


def choice(doc: Mapping[str, Any], key: str, choices: tuple[str, ...], where: str, default: Any = _MISSING) -> str:
    value: str = field(doc, key, str, where, default)
    if value not in choices:
        raise SetupError(f"The setup's {where}: `{key}` must be one of {', '.join(choices)}, got {value!r}.")
    return value


def int_list(doc: Mapping[str, Any], key: str, where: str, lengths: tuple[int, ...], lo: int = 1) -> tuple[int, ...]:
    value = field(doc, key, list, where)
    if len(value) not in lengths or any(isinstance(v, bool) or not isinstance(v, int) or v < lo for v in value):
        sizes = " or ".join(str(n) for n in lengths)
        raise SetupError(f"The setup's {where}: `{key}` must list {sizes} whole numbers of at least {lo}, got {value!r}.")
    return tuple(value)


def str_list(doc: Mapping[str, Any], key: str, where: str, default: Any = _MISSING) -> tuple[str, ...]:
    value = field(doc, key, list, where, default)
    if any(not isinstance(v, str) or not v.strip() for v in value):
        raise SetupError(f"The setup's {where}: `{key}` must be a list of names, got {value!r}.")
    return tuple(v.strip() for v in value)


def players_and_referee(doc: Mapping[str, Any]) -> tuple[tuple[str, ...], str]:
    players = str_list(doc, "players", "game")
    if len(players) < 2 or len(set(players)) != len(players):
        raise SetupError("The setup needs at least two players, each named once.")
    referee = field(doc, "referee", str, "game", players[0]).strip()
    if not referee:
        raise SetupError("The setup's `referee` is empty.")
    for seat in (*players, referee):
        if not is_side_label(seat) or len(seat) > MAX_NAME:
            raise SetupError(f"The setup's seat {seat[:MAX_NAME]!r} must be {SIDE_RULE}, at most {MAX_NAME} "
                             "characters: a seat's name is typed in commands and said in posts.")
    return players, referee


def entries(doc: Mapping[str, Any], key: str, players: tuple[str, ...], what: str) -> list[Mapping[str, Any]]:
    raw: list[Mapping[str, Any]] = field(doc, key, list, "game")
    if not raw:
        raise SetupError(f"The setup lists no {what}.")
    ids: set[str] = set()
    for i, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict):
            raise SetupError(f"The setup's {what} {i} must be a table.")
        name = field(entry, "id", str, f"{what} {i}").strip()
        if not name or name in ids:
            raise SetupError(f"The setup's {what} {i}: `id` {name!r} is empty or used twice.")
        ids.add(name)
        if field(entry, "player", str, f"{what} {name}") not in players:
            raise SetupError(f"The setup's {what} {name}: player {entry['player']!r} is not one of {', '.join(players)}.")
    return raw
