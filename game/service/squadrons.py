"""Members' saved squadron lists: checked against every building rule, kept for reuse in drafted
games, and built step by step with the /squadron commands."""

from __future__ import annotations

from collections.abc import Callable

from game.errors import UnknownName
from game.rules_data import RulesData
from game.schema.common import MAX_NAME
from game.service.authority import Actor
from game.service.cache import Bounded
from game.service.errors import SquadronRefused
from game.service.guild_data import GuildData
from game.service.models import SavedSquadron
from game.service.results import SquadronInfo
from game.service.store import GameStore
from game.squadron import SIZES, SquadronError, SquadronList, parse_squadron, squadron_points, validate
from game.squadron_builder import new_list, summary, to_toml


class Squadrons:
    def __init__(self, store: GameStore, data: GuildData) -> None:
        self.store = store
        self.data = data
        # what autocomplete asks on every keystroke, kept until this process changes it (a process that
        # shares the database with others reads it again)
        self._rows: Bounded = Bounded(1_000)  # (guild, owner) -> their saved squadrons

    async def save(self, actor: Actor, text: str) -> SquadronInfo:
        """Check a squadron list against every building rule and keep it for reuse (replacing a list
        of the same name). A list that breaks a rule is refused with each problem named."""
        rules = await self.data.rules(actor.guild_id)
        try:
            sq = parse_squadron(text)
        except SquadronError as exc:
            raise SquadronRefused(f"The squadron list cannot be read: {exc}.", "Fix the fields named.") from None
        problems = validate(sq, rules)
        if problems:
            raise SquadronRefused("The squadron breaks the building rules: " + "; ".join(map(str, problems)) + ".",
                                  "Fix each entry and field named, then save it again.")
        points = squadron_points(sq, rules)
        self._rows.pop((actor.guild_id, actor.user_id), None)
        await self.store.repo.save_squadron(SavedSquadron(guild_id=actor.guild_id, owner_id=actor.user_id, name=sq.name,
                                                          size=sq.size, faction=sq.faction, points=points, text=text))
        return SquadronInfo(sq.name, sq.size, sq.faction, points, len(sq.ships))

    async def saved(self, actor: Actor) -> list[SquadronInfo]:
        rows = await self.rows_of(actor)
        return [SquadronInfo(r.name, r.size, r.faction, r.points, r.text.count("[[ship]]"), r.complete) for r in rows]

    async def start(self, actor: Actor, name: str, size: str, faction: str, admiral: str) -> str:
        """Begin building a list with the /squadron commands (replacing a list of that name)."""
        rules = await self.data.rules(actor.guild_id)
        if size not in SIZES:
            raise SquadronRefused(f"There is no game size {size!r}.", f"Sizes: {', '.join(SIZES)}.")
        if faction not in rules.factions:
            raise SquadronRefused(f"There is no faction {faction!r}.", f"Factions: {', '.join(rules.factions)}.")
        found = rules.admirals.get(admiral)
        if found is None or found.nation not in ("", faction):
            fits = [a.name for a in rules.admirals.values() if a.nation in ("", faction)]
            raise SquadronRefused(f"{admiral!r} is not an admiral a {faction} squadron may take.",
                                  f"Admirals: {', '.join(fits)}.")
        if not name.strip() or len(name.strip()) > MAX_NAME:
            raise SquadronRefused(f"A squadron needs a name of 1 to {MAX_NAME} characters.")
        return await self._keep(actor, new_list(name.strip(), size, faction, admiral), rules)

    async def edit(self, actor: Actor, name: str, change: Callable[[SquadronList], SquadronList]) -> str:
        """Apply one builder step to a saved list; answers with the list's summary and what is still wrong."""
        text = await self.text(actor, name)
        try:
            sq = parse_squadron(text, partial=True)
        except SquadronError as exc:
            raise SquadronRefused(f"The saved list cannot be read: {exc}.") from None
        return await self._keep(actor, change(sq), await self.data.rules(actor.guild_id))

    async def _keep(self, actor: Actor, sq: SquadronList, rules: RulesData) -> str:
        try:  # what is kept must read back: a name too long for the file format would lock the list
            parse_squadron(to_toml(sq), partial=True)
        except SquadronError as exc:
            raise SquadronRefused(f"That cannot go into a squadron list: {exc}.",
                                  f"Names are 1 to {MAX_NAME} characters.") from None
        row = SavedSquadron(guild_id=actor.guild_id, owner_id=actor.user_id, name=sq.name, size=sq.size,
                            faction=sq.faction, points=squadron_points(sq, rules), text=to_toml(sq),
                            complete=not validate(sq, rules))
        self._rows.pop((actor.guild_id, actor.user_id), None)
        await self.store.repo.save_squadron(row)
        return summary(sq, rules)

    async def text(self, actor: Actor, name: str) -> str:
        for row in await self.rows_of(actor):
            if row.name.casefold() == name.casefold():
                return row.text
        raise UnknownName(f"You have no saved squadron called {name!r}.", "List yours with /squadron list.")

    async def rows_of(self, actor: Actor) -> list[SavedSquadron]:
        key = (actor.guild_id, actor.user_id)
        rows: list[SavedSquadron] | None = None if self.store.shared else self._rows.get(key)
        if rows is None:
            rows = self._rows[key] = await self.store.repo.squadrons_of(*key)
        return rows
