"""A server's printed tables: the cells a GM entered once for every new game of the server, read from a
table file (game/systems/table_entry.py) and kept a row per cell (ServerTableEntry). A new game starts
with them as its printed entries, marked as the server's and by whom; a game under way keeps the ones
it started with, as it keeps its data (docs/systems/README.md, "Entering a printed table")."""

from __future__ import annotations

from game import names
from game.service.authority import Actor, require_gm
from game.service.models import ServerTableEntry
from game.service.repository import Repository
from game.systems import referee_system
from game.systems.table_entry import read_entry
from game.systems.tables import PrintedEntry

MAX_BY = 100


class ServerTables:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def entries(self, guild_id: str, system_name: str) -> tuple[PrintedEntry, ...]:
        """What a new game of the server starts with: the cells still in the system's tables (a table
        file of the project may have changed since they were entered; a cell it no longer has is left out)."""
        tables = referee_system(system_name).tables()
        out: list[PrintedEntry] = []
        for r in await self.repo.table_entries(guild_id, system_name):
            t = tables.get(r.table_name)
            if t is None or r.row_key not in {k.text for k in t.rows.keys} or \
                    r.column_key not in {k.text for k in t.columns.keys}:
                continue
            out.append(PrintedEntry(r.table_name, r.row_key, r.column_key, r.value, r.entered_by_name or r.entered_by,
                                    r.override))
        return tuple(out)

    async def enter(self, actor: Actor, system_name: str, text: str, display_name: str = "") -> str:
        """A GM enters a whole table for the server: checked first, then it replaces the table's cells."""
        require_gm(actor, "enter a printed table for the whole server")
        by = (display_name or actor.user_id)[:MAX_BY]
        table, entries = read_entry(referee_system(system_name).tables(), text, by)
        rows = [ServerTableEntry(guild_id=actor.guild_id, system=system_name, table_name=e.table, row_key=e.row,
                                 column_key=e.column, value=e.value, override=e.override, entered_by=actor.user_id,
                                 entered_by_name=by) for e in entries]
        await self.repo.replace_table_entries(actor.guild_id, system_name, table.name, rows)
        overrides = sum(e.override for e in entries)
        extra = f", {overrides} in place of the play aid's text" if overrides else ""
        return (f"Entered for this server: the {table.title}, {len(entries)} cell(s){extra}. New games of this "
                "server answer with them (a game's own entries first); games under way keep theirs.")

    async def summary(self, guild_id: str, system_name: str) -> str:
        """What the server has entered, table by table, and who entered it."""
        sysm = referee_system(system_name)
        entries = await self.entries(guild_id, system_name)
        if not entries:
            return (f"This server has entered no printed table for {sysm.title}. A GM enters one with "
                    "`/ref table-entry` and a table file (docs/systems/README.md).")
        lines = [f"Printed tables this server entered for {sysm.title}:"]
        tables = sysm.tables()
        for name in dict.fromkeys(e.table for e in entries):
            mine = [e for e in entries if e.table == name]
            who = ", ".join(names.text(by) for by in dict.fromkeys(e.by for e in mine))
            overrides = sum(e.override for e in mine)
            extra = f", {overrides} in place of the play aid's text" if overrides else ""
            lines.append(f"• {tables[name].title} (`{name}`): {len(mine)} cell(s){extra}, by {who}")
        return "\n".join(lines)
