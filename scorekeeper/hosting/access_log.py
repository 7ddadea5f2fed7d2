"""The access log: one line per request, with link tokens hidden, on unless ACCESS_LOG is off.

`203.0.113.7 GET /g/12/…/buys 200 4.1 ms`: the client's address (the one the proxy saw,
through PROXY_HOPS), method, path (the proxy's prefix included; control and non-ASCII
characters percent-encoded, so a crafted path cannot forge a line), status, and the time until
the last byte was handed to the server. Healthy answers to /healthz are left out:
a health check every few seconds is not news, its failures are.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

from flask import Flask
from flask.logging import has_level_handler
from werkzeug.wsgi import ClosingIterator

from ..security import redact_links

LOGGER = logging.getLogger("scorekeeper.access")
QUIET = ("/healthz", "200")
SAFE = "/:@!$&'()*+,;=~"  # kept as typed: what a path may hold besides letters and digits
WERKZEUGS_LINE = '] "%s" %s %s'  # werkzeug.serving's log_request, after client and time

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def line(environ: dict[str, Any], status: str, seconds: float) -> str | None:
    """The log line of one request, or None for one not worth a line."""
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    if (environ.get("PATH_INFO"), status) == QUIET:
        return None
    shown = redact_links(quote(path.encode("latin-1", "replace"), safe=SAFE))
    method = quote(str(environ.get("REQUEST_METHOD", "")), safe="")
    client = quote(str(environ.get("REMOTE_ADDR") or "-"), safe=":.")
    return f"{client} {method} {shown} {status} {seconds * 1000:.1f} ms"


class ServersOwnLine(logging.Filter):
    """Leaves out the line `flask run`'s server writes for each request: this log has one."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).endswith(WERKZEUGS_LINE)


SERVERS_OWN_LINE = ServersOwnLine()  # one, so a second app adds no second filter


class AccessLog:
    """WSGI middleware: times each request and logs its line once the answer is sent."""

    def __init__(self, inner: WsgiApp) -> None:
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started, status = time.perf_counter(), ["-"]

        def starting(code: str, headers: Any, exc_info: Any = None) -> Any:
            status[0] = code.split(" ", 1)[0]
            return start_response(code, headers, exc_info)

        def sent() -> None:
            if text := line(environ, status[0], time.perf_counter() - started):
                LOGGER.info(text)

        return ClosingIterator(self.inner(environ, starting), sent)


def init_app(app: Flask) -> None:
    """Log every request, unless ACCESS_LOG is off; to stderr when nothing else takes the lines.

    Then the lines stop here: app.logger ("scorekeeper"), whose handler Flask adds when the app
    first logs, would write each again.
    """
    if not app.config["ACCESS_LOG"]:
        return
    LOGGER.setLevel(logging.INFO)
    if not has_level_handler(LOGGER):  # as Flask does for app.logger
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        LOGGER.addHandler(handler)
        LOGGER.propagate = False
    logging.getLogger("werkzeug").addFilter(SERVERS_OWN_LINE)
    app.wsgi_app = AccessLog(app.wsgi_app)  # type: ignore[method-assign]
