"""a scheduled job names the decision it was planned for; a game stores the waits of its sides

Revision ID: 0011_decisions
Revises: 0010_orders
Create Date: 2026-11-27 01:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0011_decisions'
down_revision = '0010_orders'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('waits', sa.Text(), nullable=False, server_default='{}'))
    with op.batch_alter_table('scheduled_jobs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=True))
        batch_op.add_column(sa.Column('holder', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))
        batch_op.add_column(sa.Column('since', sa.Integer(), nullable=True))


def downgrade() -> None:
    # SQLite (3.35 on) drops a column in place: batch mode's copy of `games` could not drop the old
    # table while seats, events and jobs refer to it (foreign keys are on)
    for table, column in (('scheduled_jobs', 'since'), ('scheduled_jobs', 'holder'), ('scheduled_jobs', 'player'),
                          ('games', 'waits')):
        op.drop_column(table, column)
