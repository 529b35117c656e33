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
    with op.batch_alter_table('scheduled_jobs', schema=None) as batch_op:
        batch_op.drop_column('since')
        batch_op.drop_column('holder')
        batch_op.drop_column('player')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('waits')
