"""A finished game's log file (the JSON `/game verify` and `/game replay` attach), read as foreign
data: anyone can hand `quarterdeck verify` or `quarterdeck replay` any file, so nothing in it is
trusted before it has passed every bound here, in this order (docs/fair-play.md, "Reading a log"):

1. its size, read with a cap (a larger file is refused after the cap, never read whole);
2. before parsing: how many arrays, objects and values it holds and how deeply they nest;
3. while parsing: every number finite and within MAX_NUMBER (no NaN, no infinity);
4. its shape (a pydantic schema), then every part decoded into the game's own types;
5. its fit: the table and fleets within a scenario's bounds, and every event applies to the game
   as it stands at that point, checked after each event.

A log that passes plays back and verifies without surprises; anything else is one LogFileError.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from game.apply import apply
from game.codec import from_data
from game.errors import DataError, RulesError
from game.events import EVENTS
from game.model import Game
from game.rules_data import RulesData, rules_from_texts
from game.schema.common import MAX_DEPTH, MAX_TABLE_INCHES, read_text_file
from game.schema.scenario import MAX_POLYGON_POINTS, MAX_SHIPS, MAX_SQUADRONS, MAX_TERRAIN

FORMAT = "quarterdeck-log/1"
MAX_BYTES = 10 * 1024 * 1024  # the most a file may be in a server without boosts: the bot attaches no larger log
MAX_CONTAINERS = 300_000  # arrays and objects; a real game has about three an event
MAX_VALUES = 1_000_000  # numbers, strings and the rest; a real game has about eight an event
MAX_EVENTS = 50_000  # ten times a long drafted game
MAX_COMMANDS = 5_000  # the moments a replay shows: far beyond any real game
MAX_NUMBER = 2**31  # the largest number a game stores (an older game's seed)
MAX_NAME = 200  # characters of the game's name kept

# a whole string (an unclosed one runs to the end, so no text is scanned twice), or one character
# of structure
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{},:]', re.DOTALL)
# what apply, which never checks, raises on an event that does not fit the state it is applied to
_MISFITS = (LookupError, ValueError, TypeError, AttributeError, ArithmeticError, AssertionError, StopIteration)


class LogFileError(RulesError):
    code = "log-file"


@dataclass(frozen=True)
class GameLog:
    """A finished game's log file, read within the bounds and checked for shape and fit."""

    name: str
    seed: str
    commitment: str | None
    rules: RulesData
    initial: Game
    log: list[tuple[int, Any]]


class _LogDoc(BaseModel):
    model_config = ConfigDict(extra="ignore")

    format: Literal["quarterdeck-log/1"]
    name: StrictStr = ""
    system: Annotated[StrictStr, Field(max_length=50)]
    seed: Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]  # every game's dice seed, in hex
    commitment: Annotated[StrictStr, Field(max_length=200)] | None = None
    initial_state: dict[StrictStr, Any]
    events: Annotated[list[Any], Field(max_length=MAX_EVENTS)]  # pairs, checked one by one below
    data_files: dict[StrictStr, StrictStr]


def read_log_file(path: Path) -> GameLog:
    """Read and check the log file at `path`, never more than MAX_BYTES of it."""
    return parse_log(read_text_file(path, MAX_BYTES, LogFileError), str(path))


def parse_log(text: str, label: str) -> GameLog:
    _check_before_parsing(text, label)
    try:
        doc = json.loads(text, parse_constant=_no_constant, parse_float=_float, parse_int=_int)
    except _NumberOutOfBounds as exc:
        raise LogFileError(f"{label} holds the number {exc.args[0]}: numbers in a log are finite and at most "
                           f"{MAX_NUMBER:,}.") from None
    except (ValueError, RecursionError) as exc:
        raise LogFileError(f"{label} is not a Quarterdeck game log: it is not valid JSON ({exc}).") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise LogFileError(f"{label} is not a Quarterdeck game log (format {FORMAT}).")
    try:
        shape = _LogDoc.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise LogFileError(f"{label} is damaged: {where}: {first['msg']}.") from None
    del doc  # the decoded parts below replace it
    try:
        rules = rules_from_texts(shape.system, shape.data_files)
    except DataError as exc:
        raise LogFileError(f"the log's data files are not valid: {exc}") from None
    initial = _decoded(Game, shape.initial_state, "its starting state")
    _check_bounds(initial, "its starting state")
    log = [_event(pair, i) for i, pair in enumerate(shape.events, 1)]
    shape.events.clear()  # the decoded events replace the parsed ones
    commands = sum(1 for i, (cmd, _) in enumerate(log) if i == 0 or log[i - 1][0] != cmd)
    if commands > MAX_COMMANDS:
        raise LogFileError(f"{label} holds {commands:,} commands; a game's log holds at most {MAX_COMMANDS:,}.")
    _check_fit(initial, log)
    return GameLog(shape.name[:MAX_NAME], shape.seed, shape.commitment or None, rules, initial, log)


