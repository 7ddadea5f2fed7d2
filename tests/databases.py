"""Test databases: migrated once per run and backend, then emptied (not rebuilt) per test."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import psycopg
from alembic.script import ScriptDirectory
from flask import Flask
from flask_migrate import downgrade, upgrade

import scorekeeper
from scorekeeper import create_app
from scorekeeper.config import PREFIX
from scorekeeper.extensions import db
from scorekeeper.rate_counts import file_uri
from tests.app_builds import TEMPLATE_CODE

MIGRATIONS = Path(scorekeeper.__file__).parent / "migrations"
# A change a test left locked would hang the next test's clean-up; fail with the reason instead.
LOCK_TIMEOUT = "SET lock_timeout = '10s'"


def make_app(
    database_url: str, instance_path: str, served_on: Sequence[str] = (), **overrides: object
) -> Flask:
    """An app for tests on the given database, CSRF off unless asked for.

    `served_on`: the hosts `scorekeeper serve` would answer besides localhost.
    """
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-only-secret",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,  # tests start games fast; tests/attacks turn limits on
        **overrides,
    }
    if not os.environ.get(PREFIX + "RATELIMIT_STORAGE_URI"):  # the environment's, else its own
        # Counted in the test's own folder, as serve counts in the data folder.
        config.setdefault("RATELIMIT_STORAGE_URI", file_uri(instance_path))
    app = create_app(config, served_on)
    app.instance_path = instance_path
    app.jinja_env.bytecode_cache = TEMPLATE_CODE  # compiled once per run (tests/app_builds.py)
    return app


def close(app: Flask) -> None:
    """Close an app's sessions and database connections (a test's end)."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@contextmanager
def apps(database_url: str, instance_path: str) -> Iterator[Callable[..., Flask]]:
    """Makes apps on the database as make_app does; closes their connections afterwards."""
    made: list[Flask] = []

    def make(served_on: Sequence[str] = (), **overrides: object) -> Flask:
        made.append(make_app(database_url, instance_path, served_on, **overrides))
        return made[-1]

    yield make
    for app in made:
        close(app)


def migrate(database_url: str, instance_path: str, revision: str = "head") -> None:
    """Run the real migrations on a database, up to head or down to `revision`."""
    app = make_app(database_url, instance_path)
    with app.app_context():
        if revision == "head":
            upgrade()
        else:
            downgrade(revision=revision)
        db.session.remove()
        db.engine.dispose()


def head() -> str | None:
    """The newest migration's revision."""
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def sqlite_template(folder: Path) -> Path:
    """A SQLite file migrated to head, for each test to copy."""
    path = folder / "scorekeeper.db"
    migrate(f"sqlite:///{path}", str(folder))
    # Disposing the engine closed the last connection, which folds the WAL into the file.
    assert not path.with_name(f"{path.name}-wal").exists()
    return path


def sqlite_copy(template: Path, folder: Path) -> str:
    """The URL of a fresh copy of the migrated template: a clean database of this test's own."""
    path = folder / "scorekeeper.db"
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


class PostgresDatabase:
    """The run's PostgreSQL database: migrated once, emptied before each test."""

    def __init__(self, url: str, instance_path: str) -> None:
        self.url, self.instance_path = url, instance_path
        migrate(url, instance_path)
        self.connection = psycopg.connect(url, autocommit=True)
        self.connection.execute(LOCK_TIMEOUT)
        self.head, self.emptying = head(), self._emptying()

    def _emptying(self) -> str:
        """One round trip that deletes every row, children first, and restarts every id."""
        tables = [table.name for table in reversed(db.metadata.sorted_tables)]
        sequences = self.connection.execute(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
        ).fetchall()
        deletes = [f'DELETE FROM "{table}"' for table in tables]
        restarts = [f'ALTER SEQUENCE "{name}" RESTART' for (name,) in sequences]
        return "; ".join(deletes + restarts)

    def _version(self) -> str | None:
        """The revision the database is at, None when it has no migrations table."""
        try:
            row = self.connection.execute("SELECT version_num FROM alembic_version").fetchone()
        except psycopg.errors.UndefinedTable:
            return None
        return None if row is None else str(row[0])

    def clean(self) -> str:
        """Empty the database for the next test; migrate it again if a test took it down."""
        if self._version() != self.head:
            migrate(self.url, self.instance_path)
        self.connection.execute(self.emptying)
        return self.url

    def close(self) -> None:
        """Leave the database as the run found it: no tables but Alembic's."""
        self.connection.close()
        migrate(self.url, self.instance_path, revision="base")
