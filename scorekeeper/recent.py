"""What a process keeps of recently shown games: a small least-recently-used map per app."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from flask import current_app

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class Recent(Generic[K, V]):
    """Up to `size` values by key, the least recently used dropped first; safe across threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept under this key, if any."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep a value, dropping the least recently used beyond the size."""
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)


def per_app(name: str, make: Callable[[], T]) -> T:
    """The current app's one `name` (a test's database is not another's), made on first use."""
    found = current_app.extensions.get(name)
    if found is None:
        found = current_app.extensions.setdefault(name, make())
    return found  # type: ignore[no-any-return]
