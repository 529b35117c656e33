"""server table entries: a server's GM enters a printed play-aid table once for every new game of
the server (issue 24, items 2 and 3). A row per cell, not a JSON column on guild_settings: each cell
keeps who entered it, a table entered again replaces just its own cells under a unique key, and the
settings row (read and cached for every command) stays small.

Revision ID: 0014_server_table_entries
Revises: 0013_referee_undo_events
Create Date: 2026-11-27 09:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0014_server_table_entries'
down_revision = '0013_referee_undo_events'
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    op.create_table(
        'server_table_entries',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('guild_id', S(length=32), nullable=False),
        sa.Column('system', S(length=50), nullable=False),
        sa.Column('table_name', S(length=100), nullable=False),
        sa.Column('row_key', S(length=100), nullable=False),
        sa.Column('column_key', S(length=100), nullable=False),
        sa.Column('value', S(length=200), nullable=False),
        sa.Column('override', sa.Boolean(), nullable=False),
        sa.Column('entered_by', S(length=32), nullable=False),
        sa.Column('entered_by_name', S(length=100), nullable=False),
        sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('guild_id', 'system', 'table_name', 'row_key', 'column_key', name='uq_server_table_entry'),
    )
    with op.batch_alter_table('server_table_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_server_table_entries_guild_id'), ['guild_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('server_table_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_server_table_entries_guild_id'))
    op.drop_table('server_table_entries')
