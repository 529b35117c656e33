"""lazy start: an index on `games.status`, so what a start asks of the games table (the unfinished
games, those a computer captain or an order may owe a move) costs what the unfinished games cost, not
every game ever played (issue 29, item 3).

Revision ID: 0023_lazy_start
Revises: 0022_campaigns
Create Date: 2026-11-27 10:00:00.000000
"""

from __future__ import annotations

from alembic import op

revision = '0023_lazy_start'
down_revision = '0022_campaigns'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_status', ['status'], unique=False)


def downgrade() -> None:
    # dropped in place, as 0018 does: batch mode's copy of `games` could not drop the old table while
    # seats, events and jobs refer to it (foreign keys are on)
    op.drop_index('ix_games_status', table_name='games')
