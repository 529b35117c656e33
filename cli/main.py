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
  fire SHIP SIDE TARGET [aim hull|rigging|crew] [SIDE TARGET …] [helm SIDE]   Broadside(s)
  partial SHIP TARGET [aim …]          Partial Fire     melee SHIP TARGET [landing]   Close Combat
  free fire|partial …  | decline       a free attack a card offers
  freeturn SHIP SIDE DEG | freeturn SHIP skip | capture|destroy|spare SHIP
  transfer FLAGSHIP SHIP | newflag FLAGSHIP SHIP [drop CARD, …]
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


def run_table(
    scenario: str | None,
    seed: int | None,
    inp: Iterable[str],
    out: TextIO,
    interactive: bool,
    vs_ai: str | None = None,
) -> int:
    try:
        game = load_game(scenario)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if seed is not None:
        game = replace(game, seed=seed)
    session = TableSession(game)
    if vs_ai is not None and vs_ai not in game.players:
        print(f"error: --vs-ai names a player of the game: {', '.join(game.players)}", file=sys.stderr)
        return 2
    print("Quarterdeck offline table (hot-seat). Type `help` for the commands, `quit` to leave.", file=out)
    if vs_ai:
        print(f"The computer captain commands player {vs_ai}.", file=out)
    _ai_turns(session, vs_ai, out)
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
        _print_events(events, out)
        _ai_turns(session, vs_ai, out)
        print(describe(session.state, session.rules), file=out)
    return 0


def _print_events(events: Iterable[object], out: TextIO) -> None:
    from game.account import account

    for e in events:
        text = account(e)
        if text:
            print("  " + text, file=out)


def _ai_turns(session: TableSession, vs_ai: str | None, out: TextIO) -> None:
    """Let the computer captain answer every decision that is its own."""
    if not vs_ai:
        return
    from game.ai.captain import Captain, deciders
    from game.notation import format_command

    captain = Captain(vs_ai, session.state.seed, session.rules)
    while vs_ai in deciders(session.state):
        cmd = captain.choose(session.state)
        shown = "pick (secret)" if type(cmd).__name__ == "PickCard" else format_command(cmd)
        print(f"[{vs_ai}] {shown}", file=out)
        _print_events([e for e in session.submit(cmd) if type(e).__name__ != "CardPicked"], out)


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


TURN_LOG_EVENTS = ("InitiativeWon", "ShipMoved", "AttackResolved", "StatusGained", "Collided",
                   "StrikePointsCounted", "GameEnded", "ControlChanged", "OfficerLost", "FlagTransferred")


def run_demo(seed: int, games: int, as_json: bool, out: TextIO) -> int:
    """AI against AI on the quick start: each game's result and a per-turn log."""
    from game.account import account
    from game.ai.match import ai_game
    from game.events import EVENTS

    records = []
    for i in range(games):
        game_seed = seed + i
        session = ai_game(game_seed)
        state = session.state
        if as_json:
            records.append({
                "seed": game_seed, "winner": state.winner, "result": state.result, "turns": state.turn,
                "events": [EVENTS.encode(e) for e in session.events],
            })
            continue
        print(f"Game {i + 1} (seed {game_seed}): player {state.winner} wins — {state.result}, turn {state.turn}",
              file=out)
        turn = 0
        for e in session.events:
            name = type(e).__name__
            if name == "PhaseBegan" and e.turn != turn:
                turn = e.turn
                print(f"  Turn {turn}", file=out)
            elif name in TURN_LOG_EVENTS:
                text = _attack_line(e) if name == "AttackResolved" else account(e)
                if text:
                    print(f"    {text}", file=out)
    if as_json:
        json.dump(records, out, ensure_ascii=False)
        out.write("\n")
    return 0


def _attack_line(e: object) -> str:
    side = f" {e.side}" if getattr(e, "side", "") in ("port", "starboard") else ""  # type: ignore[attr-defined]
    rake = f", {e.rake} rake" if e.rake else ""  # type: ignore[attr-defined]
    return (f"{e.ship} {e.kind}{side} at {e.target} ({e.band or 'contact'}{rake}): "  # type: ignore[attr-defined]
            f"{e.hits} hit(s), {e.damage} damage, {e.fatigue} fatigue")  # type: ignore[attr-defined]


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
    p_table.add_argument("--vs-ai", metavar="PLAYER", help="the computer captain plays this side (A or B)")
    p_demo = sub.add_parser("demo", help="computer captains play the quick start against each other")
    p_demo.add_argument("--seed", type=int, default=1)
    p_demo.add_argument("--games", type=int, default=1)
    p_demo.add_argument("--json", action="store_true", help="print every game's full event log as JSON")
    args = parser.parse_args(argv)
    if args.command == "script":
        return run_script(args.file, args.json, args.scenario, args.seed, sys.stdout)
    if args.command == "demo":
        return run_demo(args.seed, args.games, args.json, sys.stdout)
    return run_table(args.scenario, args.seed, sys.stdin, sys.stdout, sys.stdin.isatty(), args.vs_ai)


if __name__ == "__main__":
    raise SystemExit(main())
