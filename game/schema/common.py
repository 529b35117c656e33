"""What every file a user may write shares: the limits, the checks made before parsing, the bounded
value types of the schemas, and one way of naming a refused value (file, entry, field).

Limits are checked before the text is parsed (its size, how deeply brackets nest outside strings
so `tomllib` never recurses deeply, how many parts a dotted key has since its cost grows with their
square) and again on the parsed document (how deeply tables nest). The schemas then bound every value: numbers finite and in range, names short
and free of control characters, lists short.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from game.errors import DataError
from game.names import SIDE_RULE, is_side_label

MAX_DEPTH = 16  # brackets and braces nested outside strings, and tables nested in the document
MAX_NAME = 64  # characters in a name (ship, card, player, keyword …)
MAX_TEXT = 1000  # characters in a card's rule text
MAX_TABLE_INCHES = 120.0  # the longest table side (a 10-foot table)

# Bidirectional overrides and isolates would let a name read differently from what it is.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
_INTERESTING = re.compile(r"[\"'#\[\]{}.=,\n]")
_STRING_STOPS = {
    ('"', False): re.compile(r'[\\"\n]'),
    ('"', True): re.compile(r'[\\"]'),
    ("'", False): re.compile(r"['\n]"),
    ("'", True): re.compile(r"'"),
}

_WORDS = (("a valid dictionary", "a table"), ("a valid list", "a list"), ("a valid integer", "a whole number"),
          ("a valid number", "a number"), ("a valid boolean", "true or false"), ("a valid string", "a string"))

E = TypeVar("E", bound=DataError)
M = TypeVar("M", bound=BaseModel)


# ---------------------------------------------------------------- before parsing


def nesting(text: str, limit: int = MAX_DEPTH) -> tuple[int, int]:
    """(deepest nesting of [ ] and { }, most parts of one dotted key) outside TOML strings and
    comments; counting stops once either passes `limit`. Both are refused before parsing: tomllib
    recurses into brackets, and its time grows with the square of a dotted key's length.
    Cheap: one regular-expression jump per bracket, quote, comment, dot, `=`, comma or line."""
    stack: list[str] = []  # "h" table header, "[" array, "{" inline table
    deepest = longest = dots = 0
    in_key = True  # where a key is written: at a line's start, in a header, after `{` or `,` in `{ }`
    i, n = 0, len(text)
    while deepest <= limit and longest <= limit:
        m = _INTERESTING.search(text, i)
        if m is None:
            break
        i, c = m.start(), m.group()
        if c in "\"'":
            i = _string_end(text, i, c)
            continue
        i += 1
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "\n":
            if not stack:
                in_key, dots = True, 0
        elif c == ".":
            if in_key:
                dots += 1
                longest = max(longest, dots + 1)
        elif c == "=":
            in_key = False
        elif c == "[":
            header = in_key and (not stack or stack == ["h"])
            stack.append("h" if header else "[")
            in_key = header
        elif c == "{":
            stack.append("{")
            in_key, dots = True, 0
        elif c == ",":
            if stack and stack[-1] == "{":
                in_key, dots = True, 0
        elif c in "]}":
            if stack:
                stack.pop()
            in_key = False
        deepest = max(deepest, len(stack))
    return deepest, longest


def _string_end(text: str, i: int, quote: str) -> int:
    """The index just past the TOML string that starts at i (basic or literal, one line or three)."""
    triple = text.startswith(quote * 3, i)
    stop = _STRING_STOPS[(quote, triple)]
    j = i + (3 if triple else 1)
    while True:
        m = stop.search(text, j)
        if m is None:
            return len(text)
        k, ch = m.start(), m.group()
        if ch == "\\":
            j = k + 2  # an escaped character (basic strings only)
        elif ch == "\n" or not triple:
            return k + 1  # the closing quote, or the end of an unclosed one-line string
        elif text.startswith(quote * 3, k):
            k += 3
            for _ in range(2):  # up to two more quotes belong to the content
                if text.startswith(quote, k):
                    k += 1
            return k
        else:
            j = k + 1


def read_text_file(path: Path, max_bytes: int, error: Callable[[str], Exception]) -> str:
    """A user's file as UTF-8 text, of at most `max_bytes`: no more than one byte past the limit is
    ever read, so a huge file costs nothing. A refusal is `error(sentence)`."""
    try:
        with path.open("rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise error(f"{path} cannot be read: {exc.strerror or type(exc).__name__}.") from None
    if len(data) > max_bytes:
        raise error(f"{path} is larger than {max_bytes:,} bytes, the limit for this file.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path} is not UTF-8 text.") from None


def _too_deep(doc: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(doc, 0)]  # the document itself is no level of nesting
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def read_toml(text: str, file: str, max_bytes: int, error: Callable[[str, str, str, str], E]) -> dict[str, Any]:
    """Parse a user's TOML text within the limits; every refusal is `error(file, entry, field, problem)`."""
    size = len(text) if len(text) > max_bytes else len(text.encode("utf-8", errors="surrogatepass"))
    if size > max_bytes:
        raise error(file, "(file)", "(size)", f"is {size:,} bytes; the limit is {max_bytes:,}")
    brackets, dotted = nesting(text)
    if brackets > MAX_DEPTH:
        raise error(file, "(file)", "(nesting)", f"nests brackets more than {MAX_DEPTH} deep")
    if dotted > MAX_DEPTH:
        raise error(file, "(file)", "(nesting)", f"has a dotted key of more than {MAX_DEPTH} parts")
    try:
        doc = tomllib.loads(text)
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError, or an integer too long to convert
        raise error(file, "(file)", "(syntax)", f"is not valid TOML: {exc}") from None
    if _too_deep(doc, MAX_DEPTH):
        raise error(file, "(file)", "(nesting)", f"nests tables more than {MAX_DEPTH} deep")
    return doc


