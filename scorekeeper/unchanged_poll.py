"""The unchanged poll answered before Flask: most of a live table's requests, one query each.

Every phone asks every 2 s whether its game changed; nearly always it has not. That answer
(empty, and htmx told not to swap) needs no session, locale, CSRF, template or ORM object, so
it is given here, in front of the Flask app, from one driver statement. Anything else (another
version, a link that opens nothing, a client past its link-miss limit, a malformed URL) goes on
to Flask, which answers it exactly as before, so refusals and their counting stay in one place.
A seat page's poll (/s/…/version) is answered the same way, its link compared with the game's
live seat links (a replaced one goes on to Flask, which answers 410). With the version map on
(version_map.py, SCOREKEEPER_VERSION_MAP_URL) the answer comes from Redis and sends no statement;
the database is read only where the map cannot say (no entry yet, a change on its way, Redis
out of reach), and what it answers fills the map.

Measured (issue 19 step 6, 2026-12-04, `.venv/bin/python bench/run.py --before nopoll --routes
poll --pairs 20 --requests 100`, three runs; nopoll = this tree with the poll left to Flask's
`game.version`, whose link check reads the same row with a Core select in the session): the
unchanged poll against a static page is 0.82-1.16x with this middleware and 0.24-0.29x without
on SQLite, 0.71-0.77x against 0.18-0.22x on PostgreSQL (3.0-4.8x faster); a live table's
server CPU per table-minute 197-287 ms against 370-620 ms (SQLite), 247-350 against 620-810 ms
(PostgreSQL).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from flask import Flask
from sqlalchemy import Engine, and_, bindparam, select
from sqlalchemy.exc import DBAPIError

from . import version_map
from .extensions import db
from .games.seat_links import matching_seat
from .libpq_reads import PreparedReads
from .link_tokens import role_of
from .models import LARGEST_INTEGER, Game, SeatLink
from .pages.rendering import UNCHANGED_HEADERS
from .security import SECURITY_HEADERS
from .version_map import Fence, VersionMap

POLL_PATH = re.compile(r"/([gs])/(\d+)/([^/]+)/version")
LINKS_AND_VERSION = select(Game.version, Game.edit_token, Game.view_token).where(
    Game.id == bindparam("game_id")
)
# One row per live seat link (one with none if the game has no seat links yet).
SEAT_LINKS_AND_VERSION = (
    select(Game.version, SeatLink.token)
    .outerjoin(SeatLink, and_(SeatLink.game_id == Game.id, SeatLink.retired_at.is_(None)))
    .where(Game.id == bindparam("game_id"))
)
# pages.rendering.unchanged() as raw WSGI, with Flask's default type and the headers
# add_security_headers gives every answer under /g/ and /s/: the full stack's answer to the byte.
HEADERS = [
    *UNCHANGED_HEADERS,
    ("Content-Type", "text/plain; charset=utf-8"),
    *SECURITY_HEADERS,
    ("Cache-Control", "no-store"),
]
LINK_MISSES = "scorekeeper.link_misses"  # app.extensions key: rate_limits' LinkMisses, if on

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class UnchangedPoll:
    """WSGI middleware: "unchanged" for a poll whose link opens the game at the version it names."""

    def __init__(self, app: Flask, inner: WsgiApp) -> None:
        self.app = app
        self.inner = inner
        self.reader: LinksReader | None = None
        self.shared: VersionMap | None = app.extensions.get(version_map.KEY)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and self._unchanged(environ):
            start_response("200 OK", HEADERS)
            return []
        return self.inner(environ, start_response)

    def _unchanged(self, environ: dict[str, Any]) -> bool:
        """Whether the poll's link opens its game and the game is still at the version seen."""
        match = POLL_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or len(match[2]) > 10 or int(match[2]) > LARGEST_INTEGER:
            return False
        seen = parse_qs(environ.get("QUERY_STRING", "")).get("v", [""])[0]
        if not (seen.isascii() and seen.isdigit()):  # anything else: Flask reads it
            return False
        misses = self.app.extensions.get(LINK_MISSES)
        if misses is not None and not misses.allows(environ.get("REMOTE_ADDR") or "127.0.0.1"):
            return False  # Flask answers 429
        game_id, token, kind = int(match[2]), match[3], match[1]
        fence = None
        if self.shared is not None:
            said, fence = self.shared.look(game_id, kind, token, int(seen))
            if said is not None:
                return said
        if kind == version_map.SEAT:
            rows = self.links_reader().seat_links(game_id)
            live = [(0, row[1]) for row in rows or () if row[1] is not None]
            if fence is not None and rows:
                self.fill(fence, game_id, rows[0][0], kind, [each for _seat, each in live])
            return bool(rows) and rows[0][0] == int(seen) and matching_seat(token, live) is not None
        row = self.links_reader().read(game_id)
        if fence is not None and row is not None:
            self.fill(fence, game_id, row.version, kind, [row.edit_token, row.view_token])
        return row is not None and row.version == int(seen) and role_of(row, token) is not None

    def fill(self, fence: Fence, game_id: int, version: int, kind: str, links: list[str]) -> None:
        """What the database answered, into the map for the next poll (if no change came since
        the map was asked)."""
        if self.shared is not None:
            self.shared.fill(game_id, fence, version, kind, version_map.digest(links))

    def links_reader(self) -> LinksReader:
        """The reader on the app's engine, made once (Flask-SQLAlchemy hands it out in an app
        context)."""
        if self.reader is None:
            with self.app.app_context():
                self.reader = LinksReader(db.engine)
        return self.reader


