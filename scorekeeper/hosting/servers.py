"""The WSGI server behind `scorekeeper serve`: gunicorn's workers, one process per core, where
the platform can fork (Linux, macOS); waitress's threads in one process elsewhere or when asked.

Both take the same options (address, port, threads per process); gunicorn also the number of
processes. gunicorn is a dependency on every platform but Windows (pure Python, one package):
a family's laptop or Raspberry Pi gets all its cores without knowing about extras.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any, TypeVar

from flask import Flask

from .lan import listening_on

THREADS = 8  # per process: phones wait on the per-game lock, not on each other
KEEPALIVE = 75  # s: longer than a proxy keeps an idle upstream connection (nginx: 60 s)
SERVERS = ("gunicorn", "waitress")


def default_server() -> str:
    """gunicorn where it runs (it needs fork), else waitress."""
    forks = hasattr(os, "fork") and sys.platform != "win32"
    return "gunicorn" if forks and find_spec("gunicorn") else "waitress"


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def binds(host: str, port: int) -> list[str]:
    """Each address `host` is served on, with the port: `[::1]:8000` for IPv6."""
    return [f"[{a}]:{port}" if ":" in a else f"{a}:{port}" for a in listening_on(host)]


def gunicorn_options(host: str, port: int, threads: int, workers: int) -> dict[str, Any]:
    """gunicorn's settings for the app: threaded workers, like waitress in every process."""
    return {
        "bind": binds(host, port),
        "workers": workers,
        "threads": threads,
        "worker_class": "gthread",
        "keepalive": KEEPALIVE,
        "graceful_timeout": 10,
        "proc_name": "scorekeeper",
        # The app trusts X-Forwarded-* only through PROXY_HOPS (ProxyFix), under either server.
        "forwarded_allow_ips": "",
        "limit_request_line": 8190,  # a shared rule set's link carries the whole set
        "accesslog": None,  # access_log.py writes one line per request under both servers
        "errorlog": "-",
        # gunicorn 26+ would listen on ~/.gunicorn/gunicorn.ctl, one path for every server.
        "control_socket_disable": True,
    }


App = TypeVar("App")


def started(make_app: Callable[[], App]) -> App:
    """The app built in this process, with the heap it started with frozen (gc.freeze).

    Python's full collection stops every thread while it walks every object it tracks: the
    modules, templates, catalogs and SQLAlchemy's tables, about 159,000 of them, took 60-83 ms,
    and the writes it stopped were a served process's slowest. Frozen, they are never walked
    again. bench/write_tail.py, PostgreSQL, 8 writers on one game, p99 of the server's own time,
    runs alternated on a quiet machine (load 1): 124 and 97 ms -> 38 and 35 ms.
    """
    app = make_app()
    gc.collect()  # what startup left in cycles is freed, not frozen for good
    gc.freeze()
    return app


NEWER = ("control_socket_disable",)  # settings older gunicorns lack: left out there


def run_gunicorn(make_app: Callable[[], Flask], options: dict[str, Any]) -> None:
    """Serve with gunicorn; every worker builds its own app after the fork."""
    from gunicorn.app.base import BaseApplication

    class Served(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                if key in self.cfg.settings or key not in NEWER:
                    self.cfg.set(key, value)

        def load(self) -> Flask:
            return started(make_app)

    Served().run()


def serve(
    make_app: Callable[[], Flask], host: str, port: int, threads: int, workers: int, server: str
) -> None:
    """Serve the app until stopped, with the server and processes asked for."""
    if server == "gunicorn":
        run_gunicorn(make_app, gunicorn_options(host, port, threads, workers))
        return
    import waitress

    listen = " ".join(binds(host, port))
    waitress.serve(started(make_app), listen=listen, threads=threads, ident="scorekeeper")
