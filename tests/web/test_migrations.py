"""The migrations build the models' schema from nothing and take it down again, on both databases.

Every other database test starts from a copy (SQLite) or an emptied run-wide database
(PostgreSQL) migrated once per run, so this is the test that walks the migrations end to end.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, make_url, select, text

from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I
from tests.databases import head, make_app

SCHEMA = "migration_check"


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no tables: a new SQLite file, or a new schema in the run's PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    url: str = request.getfixturevalue("postgres_url")
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        admin.execute(f"CREATE SCHEMA {SCHEMA}")
    # Only the new schema on the search path: the run's migrated tables stay out of sight.
    options = {"options": f"-csearch_path={SCHEMA}"}
    yield make_url(url).update_query_dict(options).render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {SCHEMA} CASCADE")


def tables() -> set[str]:
    """The tables in the app's database (in its default schema)."""
    return set(inspect(db.engine).get_table_names())


def schema_differences() -> list[object]:
    """What Alembic's autogenerate would change to make the database match the models."""
    with db.engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), db.metadata))


def test_migrations_go_from_empty_to_the_models_and_back(
    empty_database_url: str, tmp_path: Path
) -> None:
    app = make_app(empty_database_url, str(tmp_path))
    with app.app_context():
        assert tables() == set()
        upgrade()
        assert tables() == {*db.metadata.tables, "alembic_version"}
        version = db.session.scalar(text("SELECT version_num FROM alembic_version"))
        assert version == head()
        assert schema_differences() == []
        game_id = actions.create_game(MAY_I, ["Anna", "Ben", "Carla"], 0).id
        assert db.session.scalar(select(Game.id)) == game_id
        db.session.remove()
        downgrade(revision="base")
        assert tables() == {"alembic_version"}
        db.engine.dispose()


def test_the_name_key_migration_merges_players_sqlite_kept_apart(
    empty_database_url: str, tmp_path: Path
) -> None:
    app = make_app(empty_database_url, str(tmp_path))
    with app.app_context():
        upgrade(revision="1aa8908bfae1")  # before the name key: "Ömer" and "ömer" could be two
        for id_, name in ((1, "Ömer"), (2, "ömer"), (3, "Ben")):
            db.session.execute(
                text("INSERT INTO player (id, name, created_at) VALUES (:id, :name, :now)"),
                {"id": id_, "name": name, "now": "2026-01-01 00:00:00+00"},
            )
        game = (
            "INSERT INTO game (id, rules_json, first_dealer, dealer_was_cut, version, "
            "edit_token, view_token, created_at, updated_at) VALUES (:id, '{}', 0, false, 0, "
            ":id, :id, :now, :now)"
        )
        seat = "INSERT INTO seat (game_id, position, player_id) VALUES (:game, :position, :player)"
        for game_id, players in ((1, (1, 3)), (2, (2, 3))):
            db.session.execute(text(game), {"id": game_id, "now": "2026-01-01 00:00:00+00"})
            for position, player in enumerate(players):
                db.session.execute(
                    text(seat), {"game": game_id, "position": position, "player": player}
                )
        db.session.commit()
        upgrade(revision="d4a8c1e6f203")  # the last revision with one registry of players
        players = db.session.execute(text("SELECT id, name, name_key FROM player ORDER BY id"))
        assert [tuple(row) for row in players] == [(1, "Ömer", "ömer"), (3, "Ben", "ben")]
        seats = db.session.scalars(text("SELECT player_id FROM seat ORDER BY game_id, position"))
        assert list(seats) == [1, 3, 1, 3]
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


