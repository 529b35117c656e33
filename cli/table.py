"""The offline table: a real client of the game service at one screen. It keeps its games in the
embedded SQLite database (or DATABASE_URL), lists them and opens the one asked for, says at every
prompt what the player to act can do, and offers what the bot offers: options, hand, preview, undo.
"""

from __future__ import annotations

import asyncio
import difflib
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from cli.boards import Boards as _Images  # the boards the table writes (cli/boards.py)
from cli.common import HELP, LOCAL, open_service, print_events, print_state, scenario_source
from cli.drafted import drafted_size, enlist, is_enlist, set_up_prompt, take_sides
from cli.ending import Ending
from cli.first_game import ai_mismatch
from cli.teaching import TEACHING_WORDS, print_hands, print_rules, print_told
from cli.terminal import refuse
from game.errors import ParseError, RulesError
from game.notation import VERBS, parse
from game.phases.common import owes_pick
from game.service.game_service import DRAFTED, GameInfo, GameService
from game.service.referee import is_referee_system
from game.service.settings import Settings

TABLE_WORDS = ("state", "json", "log", "help", "quit", "exit", "options", "hand", "preview", "undo", "games",
               *TEACHING_WORDS)


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
    game: int | None = None,
    size: str | None = None,
    default_ai: str | None = None,
) -> int:
    """`scenario` is a built-in name, a scenario file or `drafted [SIZE]` (or `drafted` with `size`).
    `default_ai`: the side the computer captain takes in a new game when `vs_ai` does not say (the
    first game `make run` opens is against it; None: both sides at one screen)."""
    url = db or Settings.from_env().database_url
    try:
        drafted = drafted_size(scenario, size)
    except RulesError as exc:
        return refuse(exc.text)
    return asyncio.run(_table(url, scenario, seed, inp, out, interactive, vs_ai, new, out_dir, game, drafted,
                              default_ai))


async def _table(url: str, scenario: str | None, seed: int | None, inp: Iterable[str], out: TextIO,
                 interactive: bool, vs_ai: str | None, new: bool, out_dir: Path | None, game: int | None,
                 drafted: str | None, default_ai: str | None = None) -> int:
    if interactive and threading.current_thread() is threading.main_thread():
        # asyncio.run's own handler ignores a first Ctrl-C while `input` blocks the loop, and makes the
        # second a traceback: one press at the prompt leaves the table (every command is already saved)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    engine, service = await open_service(url)
    try:
        game_id = await _choose_game(service, scenario, seed, vs_ai, new, game, out, drafted, default_ai)
        if game_id is None:
            return 2
        print(f"Quarterdeck offline table, saved in {url}. Type `help` for the commands, `quit` to leave.",
              file=out)
        ai = [s.player for s in (await service.lobby.info(game_id)).seats if s.ai]
        if ai:
            print(f"The computer captain commands player {', '.join(ai)}.", file=out)
        images = _Images(service, game_id, out_dir / f"table-game{game_id}" if out_dir else None, out)
        end = Ending(service, game_id, url, out, images)
        await end.start()
        await _ai_turns(service, game_id, out, images)
        await print_state(service, game_id, False, out)
        await _print_options(service, game_id, out)
        await end.check()
        for raw in _prompted(inp, out, interactive):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.lower() in ("quit", "exit"):
                break
            if await _table_word(service, game_id, line, out, images) or await end.word(line):
                continue
            if is_enlist(line):  # seats a side of a drafted game, as the same line does in a script
                try:
                    await enlist(service, game_id, line, Path())  # from where the table was started
                except RulesError as exc:
                    print(f"refused: {exc.text}", file=out)
                    continue
                print(f"  Player {line.split()[1]} enlists the squadron in {line.split(None, 2)[2]}.", file=out)
                await _ai_turns(service, game_id, out, images)
                await print_state(service, game_id, False, out)
                await _print_options(service, game_id, out)
                await end.check()
                continue
            try:
                outcome = await service.commands.submit(LOCAL, game_id, line)
            except RulesError as exc:
                print(f"refused: {exc.text}{_suggestion(line, exc)}", file=out)
                continue
            await print_told(service, game_id, outcome.events, out)
            await images.after(outcome.events)
            await _ai_turns(service, game_id, out, images)
            await print_state(service, game_id, False, out)
            await _print_options(service, game_id, out)
            await end.check()
        return 0
    finally:
        await engine.dispose()


