"""A fixed read on psycopg's libpq connection: the unchanged poll's, outside any transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# PostgreSQL's answer to a statement the connection has not prepared, or no longer has (psycopg
# sends DEALLOCATE ALL after a rollback when it has prepared statements of its own).
UNKNOWN_STATEMENT = b"26000"


class PreparedReads:
    """Statements with one parameter, `game_id`, each prepared once on a connection and run
    through psycopg's libpq connection (`pgconn`, its documented low-level interface).

    A statement sent alone commits itself, so psycopg's autocommit is not switched on and back,
    which ran the connection's lock and wait loop twice a poll, and no cursor is made; the rows
    are read by psycopg's own loaders, as its cursor reads them. Prepared, as psycopg's cursor
    prepares a statement run often, so PostgreSQL plans the seat poll's join once (sent
    unprepared, the server spent 3-4 times the CPU on it). `bench/cost_table.py --database
    postgresql://…` (2026-12-05, against main at 99ecfe5): the seat poll 1.04 M -> 0.943 M
    instructions (0.98 -> 1.09 of the bare static page), the game poll 1.04 M -> 0.937 M.
    """

    def __init__(self) -> None:
        from psycopg import OperationalError, pq
        from psycopg.adapt import Transformer

        self.error = OperationalError
        self.loader = Transformer
        self.sqlstate = pq.DiagnosticField.SQLSTATE
        self.prepared, self.rows_ok = pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK
        self.names: dict[str, bytes] = {}

    def rows(
        self, pgconn: Any, sql: str, params: Mapping[str, int], prepare: bool = True
    ) -> list[tuple[Any, ...]]:
        """The rows of `sql` (psycopg's `%(game_id)s` style) for the game; `prepare` False sends
        it unprepared, as psycopg does with prepare_threshold None (behind PgBouncer before
        1.21 in transaction mode, where a prepared statement may be on another connection)."""
        statement = sql.replace("%(game_id)s", "$1").encode()
        value = [b"%d" % params["game_id"]]
        if not prepare:
            result = pgconn.exec_params(statement, value)
            self.check(result, self.rows_ok)
            return self.load(result)
        name = self.names.setdefault(sql, b"scorekeeper_read_%d" % len(self.names))
        result = pgconn.exec_prepared(name, value)
        if result.error_field(self.sqlstate) == UNKNOWN_STATEMENT:
            self.check(pgconn.prepare(name, statement), self.prepared)
            result = pgconn.exec_prepared(name, value)
        self.check(result, self.rows_ok)
        return self.load(result)

    def load(self, result: Any) -> list[tuple[Any, ...]]:
        """The result's rows, read by psycopg's own loaders."""
        loader = self.loader()  # one a read: it keeps the result it loads, and threads share us
        loader.set_pgresult(result)
        rows: list[tuple[Any, ...]] = loader.load_rows(0, result.ntuples, tuple)
        return rows

    def check(self, result: Any, expected: int) -> None:
        """Raise the driver's error for a failed statement (the caller replaces the connection)."""
        if result.status != expected:
            raise self.error(result.error_message.decode(errors="replace"))
