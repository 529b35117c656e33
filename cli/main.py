"""`quarterdeck` command line: script, table (and later demo)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from game.errors import RulesError
from game.model import Game
from game.report import describe, summary
from game.rules_data import DataError
from game.scenario import builtin_scenarios, load_scenario_file, load_scenario_text
from game.table_session import TableSession

HELP = """Commands (docs/notation.md):
  pick PLAYER CARD                     choose an initiative card face down
  move SHIP [as large|windward] [heading SIDE DEG | adjust +1|-1 | cutfree]
       [ahead|back|port|starboard|hold] [turn start|end SIDE DEG] [crew ACTION …]
  seamanship SHIP …   advance SHIP …   crew SHIP ACTION …   done SHIP      one step at a time
  crew actions: reload SIDE | rally | repair | repair aground | sail up|down | board SHIP [edge E]
                | row | flag SHIP | landing X Y
  reroll N [N …] | fortune | keep      answer a failed Skill Test
  pass SHIP                            Attack Phase activation without an attack
  dice FACE …                          test scenarios only: fix the next dice
Table only: state, json, log, help, quit"""


def load_game(scenario: str | None, base: Path | None = None) -> Game:
    """A built-in scenario by name, or a scenario file by path."""
    if scenario is None or scenario in builtin_scenarios():
        name = scenario or "quickstart"
        return load_scenario_text(builtin_scenarios()[name], f"{name}.toml")
    path = Path(scenario)
    if base is not None and not path.is_absolute() and not path.exists():
        path = base / path
    return load_scenario_file(path)


def _directive_scenario(lines: Sequence[str]) -> str | None:
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if text.lower().startswith("scenario "):
            return text.split(None, 1)[1].strip()
        return None
    return None


def run_script(path: Path, as_json: bool, scenario: str | None, seed: int | None, out: TextIO) -> int:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        game = load_game(scenario or _directive_scenario(lines), path.parent)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if seed is not None:
        game = replace(game, seed=seed)
    session = TableSession(game)
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text or text.lower().startswith("scenario "):
            continue
        expect_refusal = text.startswith("!")
        line = text.lstrip("!").strip()
        try:
            session.submit_line(line)
        except RulesError as exc:
            if expect_refusal:
                if not as_json:
                    print(f"line {number}: refused as expected [{exc.code}]: {exc.text}", file=out)
                continue
            print(f"{path}:{number}: {line}: refused [{exc.code}]: {exc.text}", file=sys.stderr)
            _print_state(session, as_json, out)
            return 1
        if expect_refusal:
            print(f"{path}:{number}: {line}: was expected to be refused but was accepted", file=sys.stderr)
            return 1
    _print_state(session, as_json, out)
    return 0


def _print_state(session: TableSession, as_json: bool, out: TextIO) -> None:
    if as_json:
        json.dump(summary(session.state, session.rules), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        print(describe(session.state, session.rules), file=out)


def run_table(scenario: str | None, seed: int | None, inp: Iterable[str], out: TextIO, interactive: bool) -> int:
    try:
        game = load_game(scenario)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if seed is not None:
        game = replace(game, seed=seed)
    session = TableSession(game)
    print("Quarterdeck offline table (hot-seat). Type `help` for the commands, `quit` to leave.", file=out)
    print(describe(session.state, session.rules), file=out)
    for raw in _prompted(inp, out, interactive):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.lower()
        if word in ("quit", "exit"):
            break
        if word == "help":
            print(HELP, file=out)
            continue
        if word == "state":
            print(describe(session.state, session.rules), file=out)
            continue
        if word == "json":
            json.dump(summary(session.state, session.rules), out, indent=2, ensure_ascii=False)
            out.write("\n")
            continue
        if word == "log":
            from game.account import account

            for e in session.events[-20:]:
                print("  " + account(e), file=out)
            continue
        try:
            events = session.submit_line(line)
        except RulesError as exc:
            print(f"refused: {exc.text}", file=out)
            continue
        from game.account import account

        for e in events:
            text = account(e)
            if text:
                print("  " + text, file=out)
        print(describe(session.state, session.rules), file=out)
    return 0


def _prompted(inp: Iterable[str], out: TextIO, interactive: bool) -> Iterable[str]:
    if not interactive:
        yield from inp
        return
    while True:
        try:
            yield input("> ")
        except EOFError:
            print(file=out)
            return


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="quarterdeck", description="Referee for Oak & Iron")
    sub = parser.add_subparsers(dest="command", required=True)
    p_script = sub.add_parser("script", help="play a file of table commands and print the final state")
    p_script.add_argument("file", type=Path)
    p_script.add_argument("--json", action="store_true", help="print the final state as JSON")
    p_script.add_argument("--scenario", help="built-in scenario name or scenario file (default: quickstart)")
    p_script.add_argument("--seed", type=int)
    p_table = sub.add_parser("table", help="the offline hot-seat table")
    p_table.add_argument("--scenario")
    p_table.add_argument("--seed", type=int)
    args = parser.parse_args(argv)
    if args.command == "script":
        return run_script(args.file, args.json, args.scenario, args.seed, sys.stdout)
    return run_table(args.scenario, args.seed, sys.stdin, sys.stdout, sys.stdin.isatty())


if __name__ == "__main__":
    raise SystemExit(main())
