"""referee undo events: a referee system's undo mark ("Undone", the commands from one on are taken
back) becomes the system's restore event, with the state as it stood before them, as Oak & Iron's
undo writes it: the one game store replays every system's log alike (issue 23, item 5)

Revision ID: 0013_referee_undo_events
Revises: 0012_league_claims
Create Date: 2026-11-27 08:10:00.000000
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0013_referee_undo_events'
down_revision = '0012_league_claims'
branch_labels = None
depends_on = None

UNDONE = "Undone"
RESTORED = "StateRestored"
REASON = "by the referee"

games = sa.table("games", sa.column("id", sa.Integer), sa.column("system", sa.String),
                 sa.column("initial_state", sa.Text))
events = sa.table("events", sa.column("game_id", sa.Integer), sa.column("seq", sa.Integer),
                  sa.column("command", sa.Integer), sa.column("type", sa.String), sa.column("payload", sa.Text),
                  sa.column("actor", sa.String))


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def upgrade() -> None:
    # the systems' own code reads the states: a mark holds no state, and the restore event must
    from game.codec import from_data
    from game.systems import REFEREE_SYSTEMS

    conn = op.get_bind()
    marked = conn.execute(
        sa.select(games.c.id, games.c.system, games.c.initial_state)
        .where(games.c.id.in_(sa.select(events.c.game_id).where(events.c.type == UNDONE)))
        .order_by(games.c.id)).all()
    for game_id, system_name, initial in marked:
        sysm = REFEREE_SYSTEMS[system_name]
        rows = conn.execute(
            sa.select(events.c.seq, events.c.command, events.c.type, events.c.payload, events.c.actor)
            .where(events.c.game_id == game_id).order_by(events.c.seq)).all()
        kept: list[tuple[int, Any]] = []  # (command, event) in effect, as the old reader folded them
        for seq, command, kind, payload, actor in rows:
            data = json.loads(payload)
            if kind != UNDONE:
                kept.append((command, sysm.events.decode(data)))
                continue
            kept = [(c, e) for c, e in kept if c < data["command"]]
            state = from_data(sysm.state_type, json.loads(initial))
            for _, e in kept:
                state = sysm.apply(state, e)
            restore = sysm.restored(state, REASON, actor or "", int(data["command"]))
            conn.execute(events.update().where(events.c.game_id == game_id, events.c.seq == seq)
                         .values(type=RESTORED, payload=_dumps(sysm.events.encode(restore))))


def downgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(events.c.game_id, events.c.seq, events.c.payload)
        .join(games, games.c.id == events.c.game_id)
        .where(events.c.type == RESTORED, games.c.system != "oak_and_iron")).all()
    for game_id, seq, payload in rows:
        undid = int(json.loads(payload).get("undid", 0))
        conn.execute(events.update().where(events.c.game_id == game_id, events.c.seq == seq)
                     .values(type=UNDONE, payload=_dumps({"command": undid})))
