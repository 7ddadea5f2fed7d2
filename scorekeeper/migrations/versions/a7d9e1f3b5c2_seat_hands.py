"""Seats enter their own hands: each a pending entry until the scorekeeper saves the round

Revision ID: a7d9e1f3b5c2
Revises: f6c8d0e2a4b1
Create Date: 2026-12-04 05:30:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'a7d9e1f3b5c2'
down_revision = 'f6c8d0e2a4b1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'seat_hand',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('went_out', sa.Boolean(), nullable=False),
        sa.Column('points', sa.Integer(), nullable=True),
        sa.Column('cards', sa.JSON(), nullable=True),
        sa.Column('cut_bonus', sa.Boolean(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('note', sa.String(length=140), nullable=True),
        sa.Column('action_id', sa.String(length=64), nullable=True),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('submitted_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'round_number', 'seat'),
    )


def downgrade():
    op.drop_table('seat_hand')
