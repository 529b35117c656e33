"""game/ stays pure; the data loader and scenario loader name what is wrong."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from game.rules_data import DataError, default_texts, load_rules, rules_from_texts
from game.scenario import ScenarioError, load_scenario_text
from tests.helpers import S, scenario_text

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("discord", "sqlalchemy", "sqlmodel", "aiosqlite", "asyncpg", "alembic", "asyncio")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_game_core_imports_no_discord_database_or_asyncio() -> None:
    offenders = {}
    for path in (ROOT / "game").rglob("*.py"):
        if "service" in path.relative_to(ROOT / "game").parts:
            continue
        bad = _imports(path) & set(FORBIDDEN)
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_importing_the_engine_loads_none_of_them() -> None:
    code = (
        "import sys, game.engine, game.scenario, game.table_session, game.ai.legal, game.report\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == ""


# ---------------------------------------------------------------- data files


def test_data_has_exactly_the_rulebook_figures() -> None:
    r = load_rules()
    assert sorted(r.die.sides) == sorted(["skull", "cannon", "musket", "pistol", "sail", "sail", "sword", "sword"])
    assert [(b.name, b.max) for b in r.ranges] == [("yard_arm", 1), ("pistol", 4), ("musket", 8), ("cannon", 12)]
    assert {n: (b.beam, b.length) for n, b in r.bases.items()} == {
        "small": (1.2, 2.4), "medium": (1.4, 3.1), "large": (1.6, 3.9)}
    fluyt = r.ships["Fluyt"]
    assert (fluyt.points, fluyt.base, fluyt.fortitude, fluyt.broadside, fluyt.crew, fluyt.windward, fluyt.large) == (
        13, "medium", 2, 3, 2, 2, 3)
    assert "fortitude" in fluyt.provisional
    assert len(r.ships) == 12 and len(r.cards) == 16 + 24  # generic, then nation and keyword cards
    assert r.cards["Resilient"].nation == "Spanish" and r.cards["Bravado"].discard
    assert len(r.admirals) == 18 + 16 and r.admirals["Michiel de Ruyter"].points == 15
    assert r.admirals["Seasoned Inspiring"].value == 2 and r.admirals["Seasoned Inspiring"].points == 8
    assert r.upgrade_cards["Fire Ship"].restrictions == ("not_ship_of_the_line", "only_upgrade")
    assert r.captains["Captain Stede Bonnet"].nation == "Pirate"
    assert r.factions["Spanish"].stout_discount and not r.factions["Dutch"].stout_discount
    assert r.cards["Fire as She Bears"].discard and not r.cards["Down!"].discard
    assert r.die.success["hit_musket"] == {"musket", "cannon", "skull"}
    assert {"dice.toml", "ranges.toml", "tools.toml", "bases.toml"} <= set(r.provisional_files)


def _broken(file: str, old: str, new: str) -> dict[str, str]:
    texts = default_texts()
    assert old in texts[file]
    texts[file] = texts[file].replace(old, new, 1)
    return texts


@pytest.mark.parametrize(
    ("file", "old", "new", "entry", "field"),
    [
        ("ships.toml", 'base = "small"', 'base = "tiny"', "Sloop", "base"),
        ("ships.toml", "fortitude = 1", 'fortitude = "one"', "Sloop", "fortitude"),
        ("ships.toml", "crew = 1\n", "", "Sloop", "crew"),
        ("tools.toml", "max_turn = 30", "max_turn = 120", "1", "max_turn"),
        ("ranges.toml", "max = 4.0", "max = 0.5", "pistol", "max"),
        ("bases.toml", "length = 2.4", "length = 1.0", "small", "length"),
        ("dice.toml", 'hit_cannon = ["cannon", "skull"]', 'hit_cannon = ["cannon", "kraken"]', "success", "hit_cannon"),
        ("initiative_cards.toml", "value = 5", "value = -5", "Favorable Wind", "value"),
        ("initiative_cards.toml", "discard = true", 'discard = "yes"', "Fire as She Bears", "discard"),
        ("dice.toml", "[faces]", "[faces", "(file)", "(syntax)"),
        # files must agree with each other, and hold only what the engine reads
        ("ships.toml", '"Sweeps" = 1', '"Oars" = 1', "Sloop", "upgrades"),
        ("admirals.toml", 'keywords = ["Bold"]', 'keywords = ["Reckless"]', "Untested Bold", "keywords"),
        ("captains.toml", 'nation = "Pirate"', 'nation = "Venetian"', "Captain Stede Bonnet", "nation"),
        ("initiative_cards.toml", 'faces = ["cannon", "musket", "pistol"]', 'faces = ["cannon", "anchor"]',
         "Careful Aim", "effects"),
        ("scenario_cards.toml", 'spacing = "pistol"', 'spacing = "spyglass"', "Scattered", "zone"),
        ("ships.toml", 'name = "Corvette"', 'name = "Sloop"', "Sloop", "name"),
        ("tools.toml", "speed = 2", "speed = 7", "(file)", "speed"),
        ("scenario_cards.toml", 'duration = "turn"', 'duration = "forever"', "Wind Increases", "duration"),
        ("upgrades.toml", "crew = 1", "crew = 1\nsails = 2", "Additional Crew", "sails"),
        ("initiative_cards.toml", 'scope = "own_ships"', 'scope = "own_ships", colour = "red"', "Down!", "effects"),
    ],
)
def test_malformed_data_names_file_entry_and_field(file: str, old: str, new: str, entry: str, field: str) -> None:
    with pytest.raises(DataError) as err:
        rules_from_texts("oak_and_iron", _broken(file, old, new))
    assert (err.value.file, err.value.entry, err.value.field) == (file, entry, field)
    assert file in str(err.value) and field in str(err.value)


def test_override_directory_replaces_a_file(tmp_path: Path) -> None:
    (tmp_path / "ranges.toml").write_text(default_texts()["ranges.toml"].replace("max = 12.0", "max = 14.0"))
    assert load_rules(override_dir=tmp_path).range_of("cannon") == 14.0
    assert load_rules().range_of("cannon") == 12.0


# ---------------------------------------------------------------- scenario files


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        ('class = "Sloop"', 'class = "Galleon of Doom"', "Kestrel", "class"),
        ('weather_edge = "N"', 'weather_edge = "Q"', "table", "weather_edge"),
        ("x = 8", "x = 0.2", "Kestrel", "x"),
        ("heading = 180", 'heading = "south"', "Kestrel", "heading"),
        ('flagship = "Kestrel"', 'flagship = "Nobody"', "squadron A", "flagship"),
    ],
)
def test_malformed_scenario_names_entry_and_field(old: str, new: str, entry: str, field: str) -> None:
    text = scenario_text([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 28, 20, 180, "B")])
    assert old in text
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(text.replace(old, new, 1), "bad.toml")
    assert (err.value.entry, err.value.field) == (entry, field)


def test_overlapping_ships_are_refused() -> None:
    text = scenario_text([S("Kestrel", "Sloop", 8, 20, 180, "A"), S("Otter", "Corvette", 8.5, 20, 180, "B")])
    with pytest.raises(ScenarioError, match="overlaps"):
        load_scenario_text(text)
