"""House rule sets saved under a name; who has laid down their contract in a round

Revision ID: c3e5a7d2f914
Revises: c7d2e4f1a9b3
Create Date: 2026-12-01 03:20:00

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'c3e5a7d2f914'
down_revision = 'c7d2e4f1a9b3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('house_rules',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('rules_json', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.add_column(sa.Column('down_seats', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.drop_column('down_seats')
    op.drop_table('house_rules')
