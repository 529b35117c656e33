"""A ship's sheet: one ship of a referee-assistant game as its log pad, ship card or mat shows it,
in labelled rows grouped under headings (docs/systems/README.md, "Ship sheets").

Each system builds its sheet from a *viewed* ship (game/systems/<key>/sheet.py), so a value the
viewer may not see never reaches a sheet: the chat answer (`text`), the image (render/ship_sheet.py)
and the image's alt text (`alt`) all read the same rows and say the same facts. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game import names
from game.errors import UnknownName

HIDDEN = "?"  # a value the viewer may not read, in every form of the sheet (as the view gives it)
SECRET = f"{HIDDEN} (secret)"
ALT_LIMIT = 1024  # Discord keeps at most this many characters of an attachment's description


@dataclass(frozen=True)
class Track:
    """Boxes on the pad: `total` of them, `lost` crossed off; or a labelled track (`steps`) with the
    marker on `at`, such as Captain's Sea's Crew Status."""

    total: int
    lost: int = 0
    steps: tuple[str, ...] = ()
    at: int = -1

    @property
    def left(self) -> int:
        return max(0, self.total - self.lost)


@dataclass(frozen=True)
class Row:
    label: str
    value: str  # the words every form says, e.g. "26 of 30 left"
    track: Track | None = None
    hidden: bool = False  # the viewer may not see it: the value is HIDDEN
    alert: bool = False  # a state a player must not miss (on fire, struck, sinking)


@dataclass(frozen=True)
class Section:
    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Sheet:
    ship: str
    owner: str
    system: str  # the system's title
    summary: str  # one line of what the ship is (class, quality, guns; the card's dice)
    sections: tuple[Section, ...]

    def rows(self) -> dict[str, str]:
        """Every row's value by its label (labels are unique within a sheet)."""
        return {r.label: r.value for s in self.sections for r in s.rows}

    def row(self, label: str) -> Row:
        return next(r for s in self.sections for r in s.rows if r.label == label)

    def text(self) -> str:
        """The chat answer: names escaped (game/names.py), one line per row under each heading."""
        lines = [f"**{names.text(self.ship)}** ({names.text(self.owner)}): {names.text(self.summary)}"]
        for s in self.sections:
            lines.append(f"__{s.title}__")
            # escaped as one line: a value alone may start with "-" or "#", which mean something at a line's start
            lines.extend(f"{'⚠️ ' if r.alert else ''}{names.text(f'{r.label}: {r.value}')}" for r in s.rows)
        return "\n".join(lines)

    def alt(self) -> str:
        """The image's alt text: the same facts in words, names raw (an attachment's description is
        not markdown), cut to what Discord keeps."""
        parts = [f"Ship sheet of {self.ship} ({self.owner}), {self.system}. {self.summary}."]
        for s in self.sections:
            parts.append(f"{s.title}. " + "; ".join(f"{r.label}: {r.value}" for r in s.rows) + ".")
        said = " ".join(parts)
        return said if len(said) <= ALT_LIMIT else said[: ALT_LIMIT - 1] + "…"


def section(title: str, rows: Sequence[Row | None]) -> Section:
    """A section of the rows present (a builder leaves out a flag that is not set with None)."""
    return Section(title, tuple(r for r in rows if r is not None))


def boxes(label: str, total: int, lost: int) -> Row:
    """A track of boxes, said as what is left; every box gone is a state not to miss (a crew section
    wiped out, a mast down, the hull gone)."""
    lost = min(max(lost, 0), total)
    return Row(label, f"{total - lost} of {total} left", Track(total, lost), alert=total > 0 and lost == total)


def listed(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "none"


def find_ship(ships: Sequence[object], name: str) -> object:
    """A ship of a view by its name, any case, or the one it is the unique start of."""
    ids = [str(getattr(s, "id", "")) for s in ships]
    wanted = name.strip().lower()
    exact = [s for s, i in zip(ships, ids, strict=True) if i.lower() == wanted]
    starts = [s for s, i in zip(ships, ids, strict=True) if wanted and i.lower().startswith(wanted)]
    found = exact or (starts if len(starts) == 1 else [])
    if not found:
        raise UnknownName(f"There is no ship called {name[:40]!r}.", f"Ships: {', '.join(ids)}.")
    return found[0]
