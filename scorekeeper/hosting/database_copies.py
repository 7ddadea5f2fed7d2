"""Copies of one database: SQLite's online backup API, PostgreSQL's pg_dump and pg_restore.

instance_backup.py decides what to copy where; this module only runs the copy.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from sqlalchemy import URL


class BackupError(Exception):
    """A backup or restore refused, with the reason for the operator."""


def sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup, into one self-contained file (no WAL beside it)."""
    try:
        with (
            closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as reader,
            closing(sqlite3.connect(target)) as copy,
        ):
            reader.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as error:
        raise BackupError(f"Cannot copy {source} to {target}: {error}") from error


def pg_tool(tool: str, url: URL | None, *arguments: str) -> str:
    """Run pg_dump or pg_restore, on the database when a URL is given; its standard output."""
    program = shutil.which(tool)
    if program is None:
        raise BackupError(f"{tool} not found: install PostgreSQL's client tools.")
    command, env = [program, *arguments], dict(os.environ)
    if url is not None:  # the password in the environment, not in the process list
        env["PGPASSWORD"] = url.password or env.get("PGPASSWORD", "")
        conninfo = url.set(drivername="postgresql", password=None)
        command.append(f"--dbname={conninfo.render_as_string(hide_password=False)}")
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise BackupError(f"{tool} failed: {done.stderr.strip()}")
    return done.stdout


def pg_dump(url: URL, path: Path) -> None:
    """The database in pg_dump's custom format, without owners or grants."""
    pg_tool("pg_dump", url, "--format=custom", "--no-owner", "--no-privileges", f"--file={path}")


def pg_restore(url: URL, path: Path) -> None:
    """A custom-format dump into the database, all of it or nothing."""
    options = ("--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error")
    pg_tool("pg_restore", url, *options, str(path))


def backup_revision(kind: str, path: Path) -> str | None:
    """The migration a backup's database was at, read from the file; None if it has none."""
    if kind == "postgresql":
        listing = pg_tool(
            "pg_restore", None, "--data-only", "--table=alembic_version", "--file=-", str(path)
        )
        _, found, rows = listing.partition("FROM stdin;\n")
        return (rows.split("\n", 1)[0].strip() or None) if found else None
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as reader:
            row = reader.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])
