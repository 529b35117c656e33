"""follows: members following a game or a member's games by DM, at each board or in a daily digest
(issue 27, item 3). A new table only: nothing existing changes.

Revision ID: 0017_follows
Revises: 0016_captain_record_privacy
Create Date: 2026-11-27 08:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0017_follows'
down_revision = '0016_captain_record_privacy'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'follows',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.String(length=32), nullable=False),
        sa.Column('guild_id', sa.String(length=32), nullable=False),
        sa.Column('channel_id', sa.String(length=32), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('member_id', sa.String(length=32), nullable=True),
        sa.Column('digest_hour', sa.Integer(), nullable=True),
        sa.Column('last_digest_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('follows') as batch:
        batch.create_index('ix_follows_game', ['game_id'])
        batch.create_index('ix_follows_member', ['guild_id', 'member_id'])
        batch.create_index(batch.f('ix_follows_user_id'), ['user_id'])


def downgrade() -> None:
    op.drop_table('follows')
