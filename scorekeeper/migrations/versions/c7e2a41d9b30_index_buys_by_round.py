"""Index buys by round

Revision ID: c7e2a41d9b30
Revises: c3d9a41e7b20
Create Date: 2026-12-01 03:30:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'c7e2a41d9b30'
down_revision = 'c3d9a41e7b20'
branch_labels = None
depends_on = None


def upgrade():
    # Every state load reads a game's buys by round: without an index each one scans all buys.
    # (Players are found by name through player.name_key's unique index.)
    op.create_index(op.f('ix_buy_round_id'), 'buy', ['round_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_buy_round_id'), table_name='buy')
