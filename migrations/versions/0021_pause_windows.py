"""pause windows: a game's pause by consent (who asked, what is kept, when it ends), a member's weekday
availability windows, and a league's pause (issue 27, item 4, part 3).

`game_clocks.paused_at` is when the clock stopped, so a resume gives each wait back the clock time
it had left; `proposal` is the open request for a pause (JSON), answered by buttons.

Revision ID: 0021_pause_windows
Revises: 0020_league_formats
Create Date: 2026-11-27 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0021_pause_windows'
down_revision = '0020_league_formats'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game_clocks', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('paused_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('pause_kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('pause_reason', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('proposal', sa.Text(), nullable=False, server_default=''))
    with op.batch_alter_table('player_clocks', schema=None) as batch_op:
        batch_op.add_column(sa.Column('windows', sqlmodel.sql.sqltypes.AutoString(length=400), nullable=False,
                                      server_default=''))
    with op.batch_alter_table('leagues', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('pause_reason', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False,
                                      server_default=''))


def downgrade() -> None:
    # dropped in place (SQLite 3.35 on), as 0018 does: batch mode's copy of `leagues` or `game_clocks`
    # could not drop the old table while other tables refer to it (foreign keys are on)
    for column in ('pause_reason', 'paused_at'):
        op.drop_column('leagues', column)
    op.drop_column('player_clocks', 'windows')
    for column in ('proposal', 'pause_reason', 'pause_kind', 'paused_until', 'paused_at'):
        op.drop_column('game_clocks', column)
