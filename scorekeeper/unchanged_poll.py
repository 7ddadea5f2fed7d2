"""The unchanged poll answered before Flask: most of a live table's requests, one query each.

Every phone asks every 2 s whether its game changed; nearly always it has not. That answer
(empty, and htmx told not to swap) needs no session, locale, CSRF, template or ORM object, so
it is given here, in front of the Flask app, from one Core select. Anything else (another
version, a link that opens nothing, a client past its link-miss limit, a malformed URL) goes on
to Flask, which answers it exactly as before, so refusals and their counting stay in one place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask
from sqlalchemy import Engine, bindparam, select

from .capability_links import LARGEST_ID, role_of
from .extensions import db
from .models import Game
from .pages.rendering import UNCHANGED_HEADERS
from .security import CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY

POLL_PATH = re.compile(r"/g/(\d+)/([^/]+)/version")
LINKS_AND_VERSION = select(Game.version, Game.edit_token, Game.view_token).where(
    Game.id == bindparam("game_id")
)
# pages.rendering.unchanged() as raw WSGI, with the headers add_security_headers gives every
# answer under /g/.
HEADERS = [
    *UNCHANGED_HEADERS,
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Permissions-Policy", PERMISSIONS_POLICY),
    ("Cache-Control", "no-store"),
]
AUTOCOMMIT = "AUTOCOMMIT"
LINK_MISSES = "scorekeeper.link_misses"  # app.extensions key: rate_limits' LinkMisses, if on

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class UnchangedPoll:
    """WSGI middleware: "unchanged" for a poll whose link opens the game at the version it names."""

    def __init__(self, app: Flask, inner: WsgiApp) -> None:
        self.app = app
        self.inner = inner
        self.engine: Engine | None = None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and self._unchanged(environ):
            start_response("200 OK", HEADERS)
            return []
        return self.inner(environ, start_response)

    def _unchanged(self, environ: dict[str, Any]) -> bool:
        """Whether the poll's link opens its game and the game is still at the version seen."""
        match = POLL_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or len(match[1]) > 10 or int(match[1]) > LARGEST_ID:
            return False
        seen = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
        if not (seen.isascii() and seen.isdigit()):  # anything else: Flask reads it
            return False
        misses = self.app.extensions.get(LINK_MISSES)
        if misses is not None and not misses.allows(environ.get("REMOTE_ADDR") or "127.0.0.1"):
            return False  # Flask answers 429
        # One statement needs no transaction: autocommit spares BEGIN and ROLLBACK.
        with self._engine().connect().execution_options(isolation_level=AUTOCOMMIT) as connection:
            row = connection.execute(LINKS_AND_VERSION, {"game_id": int(match[1])}).first()
        return row is not None and row.version == int(seen) and role_of(row, match[2]) is not None

    def _engine(self) -> Engine:
        """The app's engine, looked up once (Flask-SQLAlchemy hands it out in an app context)."""
        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        return self.engine


def init_app(app: Flask) -> None:
    """Put the shortcut in front of the app, inside any ProxyFix (it reads the client address)."""
    app.wsgi_app = UnchangedPoll(app, app.wsgi_app)  # type: ignore[method-assign]
