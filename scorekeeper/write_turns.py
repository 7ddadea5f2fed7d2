"""SQLite's writers take turns in the order they came, instead of racing for the write lock.

SQLite's busy handler waits for the write lock by sleeping, longer each time (up to 100 ms
between tries), and whoever tries at the right moment goes first: with 8 phones writing at
once a write waited up to a second (p99) while each held the lock about 10 ms. Here the
writers of one process queue in arrival order and only the first asks SQLite, every
millisecond, so a lock another process (a second gunicorn worker) lets go is taken at once.
The turn ends after the transaction; the database's own lock still guards the data.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

TURN = "scorekeeper_write_turn"  # where a connection keeps the turn it holds
POLL = 0.001  # seconds between tries for a lock another process holds


class Turns:
    """One database's queue of writers: first come, first served."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._queue: deque[threading.Event] = deque()

    def wait(self, seconds: float) -> threading.Event | None:
        """Wait to be first, at most `seconds`; the turn, or None when it did not come."""
        turn = threading.Event()
        with self._mutex:
            self._queue.append(turn)
            if len(self._queue) == 1:
                turn.set()
        if turn.wait(seconds):
            return turn
        with self._mutex:
            if turn.is_set():  # it came as the wait ran out
                return turn
            self._queue.remove(turn)
        return None

    def end(self, turn: threading.Event) -> None:
        """Give the turn to the next writer."""
        with self._mutex:
            self._queue.remove(turn)
            if self._queue:
                self._queue[0].set()


def begin_in_turn(connection: Connection, turns: Turns) -> None:
    """BEGIN IMMEDIATE once this writer's turn comes, within the connection's busy timeout;
    past it, "database is locked" reaches the error pages (503, Retry-After) as before."""
    end_turn(turns, connection.info)  # a connection that began again: its last one has ended
    raw: Any = connection.connection.dbapi_connection
    milliseconds = raw.execute("PRAGMA busy_timeout").fetchone()[0]
    deadline = time.monotonic() + milliseconds / 1000
    turn = turns.wait(milliseconds / 1000)
    if turn is not None:
        connection.info[TURN] = turn
    raw.execute("PRAGMA busy_timeout=0")  # this loop waits, not SQLite's sleeping busy handler
    try:
        while True:
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                return
            except OperationalError as error:
                if turn is None or time.monotonic() >= deadline or not _busy(error):
                    raise
            time.sleep(POLL)
    finally:
        raw.execute(f"PRAGMA busy_timeout={int(milliseconds)}")


def _busy(error: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the lock."""
    return "locked" in str(error.orig) or "busy" in str(error.orig)


def end_turn(turns: Turns, info: dict[Any, Any]) -> None:
    """End the turn a connection holds, if any."""
    turn = info.pop(TURN, None)
    if turn is not None:
        turns.end(turn)
