"""Drafted games (chapter 7, docs/setup.md) at the terminal, shared by the script runner and the
offline table: `drafted [SIZE]` as a scenario, `enlist PLAYER FILE` to seat a side with a squadron
file, who takes the sides of a new game, and what the set-up waits for in the terminal's words."""

from __future__ import annotations

from pathlib import Path

from cli.common import LOCAL, seat_everyone
from game.errors import RulesError
from game.model import Phase
from game.phases.preparation import what_now
from game.schema.common import read_text_file
from game.schema.squadron import MAX_FILE_BYTES as MAX_SQUADRON_BYTES
from game.service.game_service import GameService
from game.service.lobby import DRAFTED
from game.squadron import SIZES

ENLIST = "enlist"


def drafted_size(scenario: str | None, size: str | None = None) -> str | None:
    """The game size of `drafted [SIZE]` (or `drafted` and `size`; skirmish unless named), or None for
    any other scenario."""
    words = (scenario or "").split()
    if not words or words[0].lower() != DRAFTED:
        if size is not None:
            raise RulesError(f"--size is for a drafted game (--scenario drafted), not {scenario or 'quickstart'!r}.",
                             "A scenario's own squadrons set its size.")
        return None
    if size is not None:
        words = [*words, size]
    if len(words) > 2 or (len(words) == 2 and words[1].lower() not in SIZES):
        raise RulesError(f"A drafted game is `drafted [SIZE]`, not {' '.join(words)!r}.",
                         f"Sizes: {', '.join(SIZES)}.")
    return words[1].lower() if len(words) == 2 else "skirmish"


def is_enlist(line: str) -> bool:
    return line.split(None, 1)[0].lower() == ENLIST if line.strip() else False


async def enlist(service: GameService, game_id: int, line: str, base: Path) -> None:
    """`enlist PLAYER FILE`: the side takes its seat with the squadron list in FILE (relative to
    `base`: the script's folder, or where the table was started), checked against every building
    rule and the game's size as /game join does. Not an in-game command: it seats a side."""
    words = line.split(None, 2)
    if len(words) < 3:
        raise RulesError(f"{line!r}: an enlist line is `enlist PLAYER FILE`.")
    player, file = words[1], Path(words[2].strip().strip('"'))
    sq_path = file if file.is_absolute() else base / file
    text = read_text_file(sq_path, MAX_SQUADRON_BYTES, RulesError)
    saved = await service.squadrons.save(LOCAL, text)
    await service.lobby.join(LOCAL, game_id, player, "local", squadron=saved.name)


async def waits_for_lists(service: GameService, game_id: int) -> bool:
    """True while a drafted game waits for its sides' squadron lists (the `enlist` lines)."""
    state = await service.reading.state_for_audit(game_id)
    return state.phase is Phase.PREPARATION and state.prep is not None and state.prep.step == "enlist"


async def take_sides(service: GameService, game_id: int, ai: str | None = None) -> None:
    """Seat a new game's sides at one screen. A drafted game's human sides are seated by their
    `enlist` lines; only the computer captain's side is taken now (it brings a random legal list)."""
    if not await waits_for_lists(service, game_id):
        await seat_everyone(service, game_id, ai)
    elif ai is not None:
        await service.lobby.join(LOCAL, game_id, ai, "local", ai=True)


async def set_up_prompt(service: GameService, game_id: int) -> str:
    """What the set-up waits for, said in the table's notation; "" once play has begun."""
    state = await service.reading.state_for_audit(game_id)
    if state.phase is not Phase.PREPARATION or state.prep is None:
        return ""
    if state.prep.step == "enlist":
        waiting = [q.player for q in state.squadrons if not q.name]
        return (f"Set-up: waiting for the squadron lists of player {', '.join(waiting)}: "
                f"`enlist PLAYER FILE` (a squadron file, docs/squadron-format.md; e.g. "
                f"`enlist {waiting[0]} examples/dutch_skirmish.toml`).")
    who = state.prep.to_act or "PLAYER"
    return f"Set-up: {what_now(state)} Begin the line with the side: `{who}: …` (docs/setup.md)."
