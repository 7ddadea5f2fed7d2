"""The rate limits' counts in a SQLite file of the data folder (`sqlite:///<path>`): one count
for every process of this machine, with no server of its own. Redis shares them between machines.

The `limits` library stores counts in memory (one process), Redis, Memcached, MongoDB or etcd;
none of those comes with a family's laptop, so this is the fixed window's storage on a file.
Each count is one row, its increment one statement in a write transaction, so two processes
never both take the last one. The counts are disposable: no fsync, and a lost file loses nothing.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

from limits.storage import Storage

SCHEME = "sqlite"
PRUNE_EVERY = 60.0  # s: ended windows are deleted at most this often per process
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS counts"
    " (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL) WITHOUT ROWID"
)
# A window that has ended starts again at this hit; one that has not counts it.
INCREMENT = """
INSERT INTO counts (key, count, expires) VALUES (:key, :amount, :now + :expiry)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN expires <= :now THEN :amount ELSE count + :amount END,
    expires = CASE WHEN expires <= :now THEN :now + :expiry ELSE expires END
"""


def file_uri(folder: str) -> str:
    """The default storage: rate-limits.db in the data folder."""
    return f"{SCHEME}:///{Path(folder) / 'rate-limits.db'}"


class FileCounts(Storage):
    """Fixed-window counts in a SQLite file, one connection per thread and process."""

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 (the type limits declares)

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: float | str | bool):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = Path(uri.removeprefix(f"{SCHEME}:///"))
        self.local = threading.local()
        self.pruned = 0.0

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection; a forked worker opens its own."""
        if getattr(self.local, "pid", None) != os.getpid():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            connection.execute("PRAGMA synchronous=OFF")
            connection.execute(SCHEMA)
            self.local.connection, self.local.pid = connection, os.getpid()
        connection: sqlite3.Connection = self.local.connection
        return connection

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        """Count `amount` in the key's window, starting one of `expiry` s if it has ended."""
        connection, now = self._connection(), time.time()
        connection.execute("BEGIN IMMEDIATE")
        try:
            if now - self.pruned > PRUNE_EVERY:
                self.pruned = now
                connection.execute("DELETE FROM counts WHERE expires <= ?", (now,))
            values = {"key": key, "amount": amount, "now": now, "expiry": expiry}
            connection.execute(INCREMENT, values)
            count = connection.execute("SELECT count FROM counts WHERE key = ?", (key,))
            counted = int(count.fetchone()[0])
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        return counted

    def _live(self, key: str) -> tuple[int, float] | None:
        """The key's count and its window's end, unless that has passed."""
        query = "SELECT count, expires FROM counts WHERE key = ? AND expires > ?"
        row = self._connection().execute(query, (key, time.time())).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    def get(self, key: str) -> int:
        """The key's count in its current window."""
        live = self._live(key)
        return 0 if live is None else live[0]

    def get_expiry(self, key: str) -> float:
        """When the key's window ends (now, when it has none)."""
        live = self._live(key)
        return time.time() if live is None else live[1]

    def check(self) -> bool:
        """Whether the file can be read."""
        try:
            self._connection().execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        """Forget every count."""
        return self._connection().execute("DELETE FROM counts").rowcount

    def clear(self, key: str) -> None:
        """Forget one key's count."""
        self._connection().execute("DELETE FROM counts WHERE key = ?", (key,))