# ---------------------------------------------------------------- bounded values


def control_character(value: str, allow: str = "") -> str | None:
    """The first control, line-separator or bidirectional-override character in value, if any."""
    for ch in value:
        if ch in allow:
            continue
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") or ch in _BIDI:
            return ch
    return None


def _name(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return _optional_name(value)


def _optional_name(value: str) -> str:
    if len(value) > MAX_NAME:
        raise ValueError(f"must be at most {MAX_NAME} characters long (this one has {len(value)})")
    bad = control_character(value)
    if bad is not None:
        raise ValueError(f"must not contain control characters (found U+{ord(bad):04X})")
    return value


def _side(value: str) -> str:
    if value and not is_side_label(value):
        raise ValueError(f"must be {SIDE_RULE}: a side's name is typed in commands and said in posts")
    return value


def _text(value: str) -> str:
    if len(value) > MAX_TEXT:
        raise ValueError(f"must be at most {MAX_TEXT} characters long (this one has {len(value)})")
    bad = control_character(value, allow="\n")
    if bad is not None:
        raise ValueError(f"must not contain control characters (found U+{ord(bad):04X})")
    return value


Name = Annotated[str, AfterValidator(_name)]  # 1 to 64 characters, no control characters
OptName = Annotated[str, AfterValidator(_optional_name)]  # the same, or "" for none
Side = Annotated[str, AfterValidator(_name), AfterValidator(_side)]  # a side's label: docs/scenario-format.md
OptSide = Annotated[str, AfterValidator(_optional_name), AfterValidator(_side)]  # the same, or "" for none
Text = Annotated[str, AfterValidator(_text)]  # rule text: up to 1000 characters, new lines allowed
Inches = Annotated[float, Field(ge=0, le=MAX_TABLE_INCHES)]


def names(most: int) -> Any:
    """A list of at most `most` names."""
    return Annotated[list[Name], Field(max_length=most)]


class Schema(BaseModel):
    """A table in a user's file: exact types (no "3" for 3, no true for 1), finite numbers, frozen.
    Fields the schema does not know are ignored, as they always were."""

    model_config = ConfigDict(strict=True, allow_inf_nan=False, frozen=True, extra="ignore")


class ClosedSchema(Schema):
    """A table whose every field the engine reads: an unknown field is a mistake and refused."""

    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- naming what is wrong

Labeller = Callable[[tuple[str, ...], "str | int", Any, str], "str | None"]


def validate(model: type[M], doc: Any, file: str, top: str, label: Labeller,
             error: Callable[[str, str, str, str], E]) -> M:
    """The document checked against its schema; the first fault raised as `error`."""
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        entry, field_name, problem = problems(exc, doc, top, label)[0]
        raise error(file, entry, field_name, problem) from None


def problems(exc: ValidationError, doc: Any, top: str, label: Labeller) -> list[tuple[str, str, str]]:
    """(entry, field, problem) for each fault, the entry named as the user wrote it."""
    out: list[tuple[str, str, str]] = []
    for err in exc.errors(include_url=False):
        entry, field_name, rest = locate(doc, err["loc"], err["type"] == "missing", top, label)
        message = _message(err)
        if rest:
            message = f"{' '.join(rest)}: {message}"
        found = (entry, field_name or "(file)", message)
        if found not in out:
            out.append(found)
    return out


def locate(doc: Any, loc: Sequence[str | int], missing: bool, top: str,
           label: Labeller) -> tuple[str, str, list[str]]:
    """Walk a fault's location through the document: the last table the labeller names is the
    entry, the key just after it the field, anything deeper the rest. Steps that are not in the
    document (pydantic's names for the members of a union) are passed over; a missing key ends it."""
    entry, field_name = top, ""
    rest: list[str] = []
    outer: tuple[str, str, list[str]] = (entry, field_name, rest)
    node: Any = doc
    keys: tuple[str, ...] = ()
    ends_on_entry = False
    for n, step in enumerate(loc):
        if isinstance(node, dict) and isinstance(step, str) and step in node:
            child = node[step]
            keys = (*keys, step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            child = node[step]
        else:
            if missing and n == len(loc) - 1 and field_name:
                rest.append(_step(step))
            elif missing and n == len(loc) - 1:
                field_name = _step(step)
            continue
        named = label(keys, step, child, entry)
        outer = (entry, field_name, list(rest))
        ends_on_entry = named is not None
        if named is not None:
            entry, field_name, rest = named, "", []
        elif not field_name:
            field_name = _step(step)
        else:
            rest.append(_step(step))
        node = child
    if ends_on_entry and not missing:
        # the fault is the entry itself (not a table, say): name it as a field of the one around it
        entry, field_name, rest = outer
        if field_name:
            rest.append(_step(loc[-1]))
        else:
            field_name = _step(loc[-1])
    return entry, field_name, rest


def _step(step: str | int) -> str:
    """A key or list position as it may be quoted back: `#3`, or the key if it is a fit name."""
    if isinstance(step, int):
        return f"#{step + 1}"
    return entry_name(step, repr(step[:20]) + "…")


def entry_name(value: Any, fallback: str) -> str:
    """A name from the user's file fit to quote back, or the fallback."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str) and value.strip() and len(value) <= MAX_NAME and control_character(value) is None:
        return value
    return fallback


def _message(err: Any) -> str:
    kind = err["type"]
    if kind == "missing":
        return "is missing"
    if kind == "extra_forbidden":
        return "is not a field this table may have"
    msg = str(err["msg"]).removeprefix("Value error, ").replace("Input should be", "must be")
    msg = re.sub(r" or instance of \w+", "", msg)
    for pydantic_word, toml_word in _WORDS:
        msg = msg.replace(pydantic_word, toml_word)
    ctx = err.get("ctx") or {}
    if kind == "finite_number":
        msg = "must be a finite number (not nan or inf)"
    elif kind == "too_short":
        return f"needs at least {ctx.get('min_length')} entries, found {ctx.get('actual_length')}"
    elif kind == "too_long":
        return f"allows at most {ctx.get('max_length')} entries, found {ctx.get('actual_length')}"
    value = err.get("input")
    if isinstance(value, dict | list):
        return msg
    shown = repr(value)
    return f"{msg}, got {shown if len(shown) <= 60 else shown[:57] + '...'}"
