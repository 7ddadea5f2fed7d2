"""Tables: their people, their links, and the games started from them

Revision ID: c3d9a41e7b20
Revises: c3e5a7d2f914
Create Date: 2026-12-01 03:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c3d9a41e7b20"
down_revision = "c3e5a7d2f914"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "card_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("edit_token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid"),
    )
    op.create_table(
        "table_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("merged_into_id", sa.Integer(), nullable=True),
        sa.Column("merged_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["card_table.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["merged_into_id"], ["table_player.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid"),
    )
    op.create_index("ix_table_player_table_id", "table_player", ["table_id"])
    op.create_table(
        "retired_table_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["card_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_retired_table_link_table_id", "retired_table_link", ["table_id"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("table_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_game_table_id_card_table", "card_table", ["table_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_index("ix_game_table_newest", ["table_id", "id"])
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("table_player_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_seat_table_player_id_table_player", "table_player", ["table_player_id"], ["id"]
        )
        batch.create_index("ix_seat_table_player_id", ["table_player_id"])
        batch.alter_column("player_id", existing_type=sa.Integer(), nullable=True)


def downgrade():
    # Before tables, every seat named a remembered player: a table's games cannot go back.
    op.execute("DELETE FROM seat WHERE game_id IN (SELECT id FROM game WHERE table_id IS NOT NULL)")
    op.execute("DELETE FROM game WHERE table_id IS NOT NULL")
    with op.batch_alter_table("seat") as batch:
        batch.alter_column("player_id", existing_type=sa.Integer(), nullable=False)
        batch.drop_index("ix_seat_table_player_id")
        batch.drop_constraint("fk_seat_table_player_id_table_player", type_="foreignkey")
        batch.drop_column("table_player_id")
    with op.batch_alter_table("game") as batch:
        batch.drop_index("ix_game_table_newest")
        batch.drop_constraint("fk_game_table_id_card_table", type_="foreignkey")
        batch.drop_column("table_id")
    op.drop_index("ix_retired_table_link_table_id", table_name="retired_table_link")
    op.drop_table("retired_table_link")
    op.drop_index("ix_table_player_table_id", table_name="table_player")
    op.drop_table("table_player")
    op.drop_table("card_table")
