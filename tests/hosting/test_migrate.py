"""The migrate step (`scorekeeper migrate`, and `serve` unless --no-migrate) backs the database
up before it changes a schema that holds data, and migrates once when processes start at once."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.hosting import schema, upgrades
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I
from tests.databases import migrate
from tests.hosting.conftest import new_postgres_database
from tests.hosting.test_instance_backup import SCRIPT, command

pytestmark = pytest.mark.storage

PLAYERS = ["Bartholomeus", "Concepción", "Marie-Claire", "Guðmundur"]


def app_on(url: str, tmp_path: Path) -> Flask:
    """The app as `scorekeeper migrate` makes it, its backups in tmp_path/backups."""
    settings = {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x", "BACKUP_DIR": str(tmp_path)}
    return create_app(settings)


def games_in(app: Flask) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(Game)) or 0
        db.session.remove()
        db.engine.dispose()
    return count


@pytest.fixture
def behind(database_url: str, tmp_path: Path) -> Iterator[str]:
    """The database as the release before left it: one migration short of head, with a game."""
    app = app_on(database_url, tmp_path)
    with app.app_context():
        actions.create_game(MAY_I, PLAYERS, 0)
        db.session.remove()
        db.engine.dispose()
    migrate(database_url, str(tmp_path), revision="-1")
    yield database_url


def test_a_due_migration_of_a_database_with_data_is_backed_up_first(
    behind: str, tmp_path: Path
) -> None:
    saved = upgrades.migrate(app_on(behind, tmp_path / "backups"))
    assert saved is not None and saved.parent == tmp_path / "backups"
    app = app_on(behind, tmp_path)
    with app.app_context(), db.engine.connect() as connection:
        assert schema.revisions(connection) == schema.heads()
    assert games_in(app) == 1
    assert saved.name.startswith("before-migration-")
    assert saved.read_bytes()[:5] in (b"SQLit", b"PGDMP")


def test_the_backup_before_a_migration_restores_what_was_there(
    behind: str, empty_url: str, tmp_path: Path
) -> None:
    saved = upgrades.migrate(app_on(behind, tmp_path / "backups"))
    assert saved is not None
    assert command(empty_url, "restore", saved, data=tmp_path).returncode == 0
    assert games_in(app_on(empty_url, tmp_path)) == 1


def test_nothing_is_backed_up_without_data_or_without_a_due_migration(
    database_url: str, tmp_path: Path
) -> None:
    migrate(database_url, str(tmp_path), revision="-1")  # behind, but empty
    assert upgrades.migrate(app_on(database_url, tmp_path / "backups")) is None
    app = app_on(database_url, tmp_path)
    with app.app_context():
        actions.create_game(MAY_I, PLAYERS, 0)
        db.session.remove()
        db.engine.dispose()
    assert upgrades.migrate(app_on(database_url, tmp_path / "backups")) is None  # at head
    assert not (tmp_path / "backups").exists()


@pytest.fixture
def new_postgres(postgres_url: str) -> Iterator[str]:
    """A PostgreSQL database nothing migrated yet."""
    with new_postgres_database() as url:
        yield url


def test_processes_starting_at_once_migrate_postgresql_once(
    new_postgres: str, tmp_path: Path
) -> None:
    env = {"SCOREKEEPER_DATABASE_URL": new_postgres, "SCOREKEEPER_SECRET_KEY": "x"}
    runs = [
        subprocess.Popen(
            [str(SCRIPT), "migrate"],
            env={**os.environ, **env, "SCOREKEEPER_DATA_DIR": str(tmp_path / str(i))},
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(3)
    ]
    errors = [run.communicate(timeout=120)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], errors
    app = app_on(new_postgres, tmp_path)
    with app.app_context(), db.engine.connect() as connection:
        assert schema.revisions(connection) == schema.heads()
    with app.app_context():
        db.engine.dispose()
