"""The script runner and the audit: front ends of the game service, like the bot and the offline
table (cli/table.py). The script runner uses a temporary database unless told otherwise."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from cli.common import LOCAL, _directive_scenario, open_service, print_events, print_state, scenario_source
from cli.drafted import drafted_size, enlist, is_enlist, take_sides
from cli.stored import NotReadable, open_stored
from cli.terminal import refuse
from game.errors import RulesError
from game.rules_data import DataError
from game.schema.common import read_text_file
from game.service.errors import GameNotFound
from game.service.lobby import DRAFTED
from game.service.settings import Settings

MAX_SCRIPT_BYTES = 1_000_000  # a script is typed by hand: a whole game's orders are a few kilobytes


def run_script(path: Path, as_json: bool, scenario: str | None, seed: int | None, out: TextIO,
               db: str | None = None, events: bool = False) -> int:
    """`events`: every command's account as it is played, each roll with its dice (as the table shows
    them), before the final state."""
    if events and as_json:
        return refuse("--events prints the game's account in words; --json prints the final state: choose one.")
    try:
        lines = read_text_file(path, MAX_SCRIPT_BYTES, RulesError).splitlines()
        chosen = scenario or _directive_scenario(lines)
        size = drafted_size(chosen)
        text, name = ("", DRAFTED) if size else scenario_source(chosen, path.parent)
    except RulesError as exc:
        return refuse(exc.text)
    with tempfile.TemporaryDirectory() as tmp:
        url = db or f"sqlite+aiosqlite:///{Path(tmp) / 'script.db'}"
        return asyncio.run(_script(url, path, lines, text, name, size, seed, as_json, out, events))


async def _script(url: str, path: Path, lines: Sequence[str], text: str, name: str, size: str | None,
                  seed: int | None, as_json: bool, out: TextIO, events: bool = False) -> int:
    engine, service = await open_service(url)
    try:
        try:
            # a script's dice are reproducible: its scenario's seed number, or --seed
            info = await service.lobby.create_game(
                LOCAL, f"script:{path}", scenario=name.removesuffix(".toml"), scenario_text=text if not size else None,
                seed=seed, scenario_seed=seed is None, size=size or "skirmish")
        except DataError as exc:
            return refuse(exc.text)
        await take_sides(service, info.id)  # a drafted game's sides are taken by its enlist lines
        for number, raw in enumerate(lines, start=1):
            body = raw.split("#", 1)[0].strip()
            if not body or body.lower().startswith("scenario "):
                continue
            if is_enlist(body):
                try:
                    await enlist(service, info.id, body, path.parent)
                except RulesError as exc:
                    return refuse(f"{path}:{number}: {exc.text}")
                continue
            expect_refusal = body.startswith("!")
            line = body.lstrip("!").strip()
            try:
                outcome = await service.commands.submit(LOCAL, info.id, line, request_id=f"{path}:{number}:{info.id}")
            except RulesError as exc:
                if expect_refusal:
                    if not as_json:
                        print(f"line {number}: refused as expected [{exc.code}]: {exc.text}", file=out)
                    continue
                print(f"{path}:{number}: {line}: refused [{exc.code}]: {exc.text}", file=sys.stderr)
                await print_state(service, info.id, as_json, out)
                return 1
            if expect_refusal:
                print(f"{path}:{number}: {line}: was expected to be refused but was accepted", file=sys.stderr)
                return 1
            if events:
                print(f"> {line}", file=out)
                print_events(outcome.events, out)
        await print_state(service, info.id, as_json, out)
        return 0
    finally:
        await engine.dispose()


# ---------------------------------------------------------------- audit


def run_audit(games: Sequence[int], db: str | None, out: TextIO) -> int:
    url = db or Settings.from_env().database_url
    return asyncio.run(_audit(url, games, out))


async def _audit(url: str, games: Sequence[int], out: TextIO) -> int:
    """Every game (or the ones named) replayed and compared with its snapshots; the database is read
    as it is (cli/stored.py): an audit of a backup never changes it."""
    try:
        engine, service = await open_stored(url)
    except NotReadable as exc:
        return refuse(exc.text)
    try:
        ids = list(games) or await service.store.repo.all_game_ids()
        bad = 0
        for gid in ids:
            try:
                report = await service.audit.check(gid)
            except GameNotFound:
                return refuse(f"There is no game #{gid} in that database. `quarterdeck audit` without a number "
                              "checks every game in it.")
            status = "ok" if report.ok else "MISMATCH: " + "; ".join(report.mismatches)
            print(f"game #{gid}: {report.events} events, {status}", file=out)
            bad += not report.ok
        print(f"{len(ids)} game(s) checked, {bad} with a mismatch.", file=out)
        return 1 if bad else 0
    finally:
        await engine.dispose()
