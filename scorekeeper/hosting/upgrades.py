"""The database's schema against the migrations: where it stands, and bringing it to head.

`scorekeeper migrate` (and `serve` unless --no-migrate) backs the database up first when a
migration is due and the database holds data, into BACKUP_DIR. On PostgreSQL the whole step
holds an advisory lock, so several processes starting at once migrate once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import text

from ..extensions import db
from . import instance_backup, schema

LOCK = 0x5C0_2E  # pg_advisory_lock key: any fixed number no other tool of ours takes


@contextmanager
def migration_lock() -> Iterator[None]:
    """On PostgreSQL, one process at a time past this point; SQLite's own lock suffices."""
    if db.engine.dialect.name != "postgresql":
        yield
        return
    with db.engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK})
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK})
            connection.commit()


def migrate(app: Flask) -> Path | None:
    """Bring the schema to head, backing the database up first if it changes one with data.

    Answers the backup's path, or None when none was needed.
    """
    with app.app_context():
        with migration_lock():
            with db.engine.connect() as connection:
                due = schema.revisions(connection) != schema.heads()
                worth = due and schema.holds_data(connection)
            saved = (
                instance_backup.backup(app, instance_backup.stamped(app, "before-migration"))
                if worth
                else None
            )
            if due:
                upgrade(directory=schema.MIGRATIONS)
        db.engine.dispose()  # no connection is carried into a forked worker
    return saved
