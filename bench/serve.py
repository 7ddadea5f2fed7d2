"""Serve one app for the bench with waitress, as `make run` did: scorekeeper or the baseline.

Run: python bench/serve.py scorekeeper|baseline PORT DATABASE_URL [SOURCE]
SOURCE is a folder holding another version's `scorekeeper` package (main, for --before).
Every answer carries the request's own time in the server (`Bench-Server-Ms`: from the app's
call to its answer's headers, a write's wait for the lock and its hold included), which
bench/write_tail.py reads. With BENCH_SERVER=gunicorn the app is served as `scorekeeper
serve` serves ours: gunicorn's threaded workers, one per core (bench/proxy_tables.py serves the
baseline so).
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import waitress

THREADS = 8  # as `scorekeeper serve`
SERVER_TIME = "Bench-Server-Ms"


def timed(app: Any) -> Callable[..., Iterable[bytes]]:
    """The app, its answers stamped with their own time in the server (SERVER_TIME)."""

    def call(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()

        def starting(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            spent = (time.perf_counter() - started) * 1000
            return start_response(status, [*headers, (SERVER_TIME, f"{spent:.3f}")], *rest)

        return app(environ, starting)  # type: ignore[no-any-return]

    return call


def main() -> None:
    """Build the app named on the command line on its database, migrate it, and serve it."""
    kind, port, url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "baseline":
        sys.path.insert(0, str(Path(__file__).parent))
        from baseline import create_app as create_baseline

        app = create_baseline(url)  # makes its tables once, before any worker starts

        def make() -> Any:  # each gunicorn worker its own app and pool, after the fork
            return timed(create_baseline(url))
    else:
        sys.path.insert(0, sys.argv[4] if len(sys.argv) > 4 else str(Path(__file__).parent.parent))
        from flask_migrate import upgrade

        from scorekeeper import create_app

        # Its pool sized to the threads, as `scorekeeper serve` sizes it: SQLAlchemy's 5 would
        # open (and close after) a connection for each writer past the fifth.
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"}, threads=THREADS)
        with app.app_context():
            upgrade()

        def make() -> Any:
            return timed(app)

    print("ready", flush=True)
    if os.environ.get("BENCH_SERVER") == "gunicorn":
        from scorekeeper.hosting import servers

        servers.serve(make, "127.0.0.1", port, THREADS, servers.cores(), "gunicorn")
        return
    # Its startup heap frozen, as `scorekeeper serve` starts an app (hosting/servers.started),
    # whatever tree --source serves, and the bare app's alike.
    gc.collect()
    gc.freeze()
    waitress.serve(timed(app), host="127.0.0.1", port=port, threads=THREADS, _quiet=True)


if __name__ == "__main__":
    main()
