"""Index seat links by game and retirement: a link check reads the live ones and the newest
replaced ones, however often links were replaced

Revision ID: b8e0f2a4c6d1
Revises: a7d9e1f3b5c2
Create Date: 2026-12-05 01:10:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'b8e0f2a4c6d1'
down_revision = 'a7d9e1f3b5c2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_seat_link_game_retired', 'seat_link', ['game_id', 'retired_at'])


def downgrade():
    op.drop_index('ix_seat_link_game_retired', table_name='seat_link')
