"""Durability and fair dice: rebuilding games at start-up, auditing a log against its snapshots, and
once a game is over its seed, its dice recomputed, its whole log exported and its replay."""

from __future__ import annotations

import json
import logging
from typing import Any

from game.apply import apply
from game.codec import to_data
from game.events import EVENTS
from game.fairness import commitment, verify_log
from game.model import Phase
from game.replay import Frame, frames
from game.rules_data import RulesData, default_texts
from game.service.authority import Actor
from game.service.errors import GameDamaged, ServiceRefusal
from game.service.repository import decode_state
from game.service.results import AuditReport, DiceCheck, RebuildReport
from game.service.store import GameStore

log = logging.getLogger(__name__)


class Audit:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    async def rebuild_all(self) -> RebuildReport:
        """On start: load every unfinished game, of every system, from its latest readable snapshot plus
        later events. A game that cannot be rebuilt is reported and skipped: it never stops the others."""
        ids = await self.store.repo.active_game_ids(every_system=True)
        damaged: list[tuple[int, str]] = []
        for gid in ids:
            self.store.forget(gid)
            try:
                await self.store.load_any(gid)
            except GameDamaged as exc:
                log.error("game %s cannot be rebuilt: %s", gid, exc.text)
                damaged.append((gid, exc.text))
        return RebuildReport(len(ids) - len(damaged), tuple(damaged))

    async def check(self, game_id: int) -> AuditReport:
        """Replay the whole log and compare with the snapshots and the live state."""
        loaded = await self.store.load(game_id, fresh=True)
        log_rows = await self.store.repo.events(game_id)
        snaps = dict(await self.store.repo.snapshots(game_id))
        state = decode_state(loaded.record.initial_state)
        problems = []
        for i, (seq, _, e) in enumerate(log_rows, start=1):
            if seq != i:
                problems.append(f"event {i} is numbered {seq}")
            state = apply(state, e)
            if seq in snaps and snaps[seq] != state:
                problems.append(f"snapshot at {seq} differs from the replay")
        if state != loaded.state:
            problems.append("the live state differs from the replay")
        if len(log_rows) != loaded.record.last_seq:
            problems.append(f"{len(log_rows)} events stored, the game says {loaded.record.last_seq}")
        return AuditReport(game_id, len(log_rows), tuple(problems))

    async def dice_commitment(self, game_id: int) -> str:
        return commitment((await self.store.load(game_id)).record.dice_seed)

    async def revealed_seed(self, game_id: int) -> str | None:
        """The dice seed once the game is over (never before)."""
        loaded = await self.store.load(game_id)
        return loaded.record.dice_seed if loaded.state.phase is Phase.OVER else None

    async def verify(self, actor: Actor | None, game_id: int) -> DiceCheck:
        """Recompute every roll of a finished game from its log and its seed. Before the end the seed
        is secret, so there is nothing anyone could check it against yet."""
        loaded = await self.store.load(game_id, actor, fresh=True)
        seed = loaded.record.dice_seed
        if loaded.state.phase is not Phase.OVER:
            raise ServiceRefusal("The dice seed stays secret until the game ends; then every roll can be checked.",
                                 f"Its SHA-256, published when the game began, is {commitment(seed)}.")
        rows = await self.store.repo.events(game_id)
        rules = await self.store.rules_for(loaded.record)
        result = await self.store.workers.run(verify_log, decode_state(loaded.record.initial_state),
                                              [(cmd, e) for _, cmd, e in rows], seed, rules, commitment(seed),
                                              thread=True)
        return DiceCheck(result, seed, commitment(seed), loaded.state.test_dice)

    async def export_log(self, actor: Actor | None, game_id: int) -> dict[str, Any]:
        """A finished game's whole record for checking elsewhere (`quarterdeck verify --file`): the
        starting state, every event with its command number, the seed and the data files it used."""
        loaded = await self.store.load(game_id, actor, fresh=True)
        if loaded.state.phase is not Phase.OVER:
            raise ServiceRefusal("A game's log is exported once it is over (it holds every secret).")
        files = default_texts(loaded.record.system)
        if loaded.record.data_version != "builtin":
            stored = await self.store.repo.data_version(loaded.record.data_version)
            if stored is not None:
                files.update(json.loads(stored.files))
        return {
            "format": "quarterdeck-log/1", "game": loaded.record.id, "name": loaded.record.name,
            "system": loaded.record.system, "seed": loaded.record.dice_seed,
            "commitment": commitment(loaded.record.dice_seed),
            "initial_state": to_data(decode_state(loaded.record.initial_state)),
            "events": [[cmd, EVENTS.encode(e)] for _, cmd, e in await self.store.repo.events(game_id)],
            "data_files": files,
        }

    async def replay(self, actor: Actor, game_id: int) -> tuple[list[Frame], RulesData, dict[str, Any] | None]:
        """The game told again as a spectator saw it (whoever asks: a replay is posted in the open),
        its rules, and, once it is over, its whole log for `quarterdeck replay`."""
        loaded = await self.store.load(game_id, actor, fresh=True)
        initial = decode_state(loaded.record.initial_state)
        shown = await self.store.workers.run(frames, initial,
                                             [(cmd, e) for _, cmd, e in await self.store.repo.events(game_id)])
        over = loaded.state.phase is Phase.OVER
        return shown, await self.store.rules_for(loaded.record), await self.export_log(actor, game_id) if over else None
