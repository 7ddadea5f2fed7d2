"""House rule sets get a secret token: a set opens only with its link

Revision ID: d4a8c1e6f203
Revises: c7e2a41d9b30
Create Date: 2026-12-01 05:00:00.000000

"""
import secrets

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'd4a8c1e6f203'
down_revision = 'c7e2a41d9b30'
branch_labels = None
depends_on = None

TOKEN_BYTES = 24  # as link_tokens.new_token: a migration keeps its own copy of what it needs


def upgrade():
    with op.batch_alter_table('house_rules', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token', sa.String(length=64), nullable=True))
    # Every existing set gets its own fresh token; until then they were open to anyone.
    house_rules = sa.table('house_rules', sa.column('id', sa.Integer), sa.column('token', sa.String))
    connection = op.get_bind()
    for (ruleset_id,) in connection.execute(sa.select(house_rules.c.id)).all():
        connection.execute(
            house_rules.update()
            .where(house_rules.c.id == ruleset_id)
            .values(token=secrets.token_urlsafe(TOKEN_BYTES))
        )
    with op.batch_alter_table('house_rules', schema=None) as batch_op:
        batch_op.alter_column('token', existing_type=sa.String(length=64), nullable=False)


def downgrade():
    with op.batch_alter_table('house_rules', schema=None) as batch_op:
        batch_op.drop_column('token')
