"""`quarterdeck verify`: recompute every roll of a finished game, from the database or from the log file
the bot attaches to `/game verify` (so nobody has to take the bot's word for it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TextIO

from cli.terminal import refuse
from game.errors import RulesError
from game.fairness import Verification, commitment, verify_log
from game.log_file import read_log_file


def run_verify(game_id: int | None, file: Path | None, db: str | None, out: TextIO) -> int:
    try:
        if file is not None:
            result, seed = verify_file(file)
        elif game_id is not None:
            result, seed = asyncio.run(_from_db(game_id, db))
        else:
            return refuse("give a game number or --file LOG.json")
    except RulesError as exc:
        return refuse(exc.text)
    print(result.summary(), file=out)
    print(f"seed {seed}; SHA-256 {commitment(seed)} (compare it with the one posted when the game began)", file=out)
    return 0 if result.ok else 1


def verify_file(path: Path) -> tuple[Verification, str]:
    game_log = read_log_file(path)
    return verify_log(game_log.initial, game_log.log, game_log.seed, game_log.rules, game_log.commitment), game_log.seed


async def _from_db(game_id: int, db: str | None) -> tuple[Verification, str]:
    """The database read as it is (cli/stored.py): a verification never changes what it checks."""
    from cli.stored import open_stored
    from game.service.errors import GameNotFound
    from game.service.settings import Settings

    engine, service = await open_stored(db or Settings.from_env().database_url)
    try:
        check = await service.audit.verify(None, game_id)
        return check.verification, check.seed
    except GameNotFound:
        raise RulesError(f"There is no game #{game_id} in that database.",
                         "`quarterdeck audit` lists the games it holds, with their numbers.") from None
    finally:
        await engine.dispose()