def test_the_token_migration_gives_each_saved_rule_set_its_own_secret(
    empty_database_url: str, tmp_path: Path
) -> None:
    app = make_app(empty_database_url, str(tmp_path))
    with app.app_context():
        upgrade(revision="c7e2a41d9b30")  # before tokens: every saved set was open to anyone
        saved = (
            "INSERT INTO house_rules (id, name, rules_json, created_at, updated_at) "
            "VALUES (:id, :name, '{}', :now, :now)"
        )
        for id_, name in ((1, "Ours"), (2, "Theirs")):
            db.session.execute(
                text(saved), {"id": id_, "name": name, "now": "2026-01-01 00:00:00+00"}
            )
        db.session.commit()
        upgrade()
        tokens = list(db.session.scalars(text("SELECT token FROM house_rules ORDER BY id")))
        assert len(tokens) == len(set(tokens)) == 2
        assert all(len(token) >= 32 for token in tokens)
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


def test_the_seat_name_migration_gives_each_game_the_names_it_was_started_with(
    empty_database_url: str, tmp_path: Path
) -> None:
    app = make_app(empty_database_url, str(tmp_path))
    player = sa_table("player", "id", "name", "name_key", "created_at")
    game = sa.table(
        "game", sa.column("id"), sa.column("rules_json", sa.JSON), sa.column("first_dealer"),
        sa.column("dealer_was_cut"), sa.column("version"), sa.column("edit_token"),
        sa.column("view_token"), sa.column("created_at"), sa.column("updated_at"),
    )  # fmt: skip
    seat = sa_table("seat", "game_id", "position", "player_id")
    change = sa.table(
        "change", sa.column("game_id"), sa.column("kind"), sa.column("after", sa.JSON),
        sa.column("version"), sa.column("created_at"),
    )  # fmt: skip
    now = datetime(2026, 1, 1, tzinfo=UTC)
    with app.app_context():
        upgrade(revision="d4a8c1e6f203")  # one registry: "Annax" found the stranger's "𝔄𝔫𝔫𝔞x"
        run = db.session.execute
        run(player.insert(), [
            {"id": 1, "name": "𝔄𝔫𝔫𝔞x", "name_key": "annax", "created_at": now},
            {"id": 2, "name": "Ben", "name_key": "ben", "created_at": now},
        ])  # fmt: skip
        for game_id, typed in ((1, ["𝔄𝔫𝔫𝔞x", "Ben"]), (2, ["Annax", "ben"]), (3, None)):
            run(game.insert(), {
                "id": game_id, "rules_json": {}, "first_dealer": 0, "dealer_was_cut": False,
                "version": 1, "edit_token": f"e{game_id}", "view_token": f"v{game_id}",
                "created_at": now, "updated_at": now,
            })  # fmt: skip
            run(
                seat.insert(),
                [{"game_id": game_id, "position": p, "player_id": p + 1} for p in (0, 1)],
            )
            if typed is not None:
                after = {"players": typed}
                run(change.insert(), {"game_id": game_id, "kind": "create", "after": after,
                                      "version": 1, "created_at": now})  # fmt: skip
        db.session.commit()
        upgrade()
        names = text("SELECT player_name FROM seat ORDER BY game_id, position")
        assert list(db.session.scalars(names)) == ["𝔄𝔫𝔫𝔞x", "Ben", "Annax", "ben", "𝔄𝔫𝔫𝔞x", "Ben"]
        assert "player" not in tables()
        db.session.remove()
        downgrade(revision="d4a8c1e6f203")
        players = db.session.execute(text("SELECT id, name, name_key FROM player ORDER BY id"))
        assert [tuple(row)[1:] for row in players] == [("𝔄𝔫𝔫𝔞x", "annax"), ("Ben", "ben")]
        seated = text("SELECT p.name FROM seat s JOIN player p ON p.id = s.player_id ORDER BY s.id")
        assert list(db.session.scalars(seated)) == ["𝔄𝔫𝔫𝔞x", "Ben"] * 3
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


def sa_table(name: str, *columns: str) -> sa.TableClause:
    """A table of plain columns, as a migration test writes rows of an older schema."""
    return sa.table(name, *(sa.column(column) for column in columns))
