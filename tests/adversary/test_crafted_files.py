"""Issue 22, findings 11 and 12 and property 9, played by a forger who hands the command line files
made to hurt: `verify`, `replay` and `script` answer a crafted file with one `error:` line on stderr
and exit 2, never a traceback; they never write a file's escape sequences to the terminal; and a
20 MB log costs what the documented bound says, not hundreds of megabytes."""

from __future__ import annotations

import json
import math
import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main as quarterdeck
from game.log_file import MAX_BYTES
from tests.adversary.logs import real_log

NOT_PRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def ship_moved(log: dict[str, Any]) -> dict[str, Any]:
    return next(e for _, e in log["events"] if e["type"] == "ShipMoved")


def _missing_ship(log: dict[str, Any]) -> None:
    ship_moved(log)["ship"] = "Ghost"


def _nan_position(log: dict[str, Any]) -> None:
    ship_moved(log)["path"][-1][0] = math.nan


def _infinite_ship(log: dict[str, Any]) -> None:
    log["initial_state"]["ships"][0]["x"] = math.inf


def _huge_table(log: dict[str, Any]) -> None:
    log["initial_state"]["table"]["width"] = 1e308


def _wide_table(log: dict[str, Any]) -> None:
    log["initial_state"]["table"]["width"] = 1e9


def _turn_as_text(log: dict[str, Any]) -> None:
    log["initial_state"]["turn"] = "one"


def _events_as_object(log: dict[str, Any]) -> None:
    log["events"] = {"1": "CardPicked"}


def _command_as_text(log: dict[str, Any]) -> None:
    log["events"][0][0] = "1"


def _empty_path(log: dict[str, Any]) -> None:
    ship_moved(log)["path"] = []


def _ships_as_text(log: dict[str, Any]) -> None:
    log["initial_state"]["ships"] = "Lion"


def _unknown_event(log: dict[str, Any]) -> None:
    log["events"][0][1]["type"] = "Teleported"


def _number_too_long(log: dict[str, Any]) -> None:
    log["events"][0][0] = 10**40


def _seed_not_hex(log: dict[str, Any]) -> None:
    log["seed"] = "the seed"


CRAFTED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "seed not hex": (_seed_not_hex, "{path} is damaged: seed: String should match pattern '^[0-9a-f]{{64}}$'."),
    "missing ship": (_missing_ship, "The log is not a game's: event {moved} (ShipMoved) does not fit the game at that "
                                    "point (KeyError: 'Ghost')."),
    "NaN position": (_nan_position, "{path} holds the number NaN: numbers in a log are finite and at most "
                                    "2,147,483,648."),
    "infinite ship": (_infinite_ship, "{path} holds the number Infinity: numbers in a log are finite and at most "
                                      "2,147,483,648."),
    "1e308-inch table": (_huge_table, "{path} holds the number 1e+308: numbers in a log are finite and at most "
                                      "2,147,483,648."),
    "1e9-inch table": (_wide_table, "The log is not a game's: its starting state has a table of 1e+09 by 36 inches "
                                    "(at most 120 a side)."),
    "turn as text": (_turn_as_text, "The log is damaged: its starting state is not what a game records (TypeError: "
                                    "expected a whole number, got 'one')."),
    "events as an object": (_events_as_object, "{path} is damaged: events: Input should be a valid list."),
    "command as text": (_command_as_text, "The log is damaged: event 1 is not a pair of a command number and an "
                                          "event."),
    "empty path": (_empty_path, "The log is not a game's: event {moved} (ShipMoved) does not fit the game at that "
                                "point (IndexError: tuple index out of range)."),
    "ships as text": (_ships_as_text, "The log is damaged: its starting state is not what a game records (TypeError: "
                                      "Ship needs an object, got 'L')."),
    "unknown event": (_unknown_event, "The log is damaged: event 1 is not what a game records (ValueError: unknown "
                                      "type 'Teleported')."),
    "number too long": (_number_too_long, "{path} holds the number 10000000000000000000… (41 characters): numbers "
                                          "in a log are finite and at most 2,147,483,648."),
}


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = quarterdeck(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, out: str, err: str, message: str | None = None) -> None:
    """A refusal: exit 2, nothing on stdout, one `error:` line on stderr (this one, when given)."""
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    if message is not None:
        assert err == f"error: {message}\n"


