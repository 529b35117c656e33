"""chronicle: the channel a server's finished games are chronicled in (a GM's setting), and which game
a rematch answers (issue 27, item 2). `rematch_of` is unique: a game has at most one rematch, so two
presses of its Rematch button (in two processes at once, too) cannot make two games.

Revision ID: 0018_chronicle
Revises: 0017_follows
Create Date: 2026-11-27 08:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0018_chronicle'
down_revision = '0017_follows'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chronicle_channel_id', sqlmodel.sql.sqltypes.AutoString(length=32),
                                      nullable=True))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rematch_of', sa.Integer(), nullable=True))
        batch_op.create_index('ix_games_rematch_of', ['rematch_of'], unique=True)


def downgrade() -> None:
    # dropped in place (SQLite 3.35 on), as 0011 does: batch mode's copy of `games` could not drop the
    # old table while seats, events and jobs refer to it (foreign keys are on)
    op.drop_index('ix_games_rematch_of', table_name='games')
    op.drop_column('games', 'rematch_of')
    op.drop_column('guild_settings', 'chronicle_channel_id')
