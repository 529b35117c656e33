"""campaigns: a server's named series of battles, its members with the campaign's copy of their
squadron, its battles (each a game) with the carry-over applied, and its ledger (issue 27, item 5).

Revision ID: 0022_campaigns
Revises: 0021_pause_windows
Create Date: 2026-11-27 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0022_campaigns'
down_revision = '0021_pause_windows'
branch_labels = None
depends_on = None

S = sqlmodel.sql.sqltypes.AutoString


def upgrade() -> None:
    op.create_table(
        'campaigns',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('guild_id', S(length=32), nullable=False),
        sa.Column('channel_id', S(length=32), nullable=False),
        sa.Column('name', S(length=100), nullable=False),
        sa.Column('size', S(length=20), nullable=False),
        sa.Column('status', S(length=20), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_by', S(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('guild_id', 'name', name='uq_campaign_name'),
    )
    with op.batch_alter_table('campaigns', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaigns_guild_id'), ['guild_id'], unique=False)
    op.create_table(
        'campaign_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('member', S(length=32), nullable=False),
        sa.Column('name', S(length=100), nullable=False),
        sa.Column('squadron', sa.Text(), nullable=False),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('left_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('campaign_id', 'member', name='uq_campaign_member'),
    )
    with op.batch_alter_table('campaign_members', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaign_members_campaign_id'), ['campaign_id'], unique=False)
    op.create_table(
        'campaign_battles',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('channel_id', S(length=32), nullable=False),
        sa.Column('start', sa.Text(), nullable=False),
        sa.Column('status', S(length=20), nullable=False),
        sa.Column('result', S(length=200), nullable=False),
        sa.Column('winner', S(length=8), nullable=False),
        sa.Column('applied_by', S(length=32), nullable=False),
        sa.Column('applied_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_by', S(length=32), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id']),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('campaign_id', 'number', name='uq_campaign_battle'),
        sa.UniqueConstraint('game_id'),
    )
    with op.batch_alter_table('campaign_battles', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaign_battles_campaign_id'), ['campaign_id'], unique=False)
    op.create_table(
        'campaign_ledger',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('campaign_id', sa.Integer(), nullable=False),
        sa.Column('kind', S(length=20), nullable=False),
        sa.Column('actor', S(length=32), nullable=False),
        sa.Column('text', S(length=1000), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['campaign_id'], ['campaigns.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('campaign_ledger', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaign_ledger_campaign_id'), ['campaign_id'], unique=False)


def downgrade() -> None:
    for table in ('campaign_ledger', 'campaign_battles', 'campaign_members', 'campaigns'):
        op.drop_table(table)
