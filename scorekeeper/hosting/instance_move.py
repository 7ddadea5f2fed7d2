"""`scorekeeper move-to URL`: the whole instance copied into an empty PostgreSQL database.

For a family that outgrows SQLite: every row of every table, read in one snapshot of this
instance, written in one transaction into a database migrated to this release's head, each id
kept (so every link and every backup's reference still names the same game), then each id
sequence moved past the copied rows. The source is left as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import Connection, Engine, Table, bindparam, inspect, select, text

from .. import create_app
from ..config import with_psycopg
from ..extensions import db
from . import schema
from .database_copies import BackupError
from .instance_backup import contents

BATCH = 1000  # rows per INSERT: a family's thousands of changes in a few statements


def move_to(app: Flask, url: str) -> str:
    """Copy this instance into the empty PostgreSQL database at url; what it now holds."""
    if not with_psycopg(url).startswith("postgresql+psycopg://"):
        raise BackupError("move-to takes a PostgreSQL URL: postgresql://user:password@host/name")
    with app.app_context():
        source_engine = db.engine
        with source_engine.connect() as source:
            if schema.revisions(source) != schema.heads():
                raise BackupError("Migrate this instance first: scorekeeper migrate")
    target = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": app.secret_key})
    with target.app_context():
        _check_empty(db.engine)
        upgrade(directory=schema.MIGRATIONS)
        snapshot = {} if source_engine.name == "sqlite" else {"isolation_level": "REPEATABLE READ"}
        with (
            source_engine.connect().execution_options(**snapshot) as source,
            source.begin(),
            db.engine.begin() as copy,
        ):
            for table in db.metadata.sorted_tables:
                _copy_table(source, copy, table)
                _move_sequence(copy, table)
        summary = contents()
        db.session.remove()
        db.engine.dispose()
    source_engine.dispose()
    return summary


def _check_empty(engine: Engine) -> None:
    """Refuse a database that holds rows of ours or any table that is not ours."""
    with engine.connect() as connection:
        present = set(inspect(connection).get_table_names())
        foreign = sorted(present - set(schema.app_tables(connection)))
        if foreign:
            raise BackupError(
                f"That database holds other tables ({', '.join(foreign[:5])}): "
                "move into an empty database."
            )
        if schema.holds_data(connection):
            raise BackupError(
                "That database holds Scorekeeper data already: move into an empty one."
            )


def _copy_table(source: Connection, copy: Connection, table: Table) -> None:
    """Every row of one table, in key order; a column naming a row of its own table after.

    table_player.merged_into_id may name a person added later than the merged one, and
    PostgreSQL checks each row's foreign key as it is inserted.
    """
    own = [key.parent.name for key in table.foreign_keys if key.column.table is table]
    later: list[dict[str, Any]] = []
    rows = source.execute(select(table).order_by(*table.primary_key.columns)).mappings()
    for batch in rows.partitions(BATCH):
        written = [_as_written(row) for row in batch]
        later += [
            {"key": row["id"], **{f"new_{name}": row[name] for name in own}}
            for row in written
            if any(row[name] is not None for name in own)
        ]
        copy.execute(table.insert(), [{**row, **dict.fromkeys(own)} for row in written])
    if later:
        values = {name: bindparam(f"new_{name}") for name in own}
        copy.execute(table.update().where(table.c.id == bindparam("key")).values(values), later)


def _as_written(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row as PostgreSQL takes it: SQLite keeps UTC moments without their zone."""
    return {
        name: value.replace(tzinfo=UTC)
        if isinstance(value, datetime) and value.tzinfo is None
        else value
        for name, value in row.items()
    }


def _move_sequence(copy: Connection, table: Table) -> None:
    """The next id past the copied rows, so the moved instance's new rows take new ids."""
    column = table.autoincrement_column
    if column is not None:
        copy.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', '{column.name}'), "
                f'COALESCE(MAX("{column.name}"), 0) + 1, false) FROM "{table.name}"'
            )
        )
