"""Per-connection database settings."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import event

from .extensions import db


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Turn on WAL and foreign keys for every SQLite connection."""
    cursor = dbapi_connection.cursor()
    # WAL lets phones read the score sheet while another phone writes.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def init_app(app: Flask) -> None:
    """Attach the SQLite settings to the app's engine."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