async def _choose_game(service: GameService, scenario: str | None, seed: int | None, vs_ai: str | None,
                       new: bool, game: int | None, out: TextIO, drafted: str | None = None,
                       default_ai: str | None = None) -> int | None:
    """The game to open: `--game N`, else a new one with `--new` (or when there is none), else the
    newest unfinished one. The stored games are listed first."""
    games = await _table_games(service)
    if games and not new:
        print("Offline games:", file=out)
        for g in games:
            print("  " + _describe(g), file=out)
    if game is not None:
        if game not in [g.id for g in games]:
            print(f"error: there is no offline game #{game}; the games are listed above.", file=sys.stderr)
            return None
        if ai_mismatch([g for g in games if g.id == game][0], vs_ai):
            return None
        if scenario is not None:
            print("note: --scenario chooses a new game (with --new); an existing game keeps its own.", file=out)
        print(f"Opening game #{game}.", file=out)
        return game
    unfinished = [g for g in games if g.status != "over"]
    if unfinished and not new:
        chosen = unfinished[-1]
        if ai_mismatch(chosen, vs_ai):
            return None
        if scenario is not None or seed is not None:
            print("note: --scenario and --seed choose a new game: add --new to start one. Resuming.",
                  file=out)
        print(f"Resuming game #{chosen.id} ({chosen.name}); `.venv/bin/quarterdeck table --game N` opens another, "
              "`--new` starts one.",
              file=out)
        return chosen.id
    try:
        text, name = (None, DRAFTED) if drafted else scenario_source(scenario)
        info = await service.lobby.create_game(LOCAL, f"table-{len(games) + 1}", scenario=name.removesuffix(".toml"),
                                               scenario_text=text, seed=seed, size=drafted or "skirmish")
    except RulesError as exc:  # a DataError too
        refuse(exc.text)
        return None
    vs_ai = vs_ai or default_ai
    if vs_ai is not None and info.seat(vs_ai) is None:
        print(f"error: --vs-ai names a player of the game: {', '.join(s.player for s in info.seats)}", file=sys.stderr)
        return None
    await take_sides(service, info.id, vs_ai)  # a drafted game's other sides enlist at the table
    print(f"New game #{info.id} ({info.name}).", file=out)
    return info.id


async def _table_games(service: GameService) -> list[GameInfo]:
    """The offline Oak & Iron games: the referee systems' offline games are `quarterdeck ref`'s."""
    return [g for g in await service.lobby.list_games(LOCAL.guild_id) if not is_referee_system(g.system)]


def _describe(g: GameInfo) -> str:
    sides = ", ".join(f"{s.player}: {'computer' if s.ai else 'you'}" for s in g.seats)
    where = "finished" if g.status == "over" else f"turn {g.turn}, {g.phase}"
    return f"#{g.id} {g.name} — {where} ({sides})"


async def _table_word(service: GameService, game_id: int, line: str, out: TextIO, images: _Images) -> bool:
    """The table's own commands (not game orders). True when the line was one of them."""
    word, _, rest = line.partition(" ")
    word, rest = word.lower(), rest.strip()
    if word == "help":
        print(HELP, file=out)
    elif word in ("state", "json"):
        await print_state(service, game_id, word == "json", out)
    elif word == "log":
        print_events(await service.reading.log(LOCAL, game_id), out)
    elif word == "games":
        for g in await _table_games(service):
            print("  " + _describe(g), file=out)
    elif word == "options":
        await _print_options(service, game_id, out, rest or None, always=True)
    elif word == "hand":
        await print_hands(service, game_id, out, [rest.upper()] if rest else await _humans(service, game_id),
                          await _humans(service, game_id))
    elif word == "rules":
        await print_rules(service, game_id, rest, out)
    elif word == "preview":
        await _preview(service, game_id, rest, out, images)
    elif word == "undo":
        try:
            outcome = await service.undo.request(LOCAL, game_id)
            if any(type(e).__name__ == "UndoRequested" for e in outcome.events):
                outcome = await service.undo.approve(LOCAL, game_id)  # at one screen the opponent is here too
        except RulesError as exc:
            print(f"refused: {exc.text}", file=out)
        else:
            print_events(outcome.events, out)
            await print_state(service, game_id, False, out)
            await _print_options(service, game_id, out)
    else:
        return False
    return True


