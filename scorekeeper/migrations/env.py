"""Alembic environment: migrate the app's database with the app's metadata."""

import logging

from alembic import context
from flask import current_app

config = context.config
logger = logging.getLogger("alembic.env")

db = current_app.extensions["migrate"].db
engine = db.engine
config.set_main_option(
    "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
)


def run_migrations_offline() -> None:
    """Emit SQL for the migrations without connecting."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=db.metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on a live connection (Flask-Migrate turns on batch mode for SQLite)."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch mode rebuilds a table by dropping it; with foreign keys on, SQLite would
            # refuse (or cascade) for the rows that point at it. The pragma only works outside
            # a transaction, so it goes straight to the driver before Alembic begins one.
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")
        context.configure(
            connection=connection,
            target_metadata=db.metadata,
            **current_app.extensions["migrate"].configure_args,
        )
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys=ON")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
