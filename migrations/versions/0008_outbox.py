"""outbox: what the bot owes Discord for each game, written with the game's events

Revision ID: 0008_outbox
Revises: 0007
Create Date: 2026-11-23 01:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008_outbox'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'outbox',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('payload', sa.Text(), nullable=False),
        sa.Column('key', sa.String(length=100), nullable=True),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_try_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('done_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_outbox_status_next', 'outbox', ['status', 'next_try_at'])
    op.create_index('ix_outbox_game_status', 'outbox', ['game_id', 'status'])


def downgrade() -> None:
    op.drop_index('ix_outbox_game_status', table_name='outbox')
    op.drop_index('ix_outbox_status_next', table_name='outbox')
    op.drop_table('outbox')
