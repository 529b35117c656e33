"""`quarterdeck replay FILE`: a finished game's log (the file `/game replay` and `/game verify`
attach) played back in the terminal, one command at a time, and drawn into a folder of PNGs."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

from cli.terminal import refuse
from game.errors import RulesError
from game.log_file import read_log_file
from game.replay import frames


def run_replay(file: Path, out_dir: Path | None, delay: float, out: TextIO, images: bool = True) -> int:
    try:
        game_log = read_log_file(file)
        shown = frames(game_log.initial, game_log.log)  # a spectator's eyes: the log's secrets stay in it
    except RulesError as exc:
        return refuse(exc.text)
    print(f"{game_log.name or 'A game'}: {len(shown)} moments", file=out)
    for i, frame in enumerate(shown, 1):
        g = frame.view.game
        print(f"[{i}/{len(shown)}] turn {g.turn} · {g.phase.value}", file=out)
        for line in frame.caption:
            print(f"    {line}", file=out)
        if delay > 0:
            out.flush()
            time.sleep(delay)
    if images and out_dir is not None:
        from render.replay import write_pngs

        paths = write_pngs(shown, out_dir, game_log.rules)
        print(f"{len(paths)} boards written to {out_dir}/", file=out)
    return 0
