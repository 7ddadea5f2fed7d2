"""Whole-instance backups: `scorekeeper backup FILE` and `scorekeeper restore FILE`.

Not a table's JSON backup (tables/backup/, what a browser downloads): this is every table,
game, link and rule set of the instance, for its operator. SQLite is copied with its online
backup API, consistent while the server writes (copying the .db alone can lose what is still
in its WAL file); PostgreSQL with pg_dump's custom format. A restore goes only into an
instance that holds no data, and the restored database is migrated to this release's head.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import URL, func, select, text

from ..extensions import db
from ..models import CardTable, Game, HouseRules
from . import schema
from .database_copies import BackupError, backup_revision, pg_dump, pg_restore, sqlite_copy

MAGIC = {b"SQLite format 3\x00": "sqlite", b"PGDMP": "postgresql"}
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
NIGHTLY = "scorekeeper"  # `backup --keep N` names its files so; only those are ever deleted


def suffix(dialect: str) -> str:
    """The file suffix of a backup of this kind of database."""
    return SUFFIXES[dialect]


def kind_of(path: Path) -> str:
    """Which database a backup file is of, by its first bytes."""
    try:
        with path.open("rb") as file:
            start = file.read(16)
    except OSError as error:
        raise BackupError(f"Cannot read {path}: {error.strerror}") from error
    for magic, kind in MAGIC.items():
        if start.startswith(magic):
            return kind
    raise BackupError(f"{path} is not a backup made by `scorekeeper backup`.")


def contents() -> str:
    """What the instance holds, in a few words: `3 games, 1 table, 2 house rule sets`."""
    kinds = {"game": Game, "table": CardTable, "house rule set": HouseRules}
    counts = {k: db.session.scalar(select(func.count()).select_from(m)) for k, m in kinds.items()}
    return ", ".join(f"{n} {kind}{'' if n == 1 else 's'}" for kind, n in counts.items())


def stamped(app: Flask, name: str) -> Path:
    """A new backup's path in BACKUP_DIR, named for the moment (names sort oldest first)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    with app.app_context():
        kind = db.engine.dialect.name
    return Path(app.config["BACKUP_DIR"]) / f"{name}-{stamp}{suffix(kind)}"


def backup(app: Flask, path: Path) -> Path:
    """Write a consistent copy of the instance's database to a new file, readable by its owner.

    A folder made for it is the owner's alone (0700), and BACKUP_DIR always is: a backup holds
    every link.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.parent.resolve() == Path(app.config["BACKUP_DIR"]).resolve():
        path.parent.chmod(0o700)
    with app.app_context():
        url = db.engine.url
    database = Path(str(url.database))
    if url.get_backend_name() == "sqlite" and not database.exists():
        raise BackupError(f"There is no database at {url.database}: nothing to back up.")
    try:  # made empty and private first: the copies write into it and keep its mode
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise BackupError(f"{path} exists already; name a new file.") from None
    try:
        if url.get_backend_name() == "sqlite":
            sqlite_copy(database, path)
        else:
            pg_dump(url, path)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return path


def keep_newest(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups `scorekeeper backup --keep` made; the deleted."""
    made = sorted(
        (found for found in folder.glob(f"{NIGHTLY}-*") if found.suffix in SUFFIXES.values()),
        key=lambda found: found.name,
    )
    old = made[: max(len(made) - keep, 0)]
    for path in old:
        path.unlink()
    return old


def _check_restorable(path: Path, kind: str, url: URL) -> None:
    """Refuse a backup of another kind of database, of a newer release, or into data."""
    if kind != url.get_backend_name():
        raise BackupError(
            f"{path} is a {kind} backup; this instance runs on {url.get_backend_name()}."
        )
    with db.engine.connect() as connection:
        if schema.holds_data(connection):
            raise BackupError("This instance holds data already: restore into an empty one.")
    revision = backup_revision(kind, path)
    if revision is None:
        raise BackupError(f"{path} holds no Scorekeeper database.")
    if not schema.known(revision):
        raise BackupError(f"{path} was made by a newer release of Scorekeeper: upgrade first.")


def restore(app: Flask, path: Path) -> str:
    """Bring a backup back into this instance, which must hold no data; what it now holds."""
    kind = kind_of(path)
    with app.app_context():
        url = db.engine.url
        if url.get_backend_name() == "sqlite":  # a new instance's folder may not exist yet
            Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
        _check_restorable(path, kind, url)
        db.engine.dispose()
        if kind == "sqlite":
            sqlite_copy(path, Path(str(url.database)))
        else:
            _drop_empty_tables()
            pg_restore(url, path)
        upgrade(directory=schema.MIGRATIONS)
        summary = contents()
        db.session.remove()
        db.engine.dispose()
    return summary


def _drop_empty_tables() -> None:
    """Drop the app's tables (checked empty), so the backup's schema is the one restored."""
    with db.engine.begin() as connection:
        for name in reversed(schema.app_tables(connection)):
            connection.execute(text(f'DROP TABLE IF EXISTS "{name}" CASCADE'))
