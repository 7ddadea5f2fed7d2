"""What a process keeps of recently shown games: a small least-recently-used map per app."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from cachetools import LRUCache
from flask import current_app

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class Recent(Generic[K, V]):
    """Up to `size` values by key, the least recently used dropped first (cachetools' LRU,
    which is not thread-safe on its own: a read reorders it, so reads take the lock too)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: LRUCache[K, V] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def find(self, key: K) -> tuple[bool, V | None]:
        """Whether a value is kept under this key (None may be one), and the value."""
        with self._lock:
            try:
                return True, self._values[key]
            except KeyError:
                return False, None

    def get(self, key: K) -> V | None:
        """The value kept under this key, if any."""
        return self.find(key)[1]

    def put(self, key: K, value: V) -> None:
        """Keep a value, dropping the least recently used beyond the size."""
        with self._lock:
            self._values[key] = value


def per_app(name: str, make: Callable[[], T]) -> T:
    """The current app's one `name` (a test's database is not another's), made on first use."""
    found = current_app.extensions.get(name)
    if found is None:
        found = current_app.extensions.setdefault(name, make())
    return found  # type: ignore[no-any-return]
