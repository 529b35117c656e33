"""league organisers: a league's own settings (rounds that close when their last game ends, the clock
its games get) and the log of every organiser action (issue 27, item 4, part 1).

Revision ID: 0019_league_organisers
Revises: 0018_chronicle
Create Date: 2026-11-27 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0019_league_organisers'
down_revision = '0018_chronicle'
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        # leagues made before this keep closing their rounds by hand, as they were announced
        batch_op.add_column(sa.Column('auto_close', sa.Boolean(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('reminder_hours', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('deadline_hours', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('on_deadline', S(length=20), nullable=True))
        batch_op.add_column(sa.Column('skip_quiet', sa.Boolean(), nullable=True))
    op.create_table(
        'league_actions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('actor', S(length=32), nullable=False),
        sa.Column('action', S(length=40), nullable=False),
        sa.Column('subject', S(length=32), nullable=False, server_default=''),
        sa.Column('note', S(length=300), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_league_actions_league_id', 'league_actions', ['league_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_league_actions_league_id', table_name='league_actions')
    op.drop_table('league_actions')
    # dropped in place (SQLite 3.35 on), as 0012 does: batch mode's copy of `leagues` could not drop the
    # old table while entrants and pairings refer to it
    for column in ('skip_quiet', 'on_deadline', 'deadline_hours', 'reminder_hours', 'auto_close'):
        op.drop_column('leagues', column)
