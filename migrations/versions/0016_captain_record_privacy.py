"""captain record privacy: the /captain categories each member hid (issue 27, item 1). A table of its
own, keyed by the member, so /privacy delete removes the row whole and nothing else changes shape.

Revision ID: 0016_captain_record_privacy
Revises: 0015_former_members
Create Date: 2026-11-27 08:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0016_captain_record_privacy'
down_revision = '0015_former_members'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'record_privacy',
        sa.Column('user_id', sa.String(length=32), nullable=False),
        sa.Column('hidden', sa.String(length=200), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('user_id'),
    )


def downgrade() -> None:
    op.drop_table('record_privacy')
