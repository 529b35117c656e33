"""Boards worth looking at: the quick start at several moments of a game between computer captains,
a boarding action, a line of six ships in formation facing an enemy line, a double broadside and
the 20-ship Engagement of the benchmarks. The tests measure them; `python -m tests.render.demo DIR`
writes them as PNGs (full size and 400 px wide) to look at."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from game import events as ev
from game.ai.match import ai_game
from game.model import Phase, Sail, Status
from game.table_session import TableSession
from game.views import View, view_of
from render.options import RenderOptions
from render.overlays import last_attacks, last_move
from tests.game.test_attack import to_attack
from tests.helpers import S

Scene = tuple[View, RenderOptions]


def _after(events: list[Any]) -> RenderOptions:
    return RenderOptions(last_move=last_move(events), last_attacks=last_attacks(events))


@cache
def _quickstart_game(seed: int = 4) -> tuple[tuple[Any, list[Any]], ...]:
    steps: list[tuple[Any, list[Any]]] = []
    seen = [0]

    def keep(t: TableSession) -> None:
        steps.append((t.state, t.events[seen[0]:]))
        seen[0] = len(t.events)

    ai_game(seed, after_each=keep)
    return tuple(steps)


def quickstart_moments() -> dict[str, Scene]:
    """Start of the first Movement Phase, mid-movement, an Attack Phase with enemies in paths, just
    after a broadside, and the end, each as player A sees it."""
    steps = _quickstart_game()
    out: dict[str, Scene] = {}
    for state, events in steps:
        if "start" not in out and state.phase is Phase.MOVEMENT and not state.activated:
            out["start"] = (view_of(state, "A"), _after(events))
        elif "mid_movement" not in out and state.phase is Phase.MOVEMENT and len(state.activated) == 2:
            out["mid_movement"] = (view_of(state, "A"), _after(events))
        elif "attack_targets" not in out and state.phase is Phase.ATTACK and state.turn >= 2 \
                and not state.activated and state.pending is None:
            out["attack_targets"] = (view_of(state, "A"), _after(events))
        elif "after_broadside" not in out and "attack_targets" in out and any(
                isinstance(e, ev.AttackResolved) for e in events):
            out["after_broadside"] = (view_of(state, "A"), _after(events))
    state, events = steps[-1]
    out["end"] = (view_of(state, "A"), _after(events))
    return out


def boarding() -> Scene:
    """Two of A's ships grappled either side of an enemy corvette, a fourth ship close across their
    bows, damage, fatigue and statuses on all of them: labels with several lines, packed tight."""
    ships = [
        S("Otter", "Corvette", 18, 18, 0, "B", {"entangled_with": ["Kestrel", "Amazone"], "damage": 5,
                                                "fatigue": 7}),
        S("Kestrel", "Sloop", 16.8, 18, 0, "A", {"damage": 2, "fatigue": 3, "reload": ["starboard"]}),
        S("Amazone", "Petite Frégate", 19.3, 18.3, 0, "A", {"fatigue": 4, "sail": "minimal"}),
        S("Hoorn", "Fluyt", 18.2, 21.3, 90, "B", {"damage": 3, "reload": ["port", "starboard"]}),
    ]
    t = to_attack(ships)
    return view_of(t.state, "A"), RenderOptions()


def line_of_six() -> Scene:
    """A's six ships in line ahead heading east, each bow close behind the next one's stern, and
    B's line of four parallel to it to the north: every one of A's ships has enemies in its port path."""
    a = [S(f"A{i + 1}", "Sixth Rate" if i % 2 else "Fifth Rate", 5 + i * 3.6, 14, 90, "A") for i in range(6)]
    b = [S(f"B{i + 1}", "Corvette", 8 + i * 4.6, 19.5, 90, "B") for i in range(4)]
    t = to_attack(a + b, weather="E")
    return view_of(t.state, "A"), RenderOptions()


def double_broadside() -> tuple[Scene, list[Any]]:
    """A Light Galleon between two enemies fires both sides at once."""
    t = to_attack([S("Galleon", "Light Galleon", 12, 18, 0, "A"), S("Frigate", "Sixth Rate", 17.5, 18, 0, "B"),
                   S("Brig", "Corvette", 6.5, 18.5, 0, "B")])
    t.submit_line("dice musket musket cannon skull sail pistol sail cannon musket pistol skull")
    events = t.submit_line("fire Galleon starboard Frigate port Brig")
    while t.state.pending is not None:
        events += t.submit_line("keep")
    return (view_of(t.state, "B"), RenderOptions(last_attacks=last_attacks(events))), events


def engagement_attack() -> Scene:
    """The benchmark's 20 ships and 8 terrain pieces in an Attack Phase: some damaged, some done."""
    from benchmarks.engine import engagement

    game = engagement()
    # every other ship of each line sails into a middle row, A's and B's alternating beam to beam
    ships = []
    for i, s in enumerate(game.ships):
        if i % 2:
            s = replace(s, y=17.0, x=s.x + (1.8 if s.owner == "B" else 0.0))
        s = replace(s, damage=i % 4, fatigue=(i * 3) % 6)
        if i in (5, 13):
            s = replace(s, fatigue=7, sail=Sail.FULL)  # Shaken
        if i == 12:
            s = replace(s, damage=7, statuses=frozenset({Status.CRIPPLED}))
        ships.append(s)
    game = replace(game, ships=tuple(ships), phase=Phase.ATTACK, turn=3, active_player="A",
                   activated=frozenset({"A0", "A1", "B2"}))
    return view_of(game, "A"), RenderOptions()


def crowded() -> dict[str, Scene]:
    scenes = {"boarding": boarding(), "line_of_six": line_of_six(), "engagement": engagement_attack(),
              "double_broadside": double_broadside()[0]}
    return scenes | {f"quickstart_{k}": v for k, v in quickstart_moments().items()}
