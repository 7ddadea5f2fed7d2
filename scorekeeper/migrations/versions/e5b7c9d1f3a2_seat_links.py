"""Each seat of a game gets its own secret link

Revision ID: e5b7c9d1f3a2
Revises: a18d4c2b7e90
Create Date: 2026-12-02 01:00:00.000000

"""
import secrets

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e5b7c9d1f3a2'
down_revision = 'a18d4c2b7e90'
branch_labels = None
depends_on = None

TOKEN_BYTES = 24  # as link_tokens.new_token: a migration keeps its own copy of what it needs


def upgrade():
    op.create_table(
        'seat_link',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('retired_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_seat_link_game_seat', 'seat_link', ['game_id', 'seat'], unique=False)
    # Every seat of every existing game gets its own fresh link.
    seat = sa.table('seat', sa.column('game_id', sa.Integer), sa.column('position', sa.Integer))
    seat_link = sa.table(
        'seat_link',
        sa.column('game_id', sa.Integer),
        sa.column('seat', sa.Integer),
        sa.column('token', sa.String),
        sa.column('created_at', sa.DateTime(timezone=True)),
    )
    connection = op.get_bind()
    now = sa.func.now()
    rows = connection.execute(sa.select(seat.c.game_id, seat.c.position)).all()
    for game_id, position in rows:
        connection.execute(
            seat_link.insert().values(
                game_id=game_id,
                seat=position,
                token=secrets.token_urlsafe(TOKEN_BYTES),
                created_at=now,
            )
        )


def downgrade():
    op.drop_index('ix_seat_link_game_seat', table_name='seat_link')
    op.drop_table('seat_link')
