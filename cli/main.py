"""`quarterdeck` command line: table, ref, script, demo, audit, verify, replay, web."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from cli.terminal import refuse, service_fault, terminal_streams
from game.errors import RulesError
from game.service.errors import ServiceError

TURN_LOG_EVENTS = ("InitiativeWon", "ShipMoved", "AttackResolved", "StatusGained", "Collided",
                   "StrikePointsCounted", "GameEnded", "ControlChanged", "OfficerLost", "FlagTransferred")


def run_demo(seed: int, games: int, as_json: bool, out: TextIO, images: str = "none",
             out_dir: Path = Path("out")) -> int:
    """AI against AI on the quick start: each game's result and a per-turn log; with `images`
    (first | all), a PNG of the board after every activation."""
    from game.account import account
    from game.ai.match import ai_game
    from game.events import EVENTS
    from game.names import plain

    records = []
    for i in range(games):
        game_seed = seed + i
        folder = out_dir / f"demo-seed{game_seed}"
        draw = images == "all" or (images == "first" and i == 0)
        session = ai_game(game_seed, after_each=_png_writer(folder) if draw else None)
        state = session.state
        if draw and not as_json:
            print(f"Board after every activation: {folder}/", file=out)
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
                text = _attack_line(e) if name == "AttackResolved" else plain(account(e))
                if text:
                    print(f"    {text}", file=out)
    if as_json:
        json.dump(records, out, ensure_ascii=False)
        out.write("\n")
    return 0


def _png_writer(folder: Path):  # type: ignore[no-untyped-def]
    from game.views import view_of
    from render.files import ends_an_activation, write_activation

    seen = {"events": 0, "images": 0}

    def write(session) -> None:  # type: ignore[no-untyped-def]
        fresh = session.events[seen["events"]:]
        seen["events"] = len(session.events)
        if ends_an_activation(fresh):
            seen["images"] += 1
            write_activation(folder, seen["images"], view_of(session.state, None), fresh)

    return write


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
    p_script.add_argument("--events", action="store_true",
                          help="print every command's events in words as it is played, each roll with its dice")
    p_script.add_argument("--scenario", help="built-in scenario name, scenario file or \"drafted [SIZE]\" (default: quickstart)")
    p_script.add_argument("--seed", type=int)
    p_script.add_argument("--db", help="a database URL or an SQLite file's path (default: a temporary SQLite file)")
    from game.scenario import builtin_scenarios

    built_in = ", ".join(sorted(builtin_scenarios()))
    p_table = sub.add_parser(
        "table", help="the offline table (you against the computer captain), saved in the embedded database",
        description="The offline table: you as player A against the computer captain (or both sides at one "
                    "screen with --hot-seat), saved in a database so a game can be left and resumed. Type `help` "
                    "at the table for the commands.",
        epilog=f"Built-in scenarios: {built_in}; or \"drafted [SIZE]\" for chapter 7's set-up. A game in progress "
               "is resumed unless --new is given.")
    p_table.add_argument("--scenario", help=f"a built-in scenario ({built_in}), a scenario file's path or "
                                            "\"drafted [SIZE]\", for a new game (default: quickstart)")
    p_table.add_argument("--size", choices=("patrol", "skirmish", "engagement"),
                         help="a drafted game's size (with --scenario drafted; default: skirmish)")
    p_table.add_argument("--seed", type=int, help="the dice seed of a new game, to replay the same dice "
                                                  "(default: a fresh secret seed)")
    p_table.add_argument("--vs-ai", metavar="PLAYER", help="the computer captain plays this side of a new game "
                                                           "(default: B)")
    p_table.add_argument("--hot-seat", action="store_true",
                         help="a new game with no computer captain: both sides at one screen")
    p_table.add_argument("--new", action="store_true", help="start a new game (with --scenario, --vs-ai, --seed)")
    p_table.add_argument("--game", type=int, help="open this stored offline game (they are listed at the start)")
    p_table.add_argument("--db", help="a database URL or an SQLite file's path (default: DATABASE_URL, or "
                                      "quarterdeck.db here)")
    p_table.add_argument("--out", type=Path, default=Path("out"),
                         help="folder for the PNG after each activation (default: out/)")
    p_ref = sub.add_parser("ref", help="a referee-assistant game (WS&IM, Iron & Oak, Captain's Sea) at one terminal")
    p_ref.add_argument("--system", required=True, metavar="SYSTEM", help="wsim, iron_and_oak or captains_sea")
    p_ref.add_argument("--setup", metavar="NAME", help="a built-in setup of the system (default: its first)")
    p_ref.add_argument("--file", type=Path, help="a setup file of your own (TOML, docs/systems/<system>.md)")
    p_ref.add_argument("--new", action="store_true", help="start a new game rather than resume the last one")
    p_ref.add_argument("--db", help="a database URL or an SQLite file's path (default: DATABASE_URL, or "
                                    "quarterdeck.db here)")
    p_demo = sub.add_parser("demo", help="computer captains play the quick start against each other")
    p_demo.add_argument("--seed", type=int, default=1)
    p_demo.add_argument("--games", type=int, default=1)
    p_demo.add_argument("--json", action="store_true", help="print every game's full event log as JSON")
    p_demo.add_argument("--images", choices=("first", "all", "none"), default="first",
                        help="write a PNG per activation for the first game (default), every game, or none")
    p_demo.add_argument("--out", type=Path, default=Path("out"), help="folder for the PNGs (default: out/)")
    p_audit = sub.add_parser("audit", help="replay every game's log and report any mismatch")
    p_audit.add_argument("games", nargs="*", type=int, help="the games to check (default: every game)")
    p_audit.add_argument("--db", help="a database URL or an SQLite file's path, read as it is and never changed "
                                      "(default: DATABASE_URL, or quarterdeck.db here)")
    p_verify = sub.add_parser("verify", help="recompute every roll of a finished game from its revealed seed")
    p_verify.add_argument("game", nargs="?", type=int, help="a game in the database")
    p_verify.add_argument("--file", type=Path, help="a log file attached by /game verify")
    p_verify.add_argument("--db", help="a database URL or an SQLite file's path, read as it is and never changed "
                                       "(default: DATABASE_URL, or quarterdeck.db here)")
    p_replay = sub.add_parser("replay", help="play back a game's log file and draw its boards into a folder")
    p_replay.add_argument("file", type=Path, help="a log file attached by /game replay or /game verify")
    p_replay.add_argument("--out", type=Path, default=Path("replay"), help="folder for the PNGs (default: replay/)")
    p_replay.add_argument("--delay", type=float, default=0.0, help="seconds between moments in the terminal")
    p_replay.add_argument("--no-images", action="store_true", help="only the terminal playback")
    p_web = sub.add_parser("web", help="serve the games' read-only web pages (docs/web.md)")
    p_web.add_argument("--host", help="the address to listen on (default: WEB_PORT's, or 127.0.0.1)")
    p_web.add_argument("--port", type=int, help="the port (default: WEB_PORT's, or 8081)")
    p_web.add_argument("--db", help="a database URL or an SQLite file's path (default: DATABASE_URL)")
    args = parser.parse_args(argv)
    if getattr(args, "db", None):
        from cli.stored import as_url

        args.db = as_url(args.db)
    with terminal_streams():
        try:
            return _run(args)
        except ServiceError as exc:  # refusals are answered where they are met; a fault ends the command
            return refuse(exc.text if isinstance(exc, RulesError) else service_fault(exc))
        except KeyboardInterrupt:  # what was committed stays: each command is its own transaction
            print("\ninterrupted: every command given before it is saved.", file=sys.stderr)
            return 130
        except BrokenPipeError:  # the reader went away (`| head`): nothing more to say to it
            quiet_stdout()
            return 1


def quiet_stdout() -> None:
    """After a broken pipe, the interpreter's last flush of stdout would fail again: point it at nothing."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the process's stdout, whatever wrapper sys.stdout is now


