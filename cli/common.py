"""What the command-line front ends share: the notation help, where a scenario comes from, the local
actor (one person at one screen), the service on a database, and how a game is printed."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from game.account import account_lines
from game.errors import UnknownName
from game.fairness import new_seed
from game.model import Game
from game.names import plain
from game.report import describe, summary
from game.rules_data import DataError, RulesData
from game.scenario import builtin_scenarios
from game.schema.common import read_text_file
from game.schema.scenario import MAX_FILE_BYTES as MAX_SCENARIO_BYTES
from game.service.db import make_engine, upgrade_to_head
from game.service.game_service import LOCAL_GUILD, Actor, GameService

# the offline table and the script runner: both sides share the screen, and undo needs no one's consent
LOCAL = Actor("local", LOCAL_GUILD, gm=True)

HELP = """Commands (docs/notation.md):
  fire SHIP SIDE TARGET [aim hull|rigging|crew] [SIDE TARGET …] [helm SIDE]   Broadside(s)
  partial SHIP TARGET [aim …]          Partial Fire     melee SHIP TARGET [landing|boat]   Close Combat
  free fire|partial|melee …  | decline a free attack a card offers
  freeturn SHIP SIDE DEG | freeturn SHIP skip | capture|destroy|spare SHIP
  transfer FLAGSHIP SHIP | newflag FLAGSHIP SHIP [drop CARD, …]
  pick PLAYER CARD                     choose an initiative card face down
  move SHIP [as large|windward] [heading SIDE DEG | adjust +1|-1 | cutfree]
       [ahead|back|port|starboard|hold] [turn start|end SIDE DEG] [shift start|end SIDE INCHES]
       [crew ACTION …]
  seamanship SHIP …   advance SHIP …   crew SHIP ACTION …   done SHIP      one step at a time
  crew actions: reload SIDE | rally | repair | repair aground | sail up|down | board SHIP [edge E]
                | row | flag SHIP | landing X Y
  pass SHIP                            Attack Phase activation without an attack
  reroll N [N …] | fortune | keep      answer a failed Skill Test
Lines the cards need (`rules CARD` says which card needs which):
  move SHIP shift start|end SIDE INCHES         a sideways shift (Adjust Position, Engage More Closely)
  move SHIP crew fire SIDE TARGET               a Crew Action that attacks (Rolling Broadsides)
  move SHIP crew partial|melee TARGET           (Elan, Heavy Musket Volley)
  move SHIP crew boat TARGET, then melee SHIP TARGET boat                    (Boat Assault)
  borrow CARD | shoal X Y [rot DEG] | shoal skip | event keep|discard        answers on reveal
  dice FACE …                          test scenarios only: fix the next dice
Drafted set-up (docs/setup.md), each line begun with the side, e.g. `A: role attacker`:
  role attacker|defender | draft CARD | terrain KIND | place PIECE X Y [rot DEG] | finish
  deploy SHIP X Y [heading H]
  enlist PLAYER FILE                   table and scripts: a side brings a squadron file (not an order)
Table only: options [SHIP] (what you can do now), hand [PLAYER] (each card, what it does, how to play it),
            rules NAME (a card, trait or term), preview ORDER (what a move would do),
            undo, games, state, json, log, help, quit
            export FILE                after the end: the game's log for `quarterdeck replay`/`verify --file`"""


def scenario_source(scenario: str | None, base: Path | None = None) -> tuple[str, str]:
    """(TOML text, file name) of a built-in scenario by name, or of a scenario file by path."""
    if scenario is None or scenario in builtin_scenarios():
        name = scenario or "quickstart"
        return builtin_scenarios()[name], f"{name}.toml"
    path = Path(scenario)
    if base is not None and not path.is_absolute() and not path.exists():
        path = base / path
    if not path.exists():
        raise UnknownName(f"There is no built-in scenario or scenario file {scenario[:80]!r}.",
                          f"Built-in scenarios: {', '.join(sorted(builtin_scenarios()))}; or a scenario file's path.")
    # one byte over the upload limit is enough for the schema to refuse the file by its size
    text = read_text_file(path, MAX_SCENARIO_BYTES + 1, lambda problem: DataError(str(path), "(file)", "(file)", problem))
    return text, path.name



def _directive_scenario(lines: Sequence[str]) -> str | None:
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if text.lower().startswith("scenario "):
            return text.split(None, 1)[1].strip()
        return None
    return None


async def open_service(url: str, seeds: Callable[[], str] = new_seed) -> tuple[Any, GameService]:
    await upgrade_to_head(url)
    engine = make_engine(url)
    return engine, GameService(engine, seeds=seeds)


async def seat_everyone(service: GameService, game_id: int, ai: str | None = None) -> None:
    info = await service.lobby.info(game_id)
    for seat in info.seats:
        if seat.free:
            await service.lobby.join(LOCAL, game_id, seat.player, "local", ai=(seat.player == ai))


async def print_state(service: GameService, game_id: int, as_json: bool, out: TextIO) -> None:
    state = await service.reading.state_for_audit(game_id)  # hot-seat: both sides share the screen
    if as_json:
        json.dump(summary(state, service.store.rules), out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        print(describe(state, service.store.rules), file=out)


def print_events(events: Iterable[Any], out: TextIO, game: Game | None = None, rules: RulesData | None = None) -> None:
    """The account of a batch of events; with the state after it and the rules, also the on-reveal
    cards that found nothing to do (game/account.py `account_lines`)."""
    for line in account_lines(list(events), game, rules):
        text = plain(line)  # a terminal shows names as written, not escaped for chat
        if text:
            print("  " + text, file=out)
