"""A table's card party: an evening of several games at once, and the table's rating switch

Revision ID: a3c5e7f9b1d2
Revises: b8e4f2a6c1d9
Create Date: 2026-12-05 04:00:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'a3c5e7f9b1d2'
down_revision = 'b8e4f2a6c1d9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('card_table') as batch_op:
        batch_op.add_column(
            sa.Column('rating', sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        'card_party',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('rules_json', sa.JSON(), nullable=False),
        sa.Column('tables', sa.Integer(), nullable=True),
        sa.Column('rotation', sa.String(length=16), nullable=False),
        sa.Column('rotate_every', sa.Integer(), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('seating', sa.JSON(), nullable=True),
        sa.Column('state', sa.String(length=16), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['card_table.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_card_party_table_id', 'card_party', ['table_id'], unique=False)
    op.create_table(
        'party_person',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('party_id', sa.Integer(), nullable=False),
        sa.Column('person_id', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(['party_id'], ['card_party.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['person_id'], ['table_player.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('party_id', 'person_id'),
    )
    op.create_index('ix_party_person_person_id', 'party_person', ['person_id'], unique=False)
    op.create_table(
        'party_game',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('party_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('table_number', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['party_id'], ['card_party.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('party_id', 'round', 'table_number'),
        sa.UniqueConstraint('game_id'),
    )
    op.create_table(
        'party_change',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('party_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('after', sa.JSON(), nullable=True),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['party_id'], ['card_party.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_party_change_party_id', 'party_change', ['party_id'], unique=False)


def downgrade():
    op.drop_index('ix_party_change_party_id', table_name='party_change')
    op.drop_table('party_change')
    op.drop_table('party_game')
    op.drop_index('ix_party_person_person_id', table_name='party_person')
    op.drop_table('party_person')
    op.drop_index('ix_card_party_table_id', table_name='card_party')
    op.drop_table('card_party')
    with op.batch_alter_table('card_table') as batch_op:
        batch_op.drop_column('rating')
