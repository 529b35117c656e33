"""league formats: a Swiss league's top cut (a single-elimination bracket of its top N after the Swiss
rounds, each bracket entrant's seed kept as the bracket starts) and team leagues (an entrant is a team
of two: the member who registered it and the partner who confirmed it) (issue 27, item 4)

Revision ID: 0020_league_formats
Revises: 0019_league_organisers
Create Date: 2026-11-27 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0020_league_formats'
down_revision = '0019_league_organisers'
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.add_column(sa.Column('top_cut', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('teams', sa.Boolean(), nullable=False, server_default='0'))
    with op.batch_alter_table('league_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('partner', S(length=32), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('partner_name', S(length=100), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('partner_joined', sa.Boolean(), nullable=False, server_default='0'))
    # the server defaults stay, as in 0012: removing one makes SQLite's batch mode copy the table


def downgrade() -> None:
    # dropped in place (SQLite 3.35 on), as 0012 does
    for table, column in (('league_entries', 'partner_joined'), ('league_entries', 'partner_name'),
                          ('league_entries', 'partner'), ('league_entries', 'seed'), ('leagues', 'teams'),
                          ('leagues', 'top_cut')):
        op.drop_column(table, column)
