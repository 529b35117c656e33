"""Issue 24 item 4: the commands a two-ship WS&IM turn takes (plots, one broadside each, a reload), today
and at the commit before the phases with nothing to do were skipped, whose `game` package
benchmarks/baseline.py takes from git. Printed by `python -m benchmarks referee`. This module imports
nothing of `game` at its top, so the old package can run it."""

from __future__ import annotations

from benchmarks import baseline

CEREMONY_BASE = "3bc9e87"  # main before issue 24 item 4: the referee's `next` walked every phase
TURN_TARGET = 8  # issue 24 item 4: a two-ship turn (plots, one broadside each, reload) in at most 8 commands
TURN = (("British", "plot Victory 1"), ("French", "plot Redoutable 1"),
        ("British", "fire Victory right Redoutable range 7"), ("French", "fire Redoutable left Victory range 7"),
        ("British", "load Victory right R"), ("French", "load Redoutable left R"))


class _Threes:
    """Every die shows 3: the wind holds (6 against WSN 5), and the old and the new code, which roll in
    a different order, see the same faces."""

    def roll(self, n: int, sides: tuple[str, ...]) -> tuple[str, ...]:
        return ("3",) * max(0, n)


def turn_commands() -> int:
    """The commands of turn 2 of the built-in WS&IM setup (each side's plot, one broadside and its reload),
    counted from the command that begins turn 2 to the one that begins turn 3: the referee's `next` is
    given whenever a player's line is out of its phase. The referee has entered the Fire Results Table's
    garbled rows first, so no fire waits for hits. Runs against whichever `game` package is imported."""
    import tomllib

    from game.errors import RulesError
    from game.service.referee import builtin_setups
    from game.systems import SYSTEMS

    wsim = SYSTEMS["wsim"]
    state = wsim.initial_state(tomllib.loads(builtin_setups("wsim")["trafalgar"]))
    counts: dict[int, int] = {}

    def play(who: str, line: str) -> bool:
        nonlocal state
        try:
            events = wsim.decide(state, wsim.parse(f"{who}: {line}", state), _Threes())
        except RulesError:
            return False
        counts[state.turn] = counts.get(state.turn, 0) + 1
        for e in events:
            state = wsim.apply(state, e)
        return True

    for row in [str(n) for n in range(8, 57)] + ["57+"]:
        for column, hits in (("hull", "1H"), ("rigging", "1R")):
            play("Umpire", f"printed fire_results {row} {column} = {hits}")
    counts.clear()
    for turn in (1, 2):
        for who, line in TURN:
            while not play(who, line):
                if not play("Umpire", "next"):
                    raise RuntimeError(f"neither {line!r} nor `next` is accepted in phase {state.phase}")
        while state.turn == turn:
            if not play("Umpire", "next"):
                raise RuntimeError(f"`next` is refused in phase {state.phase}")
    return counts[2]


def report() -> None:
    """Commands per two-ship WS&IM turn, today, beside the code before the empty phases were skipped."""
    now = turn_commands()
    before = baseline.run("importlib.import_module('benchmarks.ceremony').turn_commands()", old=True,
                          commit=CEREMONY_BASE)
    was = f"; at {CEREMONY_BASE}, before the empty phases were skipped: {before}" if before is not None else ""
    print(f"a two-ship WS&IM turn (plots, one broadside each, reload): {now} commands (target <= {TURN_TARGET}){was}")
