"""standing orders, game clocks and players' hours

Revision ID: 0010_orders
Revises: 0007
Create Date: 2026-11-23 01:15:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0010_orders'
down_revision = '0009_league'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'standing_orders',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('player', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'player', name='uq_standing_orders_game_player'),
    )
    with op.batch_alter_table('standing_orders', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_standing_orders_game_id'), ['game_id'], unique=False)
    op.create_table(
        'game_clocks',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('reminder_hours', sa.Integer(), nullable=True),
        sa.Column('deadline_hours', sa.Integer(), nullable=True),
        sa.Column('on_deadline', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('skip_quiet', sa.Boolean(), nullable=False),
        sa.Column('paused', sa.Boolean(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_table(
        'player_clocks',
        sa.Column('user_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('time_zone', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('quiet_from', sa.Integer(), nullable=True),
        sa.Column('quiet_to', sa.Integer(), nullable=True),
        sa.Column('away_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('away_mode', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('substitute', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('user_id'),
    )


def downgrade() -> None:
    op.drop_table('player_clocks')
    op.drop_table('game_clocks')
    with op.batch_alter_table('standing_orders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_standing_orders_game_id'))
    op.drop_table('standing_orders')
