"""Fuzzers (hypothesis) for every text a user hands the bot: notation lines, scenario files, squadron
lists and game-data files. A few hundred cases each in the normal run; QD_LONG=1 runs 10,000 each.

Each draws from the real files: structured mutations of their parsed documents (a value replaced
by a hostile one, a key deleted, an entry repeated, a field added) written back as TOML, and raw
mutations of their text (slices cut, repeated, or replaced by TOML fragments)."""

from __future__ import annotations

import math
import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

LONG = bool(os.environ.get("QD_LONG"))
MESSAGE_LIMIT = 2000  # a refusal is shown in one Discord message


def fuzz_settings(cases: int) -> settings:
    """`cases` in the normal run, 10,000 in a long one; reproducible (derandomized, no database)."""
    return settings(max_examples=10_000 if LONG else cases, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)


# ---------------------------------------------------------------- hostile values

SPECIAL_FLOATS = [math.nan, math.inf, -math.inf, -math.nan, 1e308, -1e308, 5e-324, -0.0, 0.0, 120.0, 120.000001,
                  1e16, 2.0**53 + 1, 359.999999, 360.0, -360.0000001]
SPECIAL_INTS = [0, -1, 1, 2, 7, 8, 12, 13, 64, 65, 2**31 - 1, 2**31, 0x7FFFFFFF, 2**63 - 1, -(2**63), 10**30]
SPECIAL_TEXTS = ["", " ", "\x00", "\x1b[2J", "\u202eevil", "a\nb", "K" * 64, "K" * 65, "é", "🏴‍☠️", "Sloop",
                 "Fluyt", "pistol", "cannon", "skull", "sword", "Down!", "A", "B", "N", "island", "rock",
                 "fog_bank", "port", "starboard", "full", "anchored", "Untested", "Dutch", "skirmish", "patrol"]


SCALARS: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(SPECIAL_FLOATS), st.sampled_from(SPECIAL_INTS), st.sampled_from(SPECIAL_TEXTS),
    st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-(2**70), max_value=2**70),
    st.booleans(), st.text(max_size=40),
)
# Anything a TOML document can hold, hostile scalars first (built once: strategies are costly to make).
VALUES: st.SearchStrategy[Any] = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=12)


# ---------------------------------------------------------------- TOML written back


def dumps(doc: dict[str, Any]) -> str:
    """A TOML document (every table inline, every key quoted) that tomllib reads back as doc."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in doc.items())


def _key(k: str) -> str:
    return _string(k)


def _string(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"


# ---------------------------------------------------------------- mutations


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document: each key of a table, each item of a list."""
    out: list[tuple[Any, ...]] = []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        out.append((*prefix, k))
        out += paths(v, (*prefix, k))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


def _replace(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    _parent(doc, path)[path[-1]] = value


def _delete(doc: Any, path: tuple[Any, ...], _: Any) -> None:
    del _parent(doc, path)[path[-1]]


def _repeat(doc: Any, path: tuple[Any, ...], _: Any) -> None:
    parent = _parent(doc, path)
    if isinstance(parent, list):
        parent.append(parent[path[-1]])


def _add_field(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    target = _parent(doc, path)[path[-1]]
    if isinstance(target, dict):
        target["x" + str(len(target))] = value


MUTATIONS = st.sampled_from([_replace, _replace, _replace, _delete, _repeat, _add_field])


@st.composite
def mutated_doc(draw: st.DrawFn, doc: dict[str, Any]) -> str:
    """The document with one to three structural mutations, written as TOML."""
    import copy

    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        places = paths(doc)
        if not places:
            break
        path = draw(st.sampled_from(places))
        draw(MUTATIONS)(doc, path, draw(VALUES))
    return dumps(doc)


FRAGMENTS = ["[", "]", "{", "}", "[[", "]]", '"', "'", '"""', "'''", "=", ".", ",", "#", "\n", "nan", "inf", "-nan",
             "1e308", "0x7fffffff", "\\u0000", "\n[[ship]]\n", "\n[table]\n", "a.b.c.d = 1\n", "= [", "[" * 20,
             "{a = " * 20, 'x = """', "\\", "\r", "\ufeff", "true", "1979-05-27T07:32:00Z"]


TEXT_MUTATIONS = st.sampled_from(["cut", "repeat", "fragment", "fragment", "text"])


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> str:
    """The text with one to four slices cut, repeated or replaced by TOML fragments or random text."""
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        a = draw(st.integers(min_value=0, max_value=len(text)))
        b = draw(st.integers(min_value=a, max_value=min(len(text), a + 40)))
        kind = draw(TEXT_MUTATIONS)
        if kind == "cut":
            text = text[:a] + text[b:]
        elif kind == "repeat":
            text = text[:b] + text[a:b] * draw(st.integers(min_value=1, max_value=50)) + text[b:]
        elif kind == "fragment":
            text = text[:a] + draw(st.sampled_from(FRAGMENTS)) + text[b:]
        else:
            text = text[:a] + draw(st.text(max_size=20)) + text[b:]
    return text
