"""Player name key: one player per name folded the same way on every database

Revision ID: c7d2e4f1a9b3
Revises: 1aa8908bfae1
Create Date: 2026-12-01 03:30:00.000000

"""
import unicodedata

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'c7d2e4f1a9b3'
down_revision = '1aa8908bfae1'
branch_labels = None
depends_on = None


# SQLite keeps the first revision's unique constraint unnamed: name it as PostgreSQL did.
NAMES = {"uq": "%(table_name)s_%(column_0_name)s_key"}


def _key(name):
    """rules/player_names.name_key as of this revision (a migration never imports the app)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_key', sa.String(length=160), nullable=True))

    connection = op.get_bind()
    player = sa.table('player', sa.column('id', sa.Integer), sa.column('name', sa.String),
                      sa.column('name_key', sa.String))
    seat = sa.table('seat', sa.column('player_id', sa.Integer))
    kept = {}
    for id_, name in connection.execute(sa.select(player.c.id, player.c.name).order_by(player.c.id)):
        key = _key(name)
        if key in kept:
            # "Ömer" and "ömer" were two players on SQLite: seat both as the first one.
            connection.execute(seat.update().where(seat.c.player_id == id_).values(player_id=kept[key]))
            connection.execute(player.delete().where(player.c.id == id_))
            continue
        kept[key] = id_
        connection.execute(player.update().where(player.c.id == id_).values(name_key=key))

    with op.batch_alter_table('player', schema=None, naming_convention=NAMES) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=160), nullable=False)
        batch_op.drop_constraint('player_name_key', type_='unique')
        batch_op.create_unique_constraint('player_name_key_key', ['name_key'])


def downgrade():
    with op.batch_alter_table('player', schema=None, naming_convention=NAMES) as batch_op:
        batch_op.drop_constraint('player_name_key_key', type_='unique')
        batch_op.create_unique_constraint('player_name_key', ['name'])
        batch_op.drop_column('name_key')
