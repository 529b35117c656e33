"""former members: the numbers of the pseudonyms (`former:<id>`) that stand for members who had the
bot forget them (issue 26, item 5). A row holds no user id: only its number and when it was made, so
two forgotten members never share a pseudonym (an autoincrement key is safe under concurrent
deletions, where a counter in bot_state would need its own lock).

Revision ID: 0015_former_members
Revises: 0014_server_table_entries
Create Date: 2026-11-27 08:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0015_former_members'
down_revision = '0014_server_table_entries'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'former_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('forgotten_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )


def downgrade() -> None:
    op.drop_table('former_members')
