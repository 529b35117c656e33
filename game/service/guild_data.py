"""A server's own game data and settings: the data files its new games use (GM imports, checked
before they are kept), and the GM role."""

from __future__ import annotations

import hashlib
import json

from game.data_trial import trial_game
from game.errors import UnknownName
from game.rules_data import DATA_FILES, RulesData, default_texts, rules_from_texts
from game.service.authority import Actor, require_gm
from game.service.models import DataVersion, GuildSettings
from game.service.store import GameStore

OAK_AND_IRON = "oak_and_iron"


def version_id(system: str, overrides: dict[str, str]) -> str:
    blob = json.dumps({"system": system, "files": overrides}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


class GuildData:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def settings(self, guild_id: str) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    async def save_settings(self, settings: GuildSettings) -> None:
        await self.store.save_guild_settings(settings)

    async def set_gm_role(self, actor: Actor, role_id: str) -> None:
        """Name the role whose members act as GMs here. Only a GM (Manage Server, or the current GM role)
        may, whatever permissions the server gives the command itself."""
        require_gm(actor, "choose the GM role")
        settings = await self.store.guild_settings(actor.guild_id)
        settings.gm_role_id = role_id
        await self.store.save_guild_settings(settings)

    async def export_data(self, guild_id: str, system: str = OAK_AND_IRON) -> dict[str, str]:
        """The data files a new game of this guild would use: the built-in ones with the guild's
        imports in their place."""
        files = default_texts(system)
        files.update(await self.overrides(guild_id))
        return files

    async def import_data(self, actor: Actor, file_name: str, text: str, system: str = OAK_AND_IRON) -> str:
        """Replace one data file for this guild's new games (GM only). The whole set is validated
        first; a malformed file is refused naming the file, the entry and the field. Running games
        keep the data they started with."""
        require_gm(actor, "import game data")
        if file_name not in DATA_FILES:
            raise UnknownName(f"{file_name!r} is not a data file.", f"Data files: {', '.join(DATA_FILES)}.")
        overrides = await self.overrides(actor.guild_id)
        overrides[file_name] = text
        # a DataError names the fault: in a file, or in a trial game
        await self.store.workers.run(trial_game, rules_from_texts(system, {**default_texts(system), **overrides}),
                                     file_name, thread=True)
        settings = await self.store.guild_settings(actor.guild_id)
        settings.data_overrides = json.dumps(overrides)
        await self.store.save_guild_settings(settings)
        return version_id(system, overrides)

    async def reset_data(self, actor: Actor) -> None:
        require_gm(actor, "reset the game data")
        settings = await self.store.guild_settings(actor.guild_id)
        settings.data_overrides = "{}"
        await self.store.save_guild_settings(settings)

    async def overrides(self, guild_id: str) -> dict[str, str]:
        settings = await self.store.guild_settings(guild_id)
        data: dict[str, str] = json.loads(settings.data_overrides or "{}")
        return data

    async def rules(self, guild_id: str) -> RulesData:
        """The data a new game (or squadron) of this guild is built with."""
        return (await self.current(guild_id))[1]

    async def current(self, guild_id: str) -> tuple[str, RulesData]:
        """The data version a new game of this guild starts with, and its rules (parsed once)."""
        overrides = await self.overrides(guild_id)
        if not overrides:
            return "builtin", self.store.rules
        version = version_id(OAK_AND_IRON, overrides)
        return version, self.store.parsed_rules(version, OAK_AND_IRON, lambda: {**default_texts(), **overrides})

    async def keep_version(self, guild_id: str, version: str) -> None:
        """Store the data a new game starts with, so that it keeps it whatever the guild imports later."""
        if version != "builtin":
            overrides = await self.overrides(guild_id)
            await self.store.repo.save_data_version(DataVersion(id=version, system=OAK_AND_IRON,
                                                                files=json.dumps(overrides)))
