"""league claims: a pairing's game is claimed before it is made, joins count under the league's
row lock, entrants can be dropped and pairings forfeited (issue 22, findings 8, 9 and 14)

Revision ID: 0011_league_claims
Revises: 0010_orders
Create Date: 2026-11-27 01:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0011_league_claims'
down_revision = '0010_orders'
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
    # the defaults were for the rows already there: new rows get theirs from the models
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.alter_column('entry_version', server_default=None)
    with op.batch_alter_table('league_entries', schema=None) as batch_op:
        batch_op.alter_column('dropped_by', server_default=None)
        batch_op.alter_column('drop_reason', server_default=None)
    with op.batch_alter_table('league_games', schema=None) as batch_op:
        batch_op.alter_column('forfeited', server_default=None)
        batch_op.alter_column('claim', server_default=None)


def downgrade() -> None:
    with op.batch_alter_table('league_games', schema=None) as batch_op:
        batch_op.drop_column('claimed_at')
        batch_op.drop_column('claim')
        batch_op.drop_column('forfeited')
    with op.batch_alter_table('league_entries', schema=None) as batch_op:
        batch_op.drop_column('drop_reason')
        batch_op.drop_column('dropped_by')
        batch_op.drop_column('dropped_at')
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.drop_column('entry_version')
