"""A card party's read-only link for relatives at home

Revision ID: c7e9a1b3d5f8
Revises: a3c5e7f9b1d2
Create Date: 2026-12-05 05:10:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'c7e9a1b3d5f8'
down_revision = 'a3c5e7f9b1d2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('card_party') as batch_op:
        batch_op.add_column(sa.Column('watch_token', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('card_party') as batch_op:
        batch_op.drop_column('watch_token')
