"""web pages: the unguessable address of each game's and league's read-only web page (issue 28), and a
server's choice to list its games' pages on an index page (off by default: a page is found only
through its link).

Revision ID: 0025_web_pages
Revises: 0024_outbox_owner
Create Date: 2026-11-27 09:50:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0025_web_pages'
down_revision = '0024_outbox_owner'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'web_pages',
        sa.Column('token', sa.String(length=32), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('target_id', sa.Integer(), nullable=False),
        sa.Column('guild_id', sa.String(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('token'),
        sa.UniqueConstraint('kind', 'target_id', name='uq_web_pages_target'),
    )
    op.create_index('ix_web_pages_guild_id', 'web_pages', ['guild_id'], unique=False)
    with op.batch_alter_table('guild_settings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('web_listed', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column('guild_settings', 'web_listed')
    op.drop_index('ix_web_pages_guild_id', table_name='web_pages')
    op.drop_table('web_pages')