def commands(path: Path, tmp_path: Path) -> list[list[str]]:
    return [["verify", "--file", str(path)], ["replay", str(path), "--out", str(tmp_path / "boards")]]


@pytest.mark.parametrize("name", list(CRAFTED))
def test_a_crafted_log_is_one_error_line(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    craft, message = CRAFTED[name]
    log = real_log()
    moved = next(i for i, (_, e) in enumerate(log["events"], 1) if e["type"] == "ShipMoved")
    craft(log)
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(log), encoding="utf-8")  # NaN and Infinity as Python's json writes them
    for args in commands(path, tmp_path):
        assert_refused(*run(args, capsys), message.format(path=path, moved=moved))
    assert not (tmp_path / "boards").exists()


@pytest.mark.parametrize(("name", "data", "message"), [
    ("truncated", None, "{path} is not a Quarterdeck game log: it is not valid JSON (Unterminated string starting "
                        "at: line 1 column {column} (char {char}))."),
    ("binary", bytes(range(256)) * 40, "{path} is not UTF-8 text."),
    ("nested", b"[" * 30_000 + b"]" * 30_000, "{path} nests arrays and objects more than 16 deep; a game's log does "
                                              "not."),
    ("empty", b"", "{path} is not a Quarterdeck game log: it is not valid JSON (Expecting value: line 1 column 1 "
                   "(char 0))."),
    ("a list", b"[]", "{path} is not a Quarterdeck game log (format quarterdeck-log/1)."),
])
def test_a_file_that_is_no_log_is_one_error_line(name: str, data: bytes | None, message: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{name}.json"
    text = json.dumps(real_log())
    cut = text.index('"type": "') + len('"type": ')  # cut off just after the first event's opening quote
    path.write_bytes(data if data is not None else text[:cut + 1].encode())
    for args in commands(path, tmp_path):
        assert_refused(*run(args, capsys), message.format(path=path, column=cut + 1, char=cut))
    missing = tmp_path / "missing.json"
    assert_refused(*run(["verify", "--file", str(missing)], capsys),
                   f"{missing} cannot be read: No such file or directory.")


def test_a_binary_or_oversized_script_or_scenario_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "moves.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    assert_refused(*run(["script", str(binary)], capsys), f"{binary} is not UTF-8 text.")
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"move Kestrel\n" * 100_000)
    assert_refused(*run(["script", str(huge)], capsys), f"{huge} is larger than 1,000,000 bytes, the limit for this "
                                                        "file.")
    scenario = tmp_path / "sea.toml"
    scenario.write_bytes(b"\xff\xfe" + bytes(range(256)))
    directed = tmp_path / "directed.txt"
    directed.write_text("scenario sea.toml\nmove Kestrel\n", encoding="utf-8")
    assert_refused(*run(["script", str(directed)], capsys), f"{scenario}: entry '(file)', field '(file)': {scenario} "
                                                            "is not UTF-8 text.")
    db = f"sqlite+aiosqlite:///{tmp_path / 'table.db'}"
    assert_refused(*run(["table", "--scenario", str(scenario), "--new", "--db", db], capsys),
                   f"{scenario}: entry '(file)', field '(file)': {scenario} is not UTF-8 text.")


ESCAPES = {
    "title": "\x1b]0;pwned by the log\x07",
    "clear": "\x1b[2J\x1b[H",
    "clipboard": "\x1b]52;c;cm0gLXJmIH4K\x1b\\",
    "c1": "\x9b31m",
    "bell and backspace": "\x07\x08\x08",
}


