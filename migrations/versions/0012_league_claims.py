"""league claims: a pairing's game is claimed before it is made, joins count under the league's
row lock, entrants can be dropped and pairings forfeited (issue 22, findings 8, 9 and 14)

Revision ID: 0012_league_claims
Revises: 0011_decisions
Create Date: 2026-11-27 01:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0012_league_claims'
down_revision = '0011_decisions'
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.add_column(sa.Column('entry_version', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('league_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('dropped_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('dropped_by', S(length=32), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('drop_reason', S(length=200), nullable=False, server_default=''))
    with op.batch_alter_table('league_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('forfeited', S(length=2), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('claim', S(length=32), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True))
    # the server defaults stay: removing one makes SQLite's batch mode copy the table, and dropping the
    # old `leagues` fails while entrants and pairings refer to it (foreign keys are on)


def downgrade() -> None:
    # SQLite (3.35 on) drops a column in place: batch mode's copy could not drop the old tables while
    # other rows refer to them
    for table, column in (('league_games', 'claimed_at'), ('league_games', 'claim'), ('league_games', 'forfeited'),
                          ('league_entries', 'drop_reason'), ('league_entries', 'dropped_by'),
                          ('league_entries', 'dropped_at'), ('leagues', 'entry_version')):
        op.drop_column(table, column)
