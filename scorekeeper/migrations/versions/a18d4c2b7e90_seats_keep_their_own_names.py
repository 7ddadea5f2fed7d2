"""Seats keep their own names: a game without a table no longer shares one name registry

Revision ID: a18d4c2b7e90
Revises: d4a8c1e6f203
Create Date: 2026-12-01 18:00:00.000000

Every game without a table seated a remembered player found by the name's folded key, so a
new game typing "Annax" showed a stranger's "𝔄𝔫𝔫𝔞x" (issue 18.4). Each seat now holds the
name its own game was started with: the name typed, as its "create" change recorded it,
where that is the same player; else the name the seat showed.
"""
import unicodedata

import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'a18d4c2b7e90'
down_revision = 'd4a8c1e6f203'
branch_labels = None
depends_on = None

NAME_LENGTH = 40
# SQLite keeps the first revision's foreign key unnamed: name it as PostgreSQL did.
NAMES = {"fk": "%(table_name)s_%(column_0_name)s_fkey"}
PLAYER = sa.table(
    'player', sa.column('id', sa.Integer), sa.column('name', sa.String),
    sa.column('name_key', sa.String), sa.column('created_at', sa.DateTime(timezone=True)),
)
SEAT = sa.table(
    'seat', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
    sa.column('position', sa.Integer), sa.column('player_id', sa.Integer),
    sa.column('player_name', sa.String),
)
CHANGE = sa.table(
    'change', sa.column('game_id', sa.Integer), sa.column('kind', sa.String),
    sa.column('after', sa.JSON),
)


def _key(name):
    """rules/player_names.name_key as of this revision (a migration never imports the app)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _typed(connection):
    """Each game's names in seat order, as its "create" change recorded them."""
    query = sa.select(CHANGE.c.game_id, CHANGE.c.after).where(CHANGE.c.kind == 'create')
    typed = {}
    for game_id, after in connection.execute(query):
        names = (after or {}).get("players") if isinstance(after, dict) else None
        if isinstance(names, list):
            typed[game_id] = names
    return typed


def upgrade():
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_name', sa.String(length=NAME_LENGTH), nullable=True))

    connection = op.get_bind()
    typed = _typed(connection)
    seats = sa.select(SEAT.c.id, SEAT.c.game_id, SEAT.c.position, PLAYER.c.name).join(
        PLAYER, PLAYER.c.id == SEAT.c.player_id
    )
    for seat_id, game_id, position, shown in connection.execute(seats).all():
        names = typed.get(game_id, [])
        name = names[position] if position < len(names) else None
        keep = isinstance(name, str) and 0 < len(name) <= NAME_LENGTH and _key(name) == _key(shown)
        connection.execute(
            SEAT.update().where(SEAT.c.id == seat_id).values(player_name=name if keep else shown)
        )

    with op.batch_alter_table('seat', schema=None, naming_convention=NAMES) as batch_op:
        batch_op.drop_constraint('seat_player_id_fkey', type_='foreignkey')
        batch_op.drop_column('player_id')
    op.drop_table('player')


def downgrade():
    op.create_table(
        'player',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=NAME_LENGTH), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('name_key', sa.String(length=160), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name_key', name='player_name_key_key'),
    )
    with op.batch_alter_table('seat', schema=None, naming_convention=NAMES) as batch_op:
        batch_op.add_column(sa.Column('player_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('seat_player_id_fkey', 'player', ['player_id'], ['id'])

    # One remembered player per folded name again: the first seat's spelling names them.
    connection = op.get_bind()
    players = {}
    seats = sa.select(SEAT.c.id, SEAT.c.player_name).where(SEAT.c.player_name.is_not(None))
    for seat_id, name in connection.execute(seats.order_by(SEAT.c.id)).all():
        key = _key(name)
        if key not in players:
            players[key] = connection.execute(
                PLAYER.insert().values(name=name, name_key=key, created_at=sa.func.now())
                .returning(PLAYER.c.id)
            ).scalar_one()
        connection.execute(SEAT.update().where(SEAT.c.id == seat_id).values(player_id=players[key]))

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('player_name')