async def _humans(service: GameService, game_id: int) -> list[str]:
    return [s.player for s in (await service.lobby.info(game_id)).seats if not s.ai]


async def _print_options(service: GameService, game_id: int, out: TextIO, ship: str | None = None,
                         always: bool = False) -> None:
    """What each human side the game waits for can do. Against the computer the one human's hand is
    listed at a pick; at a shared screen it is not (`hand A` shows it while the other looks away)."""
    from game.options import options_for, public_options

    setup = await set_up_prompt(service, game_id)  # the chapter-7 set-up: one line for the whole table
    if setup:
        print(setup, file=out)
        return
    humans = await _humans(service, game_id)
    rules = await service.reading.rules(game_id)
    printed = False
    for player in humans:
        view = await service.reading.view(LOCAL, game_id, player=player)
        found = options_for(view, rules, ship) if len(humans) == 1 else public_options(view, rules)
        if len(humans) > 1 and found.summary and owes_pick(view.game, player) \
                and view.game.pending is None and not view.game.choices:
            found = type(found)(player, f"Choose an initiative card face down: `hand {player}` shows your hand, "
                                        f"then `pick {player} CARD`.")
        if not found.summary:
            continue
        printed = True
        print(f"Player {player} — " + "\n  ".join(found.lines(orders=True)), file=out)
    if always and not printed:
        print("The game is not waiting for you now.", file=out)


async def _preview(service: GameService, game_id: int, order: str, out: TextIO, images: _Images) -> None:
    """What a move would do, changing nothing: where it ends, any collision, and what would then be
    in each broadside path (and the picture, when boards are written)."""
    from render.overlays import preview_move

    view = await service.reading.view(LOCAL, game_id)
    try:
        command = parse(order or "", view.game)
        pv = preview_move(view, command, await service.reading.rules(game_id))
    except RulesError as exc:
        print(f"refused: {exc.text}", file=out)
        return
    arcs = "; ".join(f"{s}: {e} at {b}" for s, e, b in pv.in_arc) or "no enemy in either broadside path"
    print(f"Preview (not made): {arcs}." + (f" {pv.note}" if pv.note else ""), file=out)
    await images.preview(view, pv)


def _suggestion(line: str, exc: RulesError) -> str:
    """For a word the table does not know: the nearest command it does."""
    if not isinstance(exc, ParseError) or not exc.message.startswith("Unknown command"):
        return ""
    head = line.split(maxsplit=1)[0].lower()
    near = difflib.get_close_matches(head, [*VERBS, *TABLE_WORDS, Ending.WORD], n=2, cutoff=0.6)
    return f" Did you mean {' or '.join(f'`{w}`' for w in near)}?" if near else ""


async def _ai_turns(service: GameService, game_id: int, out: TextIO, images: _Images | None = None) -> None:
    for outcome in await service.commands.play_ai(game_id):
        # the captain's own view shows its pick: keep it off the shared screen
        shown = [e for e in outcome.events if type(e).__name__ != "CardPicked"]
        if not shown:
            print("  [AI] chooses an initiative card face down.", file=out)
        await print_told(service, game_id, shown, out)
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
        except KeyboardInterrupt:
            print("\nLeft the table: every command given is saved; `quarterdeck table` resumes the game.", file=out)
            return
