"""`quarterdeck verify`: recompute every roll of a finished game, from the database or from the log file
the bot attaches to `/game verify` (so nobody has to take the bot's word for it)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from game.codec import from_data
from game.errors import RulesError
from game.events import EVENTS
from game.fairness import Verification, commitment, verify_log
from game.model import Game
from game.rules_data import DataError, RulesData, rules_from_texts

MAX_LOG_BYTES = 50_000_000


class LogFileError(RulesError):
    code = "log-file"


def run_verify(game_id: int | None, file: Path | None, db: str | None, out: TextIO) -> int:
    try:
        if file is not None:
            result, seed = verify_file(file)
        elif game_id is not None:
            result, seed = asyncio.run(_from_db(game_id, db))
        else:
            print("error: give a game number or --file LOG.json", file=out)
            return 2
    except RulesError as exc:
        print(f"error: {exc.text}", file=out)
        return 2
    print(result.summary(), file=out)
    print(f"seed {seed}; SHA-256 {commitment(seed)} (compare it with the one posted when the game began)", file=out)
    return 0 if result.ok else 1


@dataclass(frozen=True)
class GameLog:
    """A finished game's log file, read and checked for shape."""

    name: str
    seed: str
    commitment: str | None
    rules: RulesData
    initial: Game
    log: list[tuple[int, Any]]


def read_log(path: Path) -> GameLog:
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            raise LogFileError(f"{path} is larger than a game's log can be.")
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise LogFileError(f"{path} is not a readable log file ({type(exc).__name__}).") from None
    if not isinstance(data, dict) or data.get("format") != "quarterdeck-log/1":
        raise LogFileError(f"{path} is not a Quarterdeck game log (format quarterdeck-log/1).")
    try:
        seed = str(data["seed"])
        files = {str(k): str(v) for k, v in dict(data["data_files"]).items()}
        rules = rules_from_texts(str(data["system"]), files)
        initial: Game = from_data(Game, data["initial_state"])
        log = [(int(cmd), EVENTS.decode(event)) for cmd, event in data["events"]]
    except DataError as exc:
        raise LogFileError(f"the log's data files are not valid: {exc}") from None
    except (KeyError, TypeError, ValueError, RecursionError) as exc:
        raise LogFileError(f"{path} is damaged ({type(exc).__name__}: {str(exc)[:200]}).") from None
    return GameLog(str(data.get("name") or "")[:200], seed, str(data.get("commitment") or "") or None, rules,
                   initial, log)


def verify_file(path: Path) -> tuple[Verification, str]:
    game_log = read_log(path)
    return verify_log(game_log.initial, game_log.log, game_log.seed, game_log.rules, game_log.commitment), game_log.seed


async def _from_db(game_id: int, db: str | None) -> tuple[Verification, str]:
    from game.service.db import make_engine, upgrade_to_head
    from game.service.game_service import GameService
    from game.service.settings import Settings

    url = db or Settings.from_env().database_url
    await upgrade_to_head(url)
    engine = make_engine(url)
    try:
        check = await GameService(engine).verify(None, game_id)
        return check.verification, check.seed
    finally:
        await engine.dispose()
