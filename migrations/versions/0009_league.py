"""leagues: leagues, entrants, pairings with their results, ratings per server

Revision ID: 0009_league
Revises: 0007
Create Date: 2026-11-23 01:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0009_league'
down_revision = '0008_outbox'
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    op.create_table(
        'leagues',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('guild_id', S(length=32), nullable=False),
        sa.Column('channel_id', S(length=32), nullable=False),
        sa.Column('name', S(length=100), nullable=False),
        sa.Column('scenario', S(length=100), nullable=False),
        sa.Column('scenario_text', sa.Text(), nullable=False),
        sa.Column('size', S(length=20), nullable=False),
        sa.Column('format', S(length=20), nullable=False),
        sa.Column('round_hours', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('current_round', sa.Integer(), nullable=False),
        sa.Column('round_started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('status', S(length=20), nullable=False),
        sa.Column('created_by', S(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('guild_id', 'name', name='uq_league_name'),
    )
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_leagues_guild_id'), ['guild_id'], unique=False)
    op.create_table(
        'league_entries',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('member', S(length=32), nullable=False),
        sa.Column('name', S(length=100), nullable=False),
        sa.Column('squadron', S(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'member', name='uq_league_entry'),
    )
    with op.batch_alter_table('league_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_league_entries_league_id'), ['league_id'], unique=False)
    op.create_table(
        'league_games',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('table_no', sa.Integer(), nullable=False),
        sa.Column('a_member', S(length=32), nullable=False),
        sa.Column('b_member', S(length=32), nullable=True),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('status', S(length=20), nullable=False),
        sa.Column('winner', S(length=32), nullable=True),
        sa.Column('a_points', sa.Integer(), nullable=False),
        sa.Column('b_points', sa.Integer(), nullable=False),
        sa.Column('reason', S(length=200), nullable=False),
        sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'round', 'table_no', name='uq_league_table'),
    )
    with op.batch_alter_table('league_games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_league_games_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_league_games_league_id'), ['league_id'], unique=False)
    op.create_table(
        'ratings',
        sa.Column('guild_id', S(length=32), nullable=False),
        sa.Column('member', S(length=32), nullable=False),
        sa.Column('name', S(length=100), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('guild_id', 'member'),
    )


def downgrade() -> None:
    op.drop_table('ratings')
    with op.batch_alter_table('league_games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_league_games_league_id'))
        batch_op.drop_index(batch_op.f('ix_league_games_game_id'))
    op.drop_table('league_games')
    with op.batch_alter_table('league_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_league_entries_league_id'))
    op.drop_table('league_entries')
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_leagues_guild_id'))
    op.drop_table('leagues')
