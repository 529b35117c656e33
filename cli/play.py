"""The script runner, the offline table and the audit: front ends of the game service, like the bot.

The offline table keeps its game in the embedded SQLite database (or DATABASE_URL), upgraded to
the newest migration before it starts, so a game survives closing the terminal; the script
runner uses a temporary database unless told otherwise.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from cli.main import HELP, _directive_scenario, scenario_source
from game.account import account
from game.errors import RulesError
from game.report import describe, summary
from game.rules_data import DataError
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import Actor, GameService
from game.service.settings import Settings

LOCAL = Actor("local", "offline")


def run_script(path: Path, as_json: bool, scenario: str | None, seed: int | None, out: TextIO,
               db: str | None = None) -> int:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        text, name = scenario_source(scenario or _directive_scenario(lines), path.parent)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        url = db or f"sqlite+aiosqlite:///{Path(tmp) / 'script.db'}"
        return asyncio.run(_script(url, path, lines, text, name, seed, as_json, out))


async def _open(url: str) -> tuple[Any, GameService]:
    await upgrade_to_head(url)
    engine = make_engine(url)
    return engine, GameService(engine)


async def _script(url: str, path: Path, lines: Sequence[str], text: str, name: str, seed: int | None,
                  as_json: bool, out: TextIO) -> int:
    engine, service = await _open(url)
    try:
        try:
            info = await service.create_game(LOCAL, f"script:{path}", scenario=name.removesuffix(".toml"),
                                             scenario_text=text, seed=seed)
        except DataError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        await _seat_everyone(service, info.id)
        for number, raw in enumerate(lines, start=1):
            body = raw.split("#", 1)[0].strip()
            if not body or body.lower().startswith("scenario "):
                continue
            expect_refusal = body.startswith("!")
            line = body.lstrip("!").strip()
            try:
                await service.submit(LOCAL, info.id, line, request_id=f"{path}:{number}:{info.id}")
            except RulesError as exc:
                if expect_refusal:
                    if not as_json:
                        print(f"line {number}: refused as expected [{exc.code}]: {exc.text}", file=out)
                    continue
                print(f"{path}:{number}: {line}: refused [{exc.code}]: {exc.text}", file=sys.stderr)
                await _print_state(service, info.id, as_json, out)
                return 1
            if expect_refusal:
                print(f"{path}:{number}: {line}: was expected to be refused but was accepted", file=sys.stderr)
                return 1
        await _print_state(service, info.id, as_json, out)
        return 0
    finally:
        await engine.dispose()


async def _seat_everyone(service: GameService, game_id: int, ai: str | None = None) -> None:
    info = await service.info(game_id)
    for player, user, _, is_ai in info.seats:
        if user is None and not is_ai:
            await service.join(LOCAL, game_id, player, "local", ai=(player == ai))


async def _print_state(service: GameService, game_id: int, as_json: bool, out: TextIO) -> None:
    state = await service.state_for_audit(game_id)  # hot-seat: both sides share the screen
    if as_json:
        json.dump(summary(state, service.rules), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        print(describe(state, service.rules), file=out)


# ---------------------------------------------------------------- the offline table


def run_table(
    scenario: str | None,
    seed: int | None,
    inp: Iterable[str],
    out: TextIO,
    interactive: bool,
    vs_ai: str | None = None,
    new: bool = False,
    db: str | None = None,
    out_dir: Path | None = None,
) -> int:
    url = db or Settings.from_env().database_url
    return asyncio.run(_table(url, scenario, seed, inp, out, interactive, vs_ai, new, out_dir))


async def _table(url: str, scenario: str | None, seed: int | None, inp: Iterable[str], out: TextIO,
                 interactive: bool, vs_ai: str | None, new: bool, out_dir: Path | None) -> int:
    engine, service = await _open(url)
    try:
        existing = None if new else await service.game_in_channel(LOCAL.guild_id, "table")
        if existing is not None:
            game_id = existing.id
            print(f"Resuming the offline game #{game_id} ({existing.name}); `quarterdeck table --new` starts "
                  "another.", file=out)
        else:
            try:
                text, name = scenario_source(scenario)
                channel = "table" if not new else f"table-{await _count(service)}"
                info = await service.create_game(LOCAL, channel, scenario=name.removesuffix(".toml"),
                                                 scenario_text=text, seed=seed)
            except (DataError, RulesError) as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            game_id = info.id
            if vs_ai is not None and vs_ai not in [s[0] for s in info.seats]:
                print(f"error: --vs-ai names a player of the game: {', '.join(s[0] for s in info.seats)}",
                      file=sys.stderr)
                return 2
            await _seat_everyone(service, game_id, vs_ai)
        print(f"Quarterdeck offline table, saved in {url}. Type `help` for the commands, `quit` to leave.",
              file=out)
        ai = [p for p, _, _, is_ai in (await service.info(game_id)).seats if is_ai]
        if ai:
            print(f"The computer captain commands player {', '.join(ai)}.", file=out)
        images = _Images(service, game_id, out_dir / f"table-game{game_id}" if out_dir else None, out)
        await _ai_turns(service, game_id, out, images)
        await _print_state(service, game_id, False, out)
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
                await _print_state(service, game_id, False, out)
                continue
            if word == "json":
                await _print_state(service, game_id, True, out)
                continue
            if word == "log":
                for e in await service.log(LOCAL, game_id):
                    text = account(e)
                    if text:
                        print("  " + text, file=out)
                continue
            try:
                outcome = await service.submit(LOCAL, game_id, line)
            except RulesError as exc:
                print(f"refused: {exc.text}", file=out)
                continue
            _print_events(outcome.events, out)
            await images.after(outcome.events)
            await _ai_turns(service, game_id, out, images)
            await _print_state(service, game_id, False, out)
        return 0
    finally:
        await engine.dispose()


async def _count(service: GameService) -> int:
    return len(await service.list_games(LOCAL.guild_id))


def _print_events(events: Iterable[Any], out: TextIO) -> None:
    for e in events:
        text = account(e)
        if text:
            print("  " + text, file=out)


class _Images:
    """Writes the board after every activation into a folder and says where."""

    def __init__(self, service: GameService, game_id: int, folder: Path | None, out: TextIO) -> None:
        self.service, self.game_id, self.folder, self.out = service, game_id, folder, out
        self.count = len(list(folder.glob("*.png"))) if folder and folder.exists() else 0

    async def after(self, events: Sequence[Any]) -> None:
        from render.files import ends_an_activation, write_activation

        if self.folder is None or not ends_an_activation(events):
            return
        self.count += 1
        view = await self.service.view(LOCAL, self.game_id)
        path = await asyncio.to_thread(write_activation, self.folder, self.count, view, events)
        print(f"  board: {path}", file=self.out)


async def _ai_turns(service: GameService, game_id: int, out: TextIO, images: _Images | None = None) -> None:
    for outcome in await service.play_ai(game_id):
        # the captain's own view shows its pick: keep it off the shared screen
        shown = [e for e in outcome.events if type(e).__name__ != "CardPicked"]
        if not shown:
            print("  [AI] chooses an initiative card face down.", file=out)
        _print_events(shown, out)
        if images is not None:
            await images.after(outcome.events)


def _prompted(inp: Iterable[str], out: TextIO, interactive: bool) -> Iterator[str]:
    if not interactive:
        yield from inp
        return
    while True:
        try:
            yield input("> ")
        except EOFError:
            print(file=out)
            return


# ---------------------------------------------------------------- audit


def run_audit(games: Sequence[int], db: str | None, out: TextIO) -> int:
    url = db or Settings.from_env().database_url
    return asyncio.run(_audit(url, games, out))


async def _audit(url: str, games: Sequence[int], out: TextIO) -> int:
    engine, service = await _open(url)
    try:
        ids = list(games) or await service.repo.all_game_ids()
        bad = 0
        for gid in ids:
            report = await service.audit(gid)
            status = "ok" if report.ok else "MISMATCH: " + "; ".join(report.mismatches)
            print(f"game #{gid}: {report.events} events, {status}", file=out)
            bad += not report.ok
        return 1 if bad else 0
    finally:
        await engine.dispose()
