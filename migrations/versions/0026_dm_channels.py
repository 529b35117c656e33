"""dm channels: each member's DM channel with the bot, as Create DM gave it (issue 29, item 4), so a
process that starts again sends the DMs a crash left owed without opening a channel for each member
on a route whose limit all of a bot's DMs share.

Revision ID: 0026_dm_channels
Revises: 0025_web_pages
Create Date: 2026-11-27 18:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0026_dm_channels'
down_revision = '0025_web_pages'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'dm_channels',
        sa.Column('bot_id', sa.String(length=32), nullable=False),
        sa.Column('user_id', sa.String(length=32), nullable=False),
        sa.Column('channel_id', sa.String(length=32), nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('bot_id', 'user_id'),
    )
    op.create_index('ix_dm_channels_user_id', 'dm_channels', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_dm_channels_user_id', table_name='dm_channels')
    op.drop_table('dm_channels')
