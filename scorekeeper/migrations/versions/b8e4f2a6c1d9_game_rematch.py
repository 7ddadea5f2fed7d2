"""A finished game records the game Play again started after it

Revision ID: b8e4f2a6c1d9
Revises: b8e0f2a4c6d1
Create Date: 2026-12-05 01:40:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'b8e4f2a6c1d9'
down_revision = 'b8e0f2a4c6d1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game') as batch_op:
        batch_op.add_column(sa.Column('rematch_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            'game_rematch_id_fkey', 'game', ['rematch_id'], ['id'], ondelete='SET NULL'
        )


def downgrade():
    with op.batch_alter_table('game') as batch_op:
        batch_op.drop_constraint('game_rematch_id_fkey', type_='foreignkey')
        batch_op.drop_column('rematch_id')
