"""secret dice seeds per game; leases on claimed jobs

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22 20:00:00.000000
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('dice_seed', sa.String(length=64), nullable=False, server_default=''))
    with op.batch_alter_table('scheduled_jobs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('locked_until', sa.DateTime(timezone=True), nullable=True))
    # games that already exist roll their remaining dice from a fresh secret seed: their old seed was a
    # small number anyone could read, so it must not decide another die
    bind = op.get_bind()
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('dice_seed', sa.String))
    for (game_id,) in bind.execute(sa.select(games.c.id)).all():
        bind.execute(games.update().where(games.c.id == game_id).values(dice_seed=secrets.token_hex(32)))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.alter_column('dice_seed', server_default=None)


def downgrade() -> None:
    with op.batch_alter_table('scheduled_jobs', schema=None) as batch_op:
        batch_op.drop_column('locked_until')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('dice_seed')
