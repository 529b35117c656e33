"""What a caller may ask the board to draw, beyond what the view itself holds."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.rules_data import RulesData


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    heading: float


@dataclass(frozen=True)
class AttackLine:
    ship: str
    target: str
    hits: int
    label: str = ""
    side: str = ""  # port | starboard for a Broadside (each side of a double broadside has its own line)


@dataclass(frozen=True)
class Preview:
    """A proposed move: where it goes, where it would stop, and what it would then bear on."""

    ship: str
    path: tuple[Pose, ...]
    collision: tuple[float, float] | None = None
    in_arc: tuple[tuple[str, str, str], ...] = ()  # (side, enemy, band)
    note: str = ""


@dataclass(frozen=True)
class RenderOptions:
    width_px: int = 1080
    zoom_ship: str | None = None  # crop around this ship
    zoom_box: tuple[float, float, float, float] | None = None  # or around this area (x0, y0, x1, y1)
    zoom_radius: float = 8.0
    whole_table: bool = False  # else the area of play: every ship and the terrain near them
    last_move: tuple[str, tuple[Pose, ...]] | None = None  # (ship, path)
    last_attacks: tuple[AttackLine, ...] = ()
    active_ship: str | None = None  # draws its range bands and broadside paths
    guide: bool = True  # the paths of the ships to act now and the enemies in them (render.guide)
    preview: Preview | None = None
    zones: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()  # set-up: (player, deployment zone)
    title: str = ""
    compress_level: int = 1
    palette: int = 256  # colours of the PNG (0: full colour)
    rules: RulesData | None = field(default=None, compare=False)  # the game's range bands; default: the system's
