"""Per-connection database settings, and the per-game lock every change takes."""

from __future__ import annotations

from collections.abc import Collection
from functools import partial
from typing import Any

from flask import Flask, current_app, request
from sqlalchemy import Row, bindparam, event, select
from sqlalchemy.engine import Connection, Engine

from .extensions import db
from .models import CardTable, Game, HouseRules
from .write_turns import GameTurns, Turns, begin_in_turn, end_turn, wait_game_turn

IMMEDIATE = "scorekeeper_immediate"  # execution option: take SQLite's write lock at BEGIN
GAME_TURNS = "scorekeeper.game_turns"  # the app's GameTurns on PostgreSQL, in app.extensions
TURN_WAIT = 5.0  # seconds a PostgreSQL writer waits for its turn before asking for the lock


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Turn on WAL and foreign keys for every SQLite connection; let SQLAlchemy say BEGIN."""
    cursor = dbapi_connection.cursor()
    # WAL lets phones read the score sheet while another phone writes.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # Every acknowledged change survives a power cut: WAL syncs at each commit, not only at
    # checkpoints (NORMAL would be faster and lose the last commits).
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
    # pysqlite would BEGIN lazily at the first write, too late to lock; _sqlite_begin does it.
    dbapi_connection.isolation_level = None


def _sqlite_begin(turns: Turns, connection: Connection) -> None:
    """Begin each transaction; a change takes the write lock first so it sees the latest facts,
    in its turn among the process's writers (write_turns)."""
    options = connection.get_execution_options()
    if options.get("isolation_level") == "AUTOCOMMIT":
        return  # a lone read (the unchanged poll) is atomic without a transaction
    if options.get(IMMEDIATE):
        begin_in_turn(connection, turns)
    else:
        connection.exec_driver_sql("BEGIN")


def _turns_end(engine: Engine) -> None:
    """Let each writer end its turn once its transaction has (at its connection's return to the
    pool: the commit or rollback is done by then), or when its connection is invalidated or
    closed instead, so no turn outlives its writer."""
    for ends in ("checkin", "invalidate", "soft_invalidate", "close", "detach"):
        event.listen(engine, ends, lambda _dbapi, record, *_: end_turn(record.info))


def _locked_in_turn(game_id: int) -> Connection:
    """The session's connection, once this writer's turn at the game has come (write_turns):
    PostgreSQL's row lock lets a later writer overtake waiting ones (each change makes a new
    row version, which waiters race for); the row lock still guards the game against other
    processes' writers and one whose wait for its turn ran out."""
    connection = db.session.connection()
    wait_game_turn(current_app.extensions[GAME_TURNS], connection.info, game_id, TURN_WAIT)
    return connection


def lock_game(game_id: int) -> None:
    """Serialize changes to one game: the first statement of a request that changes it.

    PostgreSQL locks the game's row; SQLite, which locks whole databases, takes its write
    lock at BEGIN. Either way a second phone's change waits, then sees the first one's.
    """
    if db.engine.dialect.name == "sqlite":
        db.session.connection(execution_options={IMMEDIATE: True})
        return
    _locked_in_turn(game_id).execute(select(Game.id).where(Game.id == game_id).with_for_update())


# Built once, so each change neither builds it nor works out its cache key again: a Core
# statement on the session's connection, no ORM step (an API buy 9.39 M -> 8.68 M
# instructions a request, bench/cost_table.py; the history's and the buy's statements built
# once too, 8.68 M -> 7.53 M).
GAME_ROW = select(Game.id, Game.version, Game.edit_token, Game.view_token).where(
    Game.id == bindparam("game_id")
)
GAME_ROW_LOCKED = GAME_ROW.with_for_update()


def lock_game_row(game_id: int) -> Row[tuple[int, int, str, str]] | None:
    """lock_game, answering the game's id, version and links as the lock finds them.

    On PostgreSQL the lock's own statement reads them (SELECT … FOR UPDATE returns the row as
    the last change committed it); on SQLite one select after BEGIN IMMEDIATE. None: no game.
    """
    if db.engine.dialect.name == "sqlite":
        connection = db.session.connection(execution_options={IMMEDIATE: True})
        return connection.execute(GAME_ROW, {"game_id": game_id}).one_or_none()
    return _locked_in_turn(game_id).execute(GAME_ROW_LOCKED, {"game_id": game_id}).one_or_none()


def lock_games(game_ids: Collection[int]) -> dict[int, int]:
    """Lock these games in order of id, for a change of a table's people that all of them show
    (tables/people.py), and read each one's version as the lock finds it. SQLite's write lock,
    taken by the table's (lock_table), holds them already."""
    query = select(Game.id, Game.version).where(Game.id.in_(list(game_ids))).order_by(Game.id)
    if db.engine.dialect.name != "sqlite":
        query = query.with_for_update()
    return {int(game_id): int(version) for game_id, version in db.session.execute(query)}


def lock_table(table_id: int) -> None:
    """Serialize changes to one table's people, as lock_game does for a game."""
    _lock_row(CardTable, table_id)


def lock_rule_set(ruleset_id: int) -> None:
    """Serialize changes to one saved rule set, as lock_game does for a game."""
    _lock_row(HouseRules, ruleset_id)


def _lock_row(model: type[CardTable] | type[HouseRules], row_id: int) -> None:
    """SQLite's write lock at BEGIN, or PostgreSQL's lock on the row, before anything reads it."""
    if db.engine.dialect.name == "sqlite":
        lock_writes()
        return
    db.session.execute(select(model.id).where(model.id == row_id).with_for_update())


def lock_writes() -> None:
    """On SQLite, hold the write lock before reading what a new game's rows depend on.

    A transaction that read first and wrote later fails at once with "database is locked"
    when another phone wrote meanwhile (its snapshot is stale); taking the lock at BEGIN
    waits its turn instead. PostgreSQL needs nothing here: its unique keys catch a race.
    """
    if db.engine.dialect.name != "sqlite":
        return
    if db.session().in_transaction():
        if db.session.connection().get_execution_options().get(IMMEDIATE):
            return
        db.session.commit()  # ends a read-only snapshot; the lock needs a fresh one
    db.session.connection(execution_options={IMMEDIATE: True})


SNAPSHOT_PATHS = ("/g/", "/api/")  # where a read keeps what it derived under the version read


def _read_snapshot(_endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """On PostgreSQL, let a game page or API read see one moment: the version it reads first
    and the facts it reads after (READ COMMITTED would show a change committed in between, and
    what is kept under the older version would hold the newer facts). SQLite's transaction
    is one snapshot already."""
    if request.method in ("GET", "HEAD") and request.path.startswith(SNAPSHOT_PATHS):
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def init_app(app: Flask) -> None:
    """Attach the SQLite settings to the app's engine; PostgreSQL reads see one snapshot."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
            event.listen(db.engine, "begin", partial(_sqlite_begin, Turns()))
        else:
            app.extensions[GAME_TURNS] = GameTurns()
            app.url_value_preprocessor(_read_snapshot)
        _turns_end(db.engine)
