"""A process's writers take turns in the order they came, instead of racing for the lock.

SQLite's busy handler waits for the write lock by sleeping, longer each time (up to 100 ms
between tries), and whoever tries at the right moment goes first: with 8 phones writing at
once a write waited up to a second (p99) while each held the lock about 10 ms. Here the
writers of one process draw a ticket as they come and each waits to be woken; the holder's end
(its commit or rollback, at its connection's return to the pool) hands the turn to the next
ticket and wakes it at once, so no writer of the process polls for another of the process.
Only the writer whose turn it is asks SQLite: a lock another process holds (a second gunicorn
worker) is still SQLite's own, which that writer tries every millisecond, so it is taken as
soon as it is let go. The database's lock still guards the data; the turn orders the asking.

PostgreSQL locks a game's row, and its waiters race for the row's new version after each
change: 8 writers on one game in one process, a later one overtook up to 35 earlier ones
(tests/web/test_write_turns.py). So there each game's writers take turns too (GameTurns),
before they ask for the row's lock. The holder wakes the next one itself, while it still runs,
so it keeps the state its change made before that one reads the version: without turns 65 %
of those writes found no state kept and read the game's facts again under the lock (5 more
statements, the hold 7 -> 17 ms), with turns 2 in 3,968. One game's p99, 8 writers
(bench/write_tail.py, PostgreSQL, A B B A at load 3.5 to 6.6): 220-265 ms without the turns,
85-194 ms with them (docs/PERFORMANCE.md, "The write tail").
"""

from __future__ import annotations

import threading
import time
from functools import partial
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

TURN = "scorekeeper_write_turn"  # where a connection keeps the end of the turn it holds
POLL = 0.001  # seconds between tries for a lock another process holds


class Turns:
    """One database's writers in one process: tickets served in the order they were drawn."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._drawn = 0  # the next ticket to draw
        self._serving = 0  # the ticket whose turn it is
        # Each waiting ticket's own wake-up, so an end wakes the next writer alone (a shared
        # condition's notify_all would wake all 7 others to compete for the GIL with the holder).
        self._waiting: dict[int, threading.Event] = {}

    @property
    def drawn(self) -> int:
        """How many tickets were drawn: the writers that came so far."""
        return self._drawn

    def wait(self, seconds: float) -> int | None:
        """Wait for this writer's turn, at most `seconds`; its ticket, or None when it did not
        come (its place is then skipped, so the writers after it are not held up)."""
        with self._mutex:
            ticket, self._drawn = self._drawn, self._drawn + 1
            if self._serving == ticket:
                return ticket  # no one before it: no wake-up to make
            woken = self._waiting[ticket] = threading.Event()
        woken.wait(seconds)
        with self._mutex:
            del self._waiting[ticket]
            if self._serving == ticket:  # it came, perhaps as the wait ran out
                return ticket
            return None

    def end(self, ticket: int) -> None:
        """End this ticket's turn and wake the next writer still waiting."""
        with self._mutex:
            self._serving = ticket + 1
            while self._serving < self._drawn and self._serving not in self._waiting:
                self._serving += 1  # a writer that stopped waiting: its place is skipped
            if (woken := self._waiting.get(self._serving)) is not None:
                woken.set()


class GameTurns:
    """Each game's writers in one process take turns, a Turns per game (PostgreSQL locks rows,
    so writers of two games never wait for each other); a game's Turns is dropped as soon as
    none of its writers holds or waits for a turn, so a process keeps none for idle games."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._games: dict[int, tuple[Turns, int]] = {}  # each game's turns, writers in them

    def games(self) -> int:
        """How many games have writers holding or waiting for a turn now."""
        return len(self._games)

    def wait(self, game_id: int, seconds: float) -> int | None:
        """Wait for this writer's turn at the game, at most `seconds` (Turns.wait)."""
        with self._mutex:
            turns, writers = self._games.get(game_id) or (Turns(), 0)
            self._games[game_id] = (turns, writers + 1)
        ticket = turns.wait(seconds)
        if ticket is None:
            self._leave(game_id)
        return ticket

    def end(self, game_id: int, ticket: int) -> None:
        """End this ticket's turn at the game and wake its next writer."""
        self._games[game_id][0].end(ticket)  # kept while this writer is in it
        self._leave(game_id)

    def _leave(self, game_id: int) -> None:
        with self._mutex:
            turns, writers = self._games[game_id]
            if writers == 1:
                del self._games[game_id]
            else:
                self._games[game_id] = (turns, writers - 1)


def begin_in_turn(connection: Connection, turns: Turns) -> None:
    """BEGIN IMMEDIATE once this writer's turn comes, within the connection's busy timeout;
    past it, "database is locked" reaches the error pages (503, Retry-After) as before."""
    end_turn(connection.info)  # a connection that began again: its last one has ended
    raw: Any = connection.connection.dbapi_connection
    milliseconds = raw.execute("PRAGMA busy_timeout").fetchone()[0]
    deadline = time.monotonic() + milliseconds / 1000
    ticket = turns.wait(milliseconds / 1000)
    if ticket is not None:
        connection.info[TURN] = partial(turns.end, ticket)
    raw.execute("PRAGMA busy_timeout=0")  # this loop waits, not SQLite's sleeping busy handler
    try:
        while True:
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                return
            except OperationalError as error:
                if ticket is None or time.monotonic() >= deadline or not _busy(error):
                    raise
            time.sleep(POLL)  # only for another process's lock: this one's hand over the turn
    finally:
        raw.execute(f"PRAGMA busy_timeout={int(milliseconds)}")


def _busy(error: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the lock."""
    return "locked" in str(error.orig) or "busy" in str(error.orig)


def end_turn(info: dict[Any, Any]) -> None:
    """End the turn a connection holds, if any."""
    end = info.pop(TURN, None)
    if end is not None:
        end()


def wait_game_turn(turns: GameTurns, info: dict[Any, Any], game_id: int, seconds: float) -> None:
    """Wait for a connection's turn at the game, at most `seconds`; past them it goes on
    without one. One turn a transaction: a second game's lock is the database's alone, so a
    writer that holds a turn never waits for another (two could wait for each other's)."""
    if TURN in info:
        return
    ticket = turns.wait(game_id, seconds)
    if ticket is not None:
        info[TURN] = partial(turns.end, game_id, ticket)