def _run(args: argparse.Namespace) -> int:
    from cli import play

    if args.command == "script":
        return play.run_script(args.file, args.json, args.scenario, args.seed, sys.stdout, args.db, args.events)
    if args.command == "demo":
        return run_demo(args.seed, args.games, args.json, sys.stdout, args.images, args.out)
    if args.command == "audit":
        return play.run_audit(args.games, args.db, sys.stdout)
    if args.command == "verify":
        from cli.verify import run_verify

        return run_verify(args.game, args.file, args.db, sys.stdout)
    if args.command == "replay":
        from cli.replay import run_replay

        return run_replay(args.file, args.out, max(0.0, min(args.delay, 10.0)), sys.stdout, not args.no_images)
    if args.command == "web":
        from cli.web import run_web

        return run_web(args.host, args.port, args.db)
    if args.command == "ref":
        from cli.referee import run_referee

        return run_referee(args.system, args.setup, args.file, sys.stdin, sys.stdout, sys.stdin.isatty(),
                           new=args.new, db=args.db)
    from cli.first_game import FIRST_GAME_AI
    from cli.table import run_table

    if args.hot_seat and args.vs_ai:
        return refuse("--hot-seat is a game without the computer captain; --vs-ai gives it a side: choose one.")
    return run_table(args.scenario, args.seed, sys.stdin, sys.stdout, sys.stdin.isatty(), args.vs_ai,
                     new=args.new, db=args.db, out_dir=args.out, game=args.game, size=args.size,
                     default_ai=None if args.hot_seat else FIRST_GAME_AI)


if __name__ == "__main__":
    raise SystemExit(main())
