"""Seats call "May I?" from their phones: each call a stored fact until the scorekeeper acts

Revision ID: f6c8d0e2a4b1
Revises: e5b7c9d1f3a2
Create Date: 2026-12-02 01:10:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'f6c8d0e2a4b1'
down_revision = 'e5b7c9d1f3a2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'seat_call',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('outcome', sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        'ix_seat_call_game_round', 'seat_call', ['game_id', 'round_number'], unique=False
    )


def downgrade():
    op.drop_index('ix_seat_call_game_round', table_name='seat_call')
    op.drop_table('seat_call')
