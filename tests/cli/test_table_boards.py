"""Issue 25, item 3: the table's board after an activation draws all of it. A double broadside whose
rolls are answered over several commands (`fire …`, then `keep`) used to draw only the last
command's attack; and a board is named by the turn its activation happened in."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

import render.files
from cli.table import run_table
from render.files import activation_turn
from render.overlays import last_attacks

ROOT = Path(__file__).resolve().parents[2]


def _scenario(tmp_path: Path) -> Path:
    """The rulebook's broadside (examples/rulebook_broadside.toml) with the Cutter brought up on the
    Galleon's port beam, so both broadsides bear (as tests/render/scenes.py's double broadside)."""
    text = (ROOT / "examples" / "rulebook_broadside.toml").read_text(encoding="utf-8")
    text = text.replace('x = 10\ny = 18', 'x = 12\ny = 18')
    text = re.sub(r'(name = "Cutter"\nclass = "Corvette"\n)x = 32\ny = 30', r'\1x = 6.5\ny = 18.5', text)
    path = tmp_path / "double.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_double_broadside_answered_over_several_commands_is_drawn_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[str, list[Any]]] = []
    write = render.files.write_activation

    def watched(folder: Path, index: int, view: Any, events: Any) -> Path:  # the real drawing, watched
        path = write(folder, index, view, events)
        drawn.append((path.name, list(events)))
        return path

    monkeypatch.setattr(render.files, "write_activation", watched)
    lines = ["pick A Adjust Position", "pick B Take Courage", "pick A Down!", "pick B Reload!",
             "move Galleon hold", "move Frigate hold", "move Tender hold", "move Cutter hold",
             "dice musket musket cannon skull sail pistol sail cannon musket pistol skull",
             "fire Galleon starboard Frigate port Cutter", "keep", "keep", "quit"]
    out = io.StringIO()
    run_table(str(_scenario(tmp_path)), 1, iter(lines), out, False, db=f"sqlite+aiosqlite:///{tmp_path / 't.db'}",
              out_dir=tmp_path / "out")
    name, events = drawn[-1]
    assert name.startswith(f"{len(drawn):04d}-turn01-attack-Galleon"), [n for n, _ in drawn]
    assert sorted(a.target for a in last_attacks(events)) == ["Cutter", "Frigate"], out.getvalue()
    assert (tmp_path / "out" / "table-game1" / name).exists()


def test_a_board_is_named_by_the_turn_its_activation_happened_in() -> None:
    from game import events as ev
    from game.model import Phase

    last_of_turn_two = [ev.ActivationEnded("Kestrel", Phase.ATTACK), ev.PhaseBegan(Phase.END, 2),
                        ev.PhaseBegan(Phase.INITIATIVE, 3)]
    assert activation_turn(last_of_turn_two, now=3) == 2
    assert activation_turn([ev.ActivationEnded("Kestrel", Phase.MOVEMENT)], now=2) == 2
    assert activation_turn([], now=4) == 4