def test_replay_and_verify_write_no_escape_sequence_from_a_log(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(real_log())
    dirty = "Ot" + "".join(ESCAPES.values()) + "ter"  # in every place the sloop's name is written
    text = text.replace('"Otter"', json.dumps(dirty))
    log = json.loads(text)
    log["name"] = ESCAPES["title"] + "A game" + ESCAPES["clipboard"]
    path = tmp_path / "escapes.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    code, out, err = run(["replay", str(path), "--no-images"], capsys)
    assert code == 0 and err == ""
    assert out.startswith("A game: ") and "Otter" in out and "31m" in out  # C1's CSI gone, its text harmless
    for sequence in ("pwned", "cm0gLXJmIH4K", "[2J"):
        assert sequence not in out
    assert not NOT_PRINTABLE.search(out)
    code, out, err = run(["verify", "--file", str(path)], capsys)
    assert code == 0 and not NOT_PRINTABLE.search(out + err)


def test_a_script_line_is_printed_without_its_escape_sequences(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("move Kest\x1b]52;c;cm0gLXJmIH4K\x07rel\x1b[2J ahead ahead ahead\n", encoding="utf-8")
    code, out, err = run(["script", str(script)], capsys)
    assert code == 1
    assert err.startswith(f"{script}:1: move Kestrel ahead ahead ahead: refused [")
    assert not NOT_PRINTABLE.search(out + err)  # the refusal quotes the name as text: \x1b, four characters


def _peak_bytes(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, int, str]:
    quarterdeck(["verify", "--file", "/nonexistent"])  # the command's imports are made before measuring
    capsys.readouterr()
    tracemalloc.start()
    try:
        code = quarterdeck(args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return code, peak, capsys.readouterr().err


def test_a_20_mb_log_costs_no_more_than_the_stated_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = real_log()
    events = log["events"]
    while len(json.dumps(events)) < 20_000_000:
        events += events
    path = tmp_path / "twenty.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert path.stat().st_size > 20_000_000
    code, peak, err = _peak_bytes(["replay", str(path), "--no-images"], capsys)
    assert code == 2 and err == f"error: {path} is larger than 10,485,760 bytes, the limit for this file.\n"
    assert peak < 2 * MAX_BYTES  # the cap and a byte were read, nothing more

    # just under the cap, as many small values as the counts before parsing let through
    base = json.dumps({k: v for k, v in real_log().items() if k != "events"})[:-1]
    heavy = base + ', "events": [], "notes": [' + ",".join(f'"n{i}"' for i in range(900_000)) + "]}"
    path.write_text(heavy, encoding="utf-8")
    assert 0.8 * MAX_BYTES < path.stat().st_size < MAX_BYTES
    code, peak, err = _peak_bytes(["replay", str(path), "--no-images"], capsys)
    assert code == 0, err
    assert peak < 10 * MAX_BYTES  # docs/fair-play.md: reading a log takes at most ten times the cap


# ---------------------------------------------------------------- fuzz

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def _places(node: Any, trail: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into the log, short of the data files' text (a separate reader with its own tests)."""
    if isinstance(node, dict):
        found = [trail + (k,) for k in node if k != "data_files"]
        return found + [p for k, v in node.items() if k != "data_files" for p in _places(v, trail + (k,))]
    if isinstance(node, list):
        return [trail + (i,) for i in range(len(node))] + [p for i, v in enumerate(node) for p in _places(v, trail + (i,))]
    return []



@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_verify_and_replay_answer_every_crafted_log(data: st.DataObject, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    log = real_log()
    places = _places(log)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        where = data.draw(st.sampled_from(places), label="where")
        parent = log
        try:
            for step in where[:-1]:
                parent = parent[step]
            action = data.draw(st.sampled_from(["replace", "delete"]), label="action")
            if action == "delete" and isinstance(parent, dict):
                del parent[where[-1]]
            else:
                parent[where[-1]] = data.draw(JSON_VALUES, label="value")
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed this place
    text = json.dumps(log)
    if data.draw(st.booleans(), label="truncate"):
        text = text[:data.draw(st.integers(0, len(text)), label="at")]
    path = tmp_path / "fuzzed.json"
    path.write_text(text, encoding="utf-8")
    for args in (["verify", "--file", str(path)], ["replay", str(path), "--no-images"]):
        code, out, err = run(args, capsys)
        assert code in (0, 1, 2)
        assert "Traceback" not in out + err and not NOT_PRINTABLE.search(out + err)
        if code == 2:
            assert_refused(code, out, err)
