"""Builders for test games: small scenario files written in the real scenario format."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from game.model import Game
from game.scenario import load_scenario_text
from game.table_session import TableSession


@dataclass
class S:
    """A ship line for a test scenario."""

    name: str
    cls: str
    x: float
    y: float
    heading: float
    player: str = "A"
    extra: dict[str, object] = field(default_factory=dict)


def _val(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    return str(v)


def scenario_text(
    ships: Sequence[S],
    terrain: Sequence[tuple[str, Sequence[tuple[float, float]]]] = (),
    weather: str = "N",
    width: float = 36,
    height: float = 36,
    hands: dict[str, list[str]] | None = None,
    test_dice: bool = True,
    fortune: int = 3,
    flagships: dict[str, str] | None = None,
) -> str:
    hands = hands or {
        "A": ["Down!", "Careful Aim", "Rolling Broadsides", "Effective Fire", "Adjust Position"],
        "B": ["Fire as She Bears", "Take Courage", "Fleet Maneuver", "Reload!", "Favorable Wind"],
    }
    out = [f"name = \"test\"\nseed = 7\ntest_dice = {_val(test_dice)}\n",
           f"[table]\nwidth = {width}\nheight = {height}\nweather_edge = \"{weather}\"\n"]
    for i, (kind, pts) in enumerate(terrain):
        out.append(f"[[table.terrain]]\nid = \"{kind}{i + 1}\"\nkind = \"{kind}\"\npoints = "
                   + "[" + ", ".join(f"[{x}, {y}]" for x, y in pts) + "]\n")
    for player in ("A", "B"):
        mine = [s for s in ships if s.player == player]
        flag = (flagships or {}).get(player, mine[0].name if mine else "")
        out.append(f"[[squadron]]\nplayer = \"{player}\"\nfortune = {fortune}\nflagship = \"{flag}\"\n"
                   f"hand = {_val(hands[player])}\n")
        for s in mine:
            lines = [f"name = \"{s.name}\"", f"class = \"{s.cls}\"", f"x = {s.x}", f"y = {s.y}", f"heading = {s.heading}"]
            lines += [f"{k} = {_val(v)}" for k, v in s.extra.items()]
            out.append("[[squadron.ship]]\n" + "\n".join(lines) + "\n")
    return "\n".join(out)


def make_game(ships: Sequence[S], **kw: object) -> Game:
    return load_scenario_text(scenario_text(ships, **kw))  # type: ignore[arg-type]


def session(ships: Sequence[S], **kw: object) -> TableSession:
    return TableSession(make_game(ships, **kw))


def to_movement(t: TableSession, a_card: str = "Down!", b_card: str = "Take Courage",
                a_next: str = "Careful Aim", b_next: str = "Reload!") -> None:
    """Play the picks so turn 1's Movement Phase begins (B wins the initiative by default)."""
    for line in (f"pick A {a_card}", f"pick B {b_card}", f"pick A {a_next}", f"pick B {b_next}"):
        t.submit_line(line)


def default_orders(t: TableSession, phases: tuple[str, ...] = ("movement",)) -> None:
    """Give every ship its plain order (move ahead or hold; pass) until play leaves these phases or
    waits for a decision."""
    while t.state.phase.value in phases and not t.state.choices and t.state.offer is None:
        verb = "move" if t.state.phase.value == "movement" else "pass"
        active = t.state.active_player or ""
        squadrons = t.state.players_of(active) if active not in t.state.players else (active,)
        ship = next(s for p in squadrons for s in t.state.ships_of(p) if s.id not in t.state.activated and s.can_act)
        hold = verb == "move" and idle(t, ship.id)
        t.submit_line(f'{verb} "{ship.id}"{" hold" if hold else ""}')


def win_challenge(t: TableSession, winner: str) -> None:
    """Equal cards go to a Challenge Test of the Flagships: fix its dice so `winner` takes it."""
    from game.phases.common import skill_dice

    faces = []
    for p in t.state.players:
        flag = t.state.flagship_of(p)
        faces += ["sail" if p == winner else "skull"] * (skill_dice(flag) if flag else 5)
    t.submit_line("dice " + " ".join(faces))


def idle(t: TableSession, ship_id: str) -> bool:
    """The ship cannot move this activation (In the Wind's Eye, Entangled, Anchored, Aground): its
    plain order is `hold`, since a bare move that would not move it is refused."""
    from game.options import options_for
    from game.views import view_of

    player = t.state.ship(ship_id).controller
    found = [o for o in options_for(view_of(t.state, player), t.rules, ship_id).items if o.ship == ship_id]
    return bool(found) and found[0].order != f"move {ship_id}" and found[0].order != f'move "{ship_id}"'


def plain(t: TableSession, line: str) -> str:
    """A bare `move SHIP` as a player would give it now: with `hold` when the ship cannot move."""
    words = line.split()
    if len(words) == 2 and words[0] == "move" and idle(t, words[1].strip('"')):
        return f"{line} hold"
    return line
