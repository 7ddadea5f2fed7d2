"""Where a database stands against the migrations: its revision, the head, whether it holds data."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import Connection, column, func, inspect, select, table

from ..extensions import db

MIGRATIONS = str(Path(__file__).parent.parent / "migrations")
VERSIONS = table("alembic_version", column("version_num"))


# Not game data: the migrations shipped with the code, one directory.
@lru_cache(maxsize=1)
def _scripts() -> ScriptDirectory:
    """The migrations, read once per process (a health check asks often)."""
    return ScriptDirectory(MIGRATIONS)


def heads() -> frozenset[str]:
    """The newest revision of each branch of the migrations (one, normally)."""
    return frozenset(_scripts().get_heads())


def known(revision: str) -> bool:
    """Whether this release's migrations hold a revision (a newer release's they would not)."""
    return any(script.revision == revision for script in _scripts().walk_revisions())


def revisions(connection: Connection) -> frozenset[str]:
    """The revisions the database is at; empty for a database never migrated.

    Read straight from Alembic's table: its MigrationContext logs two lines each time, noise
    in a health check's log.
    """
    if not inspect(connection).has_table(VERSIONS.name):
        return frozenset()
    return frozenset(connection.scalars(select(VERSIONS.c.version_num)))


def app_tables(connection: Connection) -> list[str]:
    """The app's tables (and Alembic's) that this database has."""
    present = set(inspect(connection).get_table_names())
    ours = [table.name for table in db.metadata.sorted_tables]
    return [name for name in [*ours, VERSIONS.name] if name in present]


def holds_data(connection: Connection) -> bool:
    """Whether any table of the app's has a row."""
    present = set(app_tables(connection))
    return any(
        connection.scalar(select(func.count()).select_from(table))
        for table in db.metadata.sorted_tables
        if table.name in present
    )
