"""Fair dice and a told ending at the offline table: the dice seed's SHA-256 when a game starts; when
it ends, the last attack, the End Phase, the Strike Points, the winner, the final board, the seed and
the exact `quarterdeck verify` line; and `export FILE`, the log `quarterdeck replay` and `verify --file`
read (the file the bot attaches to /game verify). Nobody has to take the table's word for its dice."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from cli.boards import Boards
from cli.common import LOCAL
from game import events as ev
from game.account import account
from game.errors import RulesError
from game.model import Phase
from game.names import plain
from game.phases.end import ship_total, strike_points
from game.service.db import is_sqlite
from game.service.game_service import GameService
from game.service.settings import Settings

EXPORT = "export"


def quarterdeck() -> str:
    """The command as the reader can type it where they stand (the README's `.venv/bin/quarterdeck`)."""
    return ".venv/bin/quarterdeck" if Path(".venv/bin/quarterdeck").exists() else "quarterdeck"


def verify_line(game_id: int, url: str) -> str:
    """`quarterdeck verify N`, with `--db` unless verify would find the same database by itself."""
    if url == Settings.from_env().database_url:
        return f"{quarterdeck()} verify {game_id}"
    if is_sqlite(url):
        return f"{quarterdeck()} verify {game_id} --db {shlex.quote(url.split(':///', 1)[-1])}"
    from sqlalchemy.engine import make_url

    return f"{quarterdeck()} verify {game_id} --db {shlex.quote(make_url(url).render_as_string(hide_password=True))}"


async def tell_start(service: GameService, game_id: int, out: TextIO) -> None:
    commitment = await service.audit.dice_commitment(game_id)
    print(f"Fair dice: every roll comes from a secret seed, shown when the game ends. Its SHA-256 is "
          f"{commitment}: keep it to check the seed against (docs/fair-play.md).", file=out)


async def tell_end(service: GameService, game_id: int, url: str, out: TextIO, boards: Boards | None) -> None:
    """The game's end told in one place, whoever made its last move (and the final board drawn)."""
    state = await service.reading.state_for_audit(game_id)
    log = await service.reading.log(LOCAL, game_id)
    print("", file=out)
    print(f"=== Game over: {'player ' + state.winner + ' wins' if state.winner else 'no one wins'} "
          f"({state.result}) ===", file=out)
    rules = await service.reading.rules(game_id)  # the points as the End Phase would count them now
    standing = [(p, strike_points(state, p, rules), ship_total(state, p)) for p in state.players]
    for line in _ending(log, standing):
        print("  " + line, file=out)
    if boards is not None:
        path = await boards.final()
        if path is not None:
            print(f"  Final board: {path}", file=out)
    seed = await service.audit.revealed_seed(game_id)
    print(f"  Dice seed: {seed}", file=out)
    print(f"  Its SHA-256, shown when the game began: {await service.audit.dice_commitment(game_id)}", file=out)
    if state.test_dice:
        print("  This scenario lets `dice` lines fix rolls: a fixed roll does not match the seed.", file=out)
    print(f"  Check every roll: {verify_line(game_id, url)}", file=out)
    print("  `export FILE` writes the game's log for `quarterdeck replay FILE` and `quarterdeck verify --file FILE`;"
          " `quit` leaves.", file=out)


def _ending(log: Sequence[Any], standing: Sequence[tuple[str, int, int]]) -> list[str]:
    """The last attack, the End Phase the game ended in, the Strike Points (as that End Phase counted
    them, else `standing`: a game conceded mid-turn) in words; the result heads the block."""
    lines: list[str] = []
    attacks = [e for e in log if isinstance(e, ev.AttackResolved)]
    if attacks:
        lines.append("Last attack: " + plain(account(attacks[-1])))
    phases = [i for i, e in enumerate(log) if isinstance(e, ev.PhaseBegan)]
    last = phases[-1] if phases else -1
    if last >= 0 and log[last].phase is Phase.END:  # the game ended in this End Phase
        said = [plain(account(e)) for e in log[last + 1:] if not isinstance(e, ev.StrikePointsCounted | ev.GameEnded)]
        lines.append(f"End Phase of turn {log[last].turn}: " + (" ".join(t for t in said if t) or "nothing to do."))
        counted = [e for e in log[last:] if isinstance(e, ev.StrikePointsCounted)]
        if counted:
            ships = dict(counted[-1].ships)
            standing = [(p, n, ships.get(p, 0)) for p, n in counted[-1].points]
    lines.append("Strike Points: " + ", ".join(
        f"player {p} {n} ({ships_left} ship{'' if ships_left == 1 else 's'} fighting)" for p, n, ships_left in standing)
        + "; a side whose points pass its ships fighting withdraws.")
    return lines


async def export(service: GameService, game_id: int, file: str, out: TextIO) -> None:
    """`export FILE`: the finished game's log, as /game verify attaches it."""
    if not file:
        print("refused: export needs a file name, e.g. `export game.json`.", file=out)
        return
    try:
        data = await service.audit.export_log(LOCAL, game_id)
    except RulesError as exc:
        print(f"refused: {exc.text} `export FILE` works once the game has ended.", file=out)
        return
    path = Path(file.strip().strip('"'))
    try:
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        print(f"refused: cannot write {str(path)[:200]}: {exc.strerror or exc}.", file=out)
        return
    print(f"  The game's log is in {path}: `{quarterdeck()} replay {path}` plays it back, "
          f"`{quarterdeck()} verify --file {path}` checks every roll.", file=out)


class Ending:
    """The table's watch for the end: the commitment when it opens, the ending told once, `export`."""

    WORD = EXPORT

    def __init__(self, service: GameService, game_id: int, url: str, out: TextIO, boards: Boards | None) -> None:
        self.service, self.game_id, self.url, self.out, self.boards = service, game_id, url, out, boards
        self.told = False

    async def _over(self) -> bool:
        return (await self.service.reading.state_for_audit(self.game_id)).phase is Phase.OVER

    async def start(self) -> None:
        """A game in play: its commitment and its set-up board. A finished one: how it ended and its seed
        (its final board was drawn when it ended)."""
        if await self._over():
            self.told = True
            await tell_end(self.service, self.game_id, self.url, self.out, None)
            return
        if self.boards is not None:
            self.boards.announce()
            await self.boards.setup()
        await tell_start(self.service, self.game_id, self.out)

    async def check(self) -> None:
        """After every command and the computer's answers: the first time the game is over, say how."""
        if not self.told and await self._over():
            self.told = True
            await tell_end(self.service, self.game_id, self.url, self.out, self.boards)

    async def word(self, line: str) -> bool:
        word, _, rest = line.partition(" ")
        if word.lower() != EXPORT:
            return False
        await export(self.service, self.game_id, rest.strip(), self.out)
        return True