class Links(NamedTuple):
    """A game's version and links, as role_of reads them."""

    version: int
    edit_token: str
    view_token: str


class LinksReader:
    """One statement a poll on a pooled driver connection, outside any transaction.

    Half a poll's time went into SQLAlchemy's execution of a Core select (events, the result
    object, switching the isolation level and back); the statement itself is fixed, so it is
    compiled once and sent to the driver directly.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        compiled = LINKS_AND_VERSION.compile(dialect=engine.dialect)
        self.sql = str(compiled)
        self.seat_sql = str(SEAT_LINKS_AND_VERSION.compile(dialect=engine.dialect))
        self.positional = compiled.positional
        # PostgreSQL's read runs through libpq outside any transaction (libpq_reads); SQLite's
        # connections run in autocommit already (database.py says BEGIN itself).
        postgres = engine.dialect.name == "postgresql"
        self.prepared = PreparedReads() if postgres else None

    def read(self, game_id: int) -> Links | None:
        """The game's version and links; None if there is no such game or the read failed."""
        rows = self.rows(self.sql, game_id)
        return Links(*rows[0]) if rows else None

    def seat_links(self, game_id: int) -> list[tuple[int, str | None]] | None:
        """The game's version and a live seat link, a row each; empty if there is no such game,
        None if the read failed."""
        return self.rows(self.seat_sql, game_id)

    def rows(self, sql: str, game_id: int) -> list[Any] | None:
        """The statement's rows for the game; None if the read failed."""
        params = (game_id,) if self.positional else {"game_id": game_id}
        try:
            connection = self.engine.raw_connection()
        except (DBAPIError, self.engine.dialect.loaded_dbapi.Error):
            # No database now: Flask answers this poll (503). A new connection's failure comes
            # as the driver's own error, unwrapped (the pool's connect is not SQLAlchemy's).
            return None
        try:
            return self.fetch(connection.driver_connection, sql, params)
        except self.engine.dialect.loaded_dbapi.Error:
            connection.invalidate()  # a dropped connection is replaced; Flask answers this poll
            return None
        finally:
            connection.close()

    def fetch(self, driver: Any, sql: str, params: tuple[int] | dict[str, int]) -> list[Any]:
        """Run the statement: on SQLite with a cursor, on PostgreSQL through libpq (prepared,
        unless psycopg's prepare_threshold is None)."""
        if self.prepared is not None:
            prepare = driver.prepare_threshold is not None  # None: the operator's, for PgBouncer
            return self.prepared.rows(driver.pgconn, sql, params, prepare)
        cursor = driver.cursor()
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        cursor.close()
        return list(rows)


def init_app(app: Flask) -> None:
    """Put the shortcut in front of the app, inside any ProxyFix (it reads the client address)."""
    app.wsgi_app = UnchangedPoll(app, app.wsgi_app)  # type: ignore[method-assign]
