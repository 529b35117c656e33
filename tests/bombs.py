"""The upload bombs of issue 11 and their kin: small files that once made the bot allocate without
bound, recurse, spin or crash later. Each is written as a change to a real file and names the entry
and field its refusal must name (benchmarks/bounds.py times the refusals)."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules_data import default_texts
from game.scenario import builtin_scenarios

NESTED = "[" * 1000 + "]" * 1000


@dataclass(frozen=True)
class Bomb:
    name: str
    kind: str  # scenario | data | squadron
    file: str  # the file changed (data: which data file)
    old: str
    new: str
    entry: str
    field: str

    def text(self) -> str:
        base = {"scenario": lambda: builtin_scenarios()["quickstart"], "squadron": lambda: SQUADRON,
                "data": lambda: default_texts()[self.file]}[self.kind]()
        assert self.old in base, (self.name, self.old)
        return base.replace(self.old, self.new, 1)


SQUADRON = """name = "Zeeland Admiralty"
size = "skirmish"
faction = "Dutch"
admiral = "Cornelis Evertsen the Youngest"
flagship = "Zeelandia"
hand = ["Down!", "Careful Aim", "Expert Boarding", "Effective Fire", "Adjust Position", "Favorable Wind", "Take Courage"]

[[ship]]
name = "Zeelandia"
class = "Fifth Rate"
skill = 1
"""

SCENARIO_BOMBS = [
    Bomb("width 1e308", "scenario", "quickstart.toml", "width = 36", "width = 1e308", "table", "width"),
    Bomb("width 100000", "scenario", "quickstart.toml", "width = 36", "width = 100000", "table", "width"),
    Bomb("width nan", "scenario", "quickstart.toml", "width = 36", "width = nan", "table", "width"),
    Bomb("height inf", "scenario", "quickstart.toml", "height = 36", "height = inf", "table", "height"),
    Bomb("heading nan", "scenario", "quickstart.toml", "heading = 180", "heading = nan", "Kestrel", "heading"),
    Bomb("heading -inf", "scenario", "quickstart.toml", "heading = 180", "heading = -inf", "Kestrel", "heading"),
    Bomb("x nan", "scenario", "quickstart.toml", "x = 11.05", "x = nan", "Kestrel", "x"),
    Bomb("hand = []", "scenario", "quickstart.toml", 'hand = ["Down!", "Careful Aim", "Rolling Broadsides", '
         '"Effective Fire", "Adjust Position"]', "hand = []", "squadron A", "hand"),
    Bomb("1000 nested arrays", "scenario", "quickstart.toml", 'edition = "quickstart"', f"edition = {NESTED}",
         "(file)", "(nesting)"),
    Bomb("1000 dotted keys", "scenario", "quickstart.toml", 'edition = "quickstart"',
         "edition" + ".x" * 1000 + " = 1", "(file)", "(nesting)"),
    Bomb("a 5000-digit seed", "scenario", "quickstart.toml", "seed = 1", "seed = " + "9" * 5000, "(file)", "(syntax)"),
    Bomb("seed beyond 32 bits", "scenario", "quickstart.toml", "seed = 1", "seed = 0x7fffffffffff", "(scenario)",
         "seed"),
    Bomb("a 300 KB comment", "scenario", "quickstart.toml", "seed = 1", "seed = 1\n#" + "x" * 300_000, "(file)",
         "(size)"),
    Bomb("a 10,000-corner terrain piece", "scenario", "quickstart.toml", 'weather_edge = "N"',
         'weather_edge = "N"\n[[table.terrain]]\nkind = "rock"\npoints = ['
         + ", ".join("[1, 1]" for _ in range(10_000)) + "]", "terrain #1", "points"),
    Bomb("a control character in a name", "scenario", "quickstart.toml", 'name = "Kestrel"', 'name = "Kes\\u0000trel"',
         "squadron A ship #1", "name"),
    Bomb("a right-to-left override in a name", "scenario", "quickstart.toml", 'name = "Kestrel"',
         'name = "Kes\\u202etrel"', "squadron A ship #1", "name"),
    Bomb("a 1,000-character name", "scenario", "quickstart.toml", 'name = "Kestrel"', f'name = "{"K" * 1000}"',
         "squadron A ship #1", "name"),
]

DATA_BOMBS = [
    Bomb("sword = 0x7fffffff", "data", "dice.toml", "sword = 2", "sword = 0x7fffffff", "faces", "sword"),
    Bomb("a 64-face die of 12 each", "data", "dice.toml", "sword = 2",
         "sword = 2\n" + "".join(f"extra{i} = 12\n" for i in range(6)), "faces", "faces"),
    Bomb("collision_damage deleted", "data", "dice.toml", 'collision_damage = ["skull"]\n', "", "success",
         "collision_damage"),
    Bomb("max = -nan", "data", "ranges.toml", "max = 4.0", "max = -nan", "pistol", "max"),
    Bomb("a band the engine measures deleted", "data", "ranges.toml", 'name = "yard_arm"', 'name = "spitting"',
         "yard_arm", "name"),
    Bomb("fortitude nan", "data", "ships.toml", "fortitude = 1", "fortitude = nan", "Sloop", "fortitude"),
    Bomb("terrain width inf", "data", "terrain.toml", "width = 6.0", "width = inf", "island", "width"),
    Bomb("tool length 1e308", "data", "tools.toml", "length = 0.86", "length = 1e308", "1", "length"),
    Bomb("an effect of an unknown kind", "data", "initiative_cards.toml", 'kind = "fatigue_taken"',
         'kind = "kraken"', "Down!", "effects"),
    Bomb("an effect adding 1e9", "data", "initiative_cards.toml", "add = -1", "add = 1000000000", "Down!",
         "effects"),
    Bomb("a 5,000-character field in an effect", "data", "initiative_cards.toml", 'scope = "own_ships"',
         f'scope = "own_ships", {"x" * 5000} = 1', "Down!", "effects"),
    Bomb("an effect naming an unknown band", "data", "initiative_cards.toml", 'range = "pistol"',
         'range = "horizon"', "Boat Assault", "effects"),
    Bomb("a deployment 1e308 deep", "data", "scenario_cards.toml", "zone = { depth = 6 }",
         "zone = { depth = 1e308 }", "Line of Battle", "zone"),
    Bomb("a setting adding a billion pieces", "data", "scenario_cards.toml", "count = 1,", "count = 1000000000,",
         "Open Sea", "terrain"),
    *[Bomb(f"1000 nested arrays in {f}", "data", f, "\n[[", f"\nbomb = {NESTED}\n[[", "(file)", "(nesting)")
      for f in ("ranges.toml", "tools.toml", "bases.toml", "ships.toml", "upgrades.toml", "initiative_cards.toml",
                "nation_cards.toml", "admirals.toml", "captains.toml", "upgrade_cards.toml", "factions.toml",
                "scenario_cards.toml", "terrain.toml", "keywords.toml")],
    Bomb("1000 nested arrays in dice.toml", "data", "dice.toml", "[faces]", f"bomb = {NESTED}\n[faces]", "(file)",
         "(nesting)"),
]

SQUADRON_BOMBS = [
    Bomb("1000 nested arrays", "squadron", "squadron list", 'size = "skirmish"', f"size = {NESTED}", "(file)",
         "(nesting)"),
    Bomb("skill nan", "squadron", "squadron list", "skill = 1", "skill = nan", "Zeelandia", "skill"),
    Bomb("a thousand ships", "squadron", "squadron list", "[[ship]]",
         "".join(f'[[ship]]\nname = "S{i}"\nclass = "Sloop"\n' for i in range(1000)) + "[[ship]]", "(squadron)",
         "ship"),
]
