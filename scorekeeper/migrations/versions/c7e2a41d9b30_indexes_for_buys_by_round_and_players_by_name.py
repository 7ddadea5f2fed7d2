"""Indexes for buys by round and players by name in any case

Revision ID: c7e2a41d9b30
Revises: 1aa8908bfae1
Create Date: 2026-12-01 03:30:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'c7e2a41d9b30'
down_revision = '1aa8908bfae1'
branch_labels = None
depends_on = None


def upgrade():
    # Every state load reads a game's buys by round: without an index each one scans all buys.
    op.create_index(op.f('ix_buy_round_id'), 'buy', ['round_id'], unique=False)
    # Starting a game looks each name up in any case (lower(name) = lower(:name)).
    op.create_index('ix_player_lower_name', 'player', [sa.text('lower(name)')], unique=False)


def downgrade():
    op.drop_index('ix_player_lower_name', table_name='player')
    op.drop_index(op.f('ix_buy_round_id'), table_name='buy')
