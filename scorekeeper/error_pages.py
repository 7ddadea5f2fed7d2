"""Error pages in the table's language (the API answers problem+json instead)."""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask_babel import gettext as _
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException, SecurityError
from werkzeug.wrappers import Response

from .api.base import problem_response
from .extensions import db


def _hint(code: int) -> str | None:
    """What the person can do next, beyond going home."""
    if request.path.startswith("/t/"):  # a card table's record, not a game
        if code == 403:
            return _(
                "To change the table's people and games, ask its record keeper for the edit link."
            )
        if code == 410:
            return _(
                "Scan the QR code on the record keeper's phone (Share) to open the table again."
            )
        return None
    if code == 403:
        return _("To enter buys and scores, ask whoever keeps score for the edit link.")
    if code == 410:
        return _("Scan the QR code on the scorekeeper's phone (Share) to follow the game again.")
    return None


def _messages(code: int) -> tuple[str, str]:
    """Title and explanation for an error page."""
    if code == 403:
        return _("View only"), _("This link can show the game but not change it.")
    if code == 410:
        return _("This link was replaced"), _(
            "This link was replaced; ask the table for the new one."
        )
    if code == 404:
        return _("Not found"), _("There is no such page. Check the link, or ask the table.")
    if code == 429:
        return _("Too many tries"), _(
            "This device sent too many requests in a short time. Wait a minute and try again."
        )
    if code == 422:
        return _("Please check the form"), _("The form holds a value it cannot take.")
    if code == 400:
        return _("Please try again"), _(
            "The form was out of date or incomplete. Reload the page and try again."
        )
    return _("Something went wrong"), _("The request could not be handled. Try again.")


def handle_http_error(error: HTTPException) -> Response | HTTPException:
    """Render 4xx pages for people; leave the API's own handlers to answer JSON."""
    if request.path.startswith("/api/") or error.code is None or error.code < 400:
        return error
    title, message = _messages(error.code)
    if error.code == 422 and error.description:
        message = error.description  # pages.posted.BadField names the field
    # htmx swaps a 409 or 422 into the region that asked: a message there, not a whole page.
    fragment = request.headers.get("HX-Request") and not request.headers.get("HX-Boosted")
    template = "_error.html" if fragment else "errors.html"
    resend = _typed(error.code)
    body = render_template(
        template, title=title, message=message, hint=_hint(error.code), resend=resend
    )
    # Keep what the error says beyond its page: Retry-After on 429, Allow on 405.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    return Response(body, status=error.code, mimetype="text/html", headers=headers)


def _typed(code: int) -> list[tuple[str, str]]:
    """What a form refused for going too fast carried, to send again as it was (a file cannot
    be kept: it is chosen again)."""
    if code != 429 or request.method != "POST" or request.files:
        return []
    return [(name, value) for name, value in request.form.items(multi=True) if name != "csrf_token"]


RETRY_AFTER = "5"  # seconds: a phone's next poll comes sooner anyway
# SQLSTATEs of a PostgreSQL that cannot write: read-only transaction, insufficient resources
# (disk full, out of memory), and the server shutting down or in recovery.
CANNOT_WRITE = ("25006", "53", "57P")


def cannot_write(error: DBAPIError) -> bool:
    """Whether a database error says the server cannot write now, not that the app erred."""
    if isinstance(error, (OperationalError, InterfaceError)) or error.connection_invalidated:
        return True  # SQLite: locked, read-only, disk full; PostgreSQL: connection lost
    state = str(getattr(error.orig, "sqlstate", None) or "")
    return state.startswith(CANNOT_WRITE)


def database_unavailable(error: DBAPIError) -> Response:
    """503 in the table's language when the database cannot write; reads go on working."""
    db.session.rollback()
    if not cannot_write(error):
        raise error
    current_app.logger.warning("The database cannot write: %s", error.orig)
    detail = _("Could not save: the server cannot write right now. Nothing was changed.")
    hint = _("Try again in a moment. The score sheet can still be read.")
    headers = {"Retry-After": RETRY_AFTER}
    if request.path.startswith("/api/"):
        return problem_response(503, detail, headers=list(headers.items()))
    title = _("Could not save")
    body = render_template("errors.html", title=title, message=detail, hint=hint)
    return Response(body, status=503, mimetype="text/html", headers=headers)


def untrusted_host(error: SecurityError) -> Response:
    """A Host outside TRUSTED_HOSTS: no page can be built for it (its URLs would point there)."""
    current_app.logger.warning(
        "Refused a request for host %r: set SCOREKEEPER_PUBLIC_URL or SCOREKEEPER_TRUSTED_HOSTS"
        " if the server is meant to answer it",
        request.headers.get("Host", "")[:100],
    )
    return Response("Bad Request: untrusted host\n", status=400, mimetype="text/plain")


def init_app(app: Flask) -> None:
    """Register the error pages."""
    app.register_error_handler(SecurityError, untrusted_host)
    app.register_error_handler(DBAPIError, database_unavailable)
    for code in (400, 403, 404, 405, 410, 413, 422, 429):
        app.register_error_handler(code, handle_http_error)
