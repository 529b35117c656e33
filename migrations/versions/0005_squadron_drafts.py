"""squadron lists still being built

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 06:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('saved_squadrons', schema=None) as batch_op:
        batch_op.add_column(sa.Column('complete', sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table('saved_squadrons', schema=None) as batch_op:
        batch_op.drop_column('complete')
