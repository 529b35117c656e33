"""outbox owner: who holds a claimed row's lease (issue 29, item 4), so a process that restarts takes
back at once the rows it had claimed when it was killed, instead of waiting out the two-minute lease.

Revision ID: 0024_outbox_owner
Revises: 0023_lazy_start
Create Date: 2026-11-27 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0024_outbox_owner'
down_revision = '0023_lazy_start'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owner', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('owner')
