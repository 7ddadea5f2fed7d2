"""GET /healthz: whether this process can serve, for a container's or a proxy's health check."""

from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from ..error_pages import RETRY_AFTER
from ..extensions import db
from ..version import __version__
from . import schema

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def show() -> tuple[Response, int]:
    """200 when the database answers and its schema is at the migrations' head, else 503."""
    found: dict[str, object] = {"version": __version__}
    try:
        with db.engine.connect() as connection:
            at = schema.revisions(connection)
    except SQLAlchemyError:
        found |= {"status": "unavailable", "database": "unreachable"}
        return _answer(found, 503)
    healthy = at == schema.heads()
    found |= {
        "status": "ok" if healthy else "unavailable",
        "database": "reachable",
        "schema": "at head" if healthy else "not at head",
        "revision": ",".join(sorted(at)) or None,
    }
    return _answer(found, 200 if healthy else 503)


def _answer(found: dict[str, object], status: int) -> tuple[Response, int]:
    """The JSON answer, never cached: it says how things stand now."""
    response = jsonify(found)
    response.headers["Cache-Control"] = "no-store"
    if status == 503:
        response.headers["Retry-After"] = RETRY_AFTER  # as every answer during an outage
    return response, status