# ---------------------------------------------------------------- before and while parsing


def _check_before_parsing(text: str, label: str) -> None:
    """Counts made on the text before `json` builds anything, since what it would build is bounded by
    them. One token at a time, so the scan itself holds nothing; strings are skipped whole, as the
    data files inside a log are TOML full of brackets."""
    containers = values = depth = 0
    for m in _TOKEN.finditer(text):
        c = text[m.start()]
        if c in "[{":
            containers += 1
            depth += 1
            if depth > MAX_DEPTH:
                raise LogFileError(f"{label} nests arrays and objects more than {MAX_DEPTH} deep; a game's log "
                                   "does not.")
        elif c in "]}":
            depth -= 1
        elif c in ",:":
            values += 1
        if containers > MAX_CONTAINERS or values > MAX_VALUES:
            raise LogFileError(f"{label} holds more than {MAX_CONTAINERS:,} arrays and objects or {MAX_VALUES:,} "
                               "values; a game's log holds fewer.")


class _NumberOutOfBounds(ValueError):
    pass


def _no_constant(name: str) -> float:
    raise _NumberOutOfBounds(name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise _NumberOutOfBounds(_shown(text))
    return value


def _int(text: str) -> int:
    if len(text) > 12 or abs(int(text)) > MAX_NUMBER:  # its length first: a long one is slow to convert
        raise _NumberOutOfBounds(_shown(text))
    return int(text)


def _shown(number: str) -> str:
    return number if len(number) <= 24 else f"{number[:20]}… ({len(number)} characters)"


# ---------------------------------------------------------------- shape and fit


def _decoded(decode: Any, data: Any, what: str) -> Any:
    try:
        return from_data(decode, data) if isinstance(decode, type) else decode(data)
    except (KeyError, TypeError, ValueError, RecursionError) as exc:
        raise LogFileError(f"The log is damaged: {what} is not what a game records ({type(exc).__name__}: "
                           f"{str(exc)[:200]}).") from None


def _event(pair: Any, i: int) -> tuple[int, Any]:
    if not (isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int and isinstance(pair[1], dict)):
        raise LogFileError(f"The log is damaged: event {i} is not a pair of a command number and an event.")
    return pair[0], _decoded(EVENTS.decode, pair[1], f"event {i}")


def _check_bounds(state: Game, where: str) -> None:
    """The bounds a scenario upload keeps (docs/scenario-format.md), so that a log's table, fleets and
    terrain cost what a real game's do to replay and draw."""
    table = state.table
    problem = ""
    if not (0 < table.width <= MAX_TABLE_INCHES and 0 < table.height <= MAX_TABLE_INCHES):
        problem = f"a table of {table.width:g} by {table.height:g} inches (at most {MAX_TABLE_INCHES:g} a side)"
    elif len(state.ships) > MAX_SHIPS or len(state.squadrons) > MAX_SQUADRONS:
        problem = f"{len(state.ships)} ships in {len(state.squadrons)} squadrons (at most {MAX_SHIPS} in {MAX_SQUADRONS})"
    elif len(table.terrain) > MAX_TERRAIN or any(len(t.points) > MAX_POLYGON_POINTS for t in table.terrain):
        problem = f"more than {MAX_TERRAIN} terrain pieces or {MAX_POLYGON_POINTS} points to one"
    if problem:
        raise LogFileError(f"The log is not a game's: {where} has {problem}.")


def _check_fit(initial: Game, log: list[tuple[int, Any]]) -> None:
    """Apply every event once, as verify and replay will: an event that names a ship the game does
    not have, or otherwise does not fit the game at that point, is the log's fault, said as such."""
    state = initial
    for i, (_, event) in enumerate(log, 1):
        name = type(event).__name__
        try:
            state = apply(state, event)
        except _MISFITS as exc:
            raise LogFileError(f"The log is not a game's: event {i} ({name}) does not fit the game at that point "
                               f"({type(exc).__name__}: {str(exc)[:200]}).") from None
        _check_bounds(state, f"after event {i} ({name}) the game")
