"""The JSON API, version 1: one blueprint holding a blueprint per resource, with every error
answered as problem+json."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException, default_exceptions

from ..extensions import csrf
from ..games.refusals import Conflict
from ..rules.errors import RuleError
from ..rules.messages import N_, msg
from . import (
    games,
    openapi,
    parties,
    rounds,
    rulesets,
    seats,
    table_files,
    table_people,
    tables,
)
from .answers import answer_race, answer_stale
from .base import Problem, answer_http_error, answer_problem, answer_rule_error, documented
from .fields import PresetKey

bp = Blueprint("api", __name__, url_prefix="/api")
# Before any route: a rule's converters are looked up when the rule is added.
bp.record_once(lambda state: state.app.url_map.converters.setdefault("preset", PresetKey))
for resource in (games, rounds, seats, rulesets, tables, table_people, table_files, parties):
    bp.register_blueprint(resource.bp)
    # JSON only (require_json) stands in for a CSRF token, as for the whole API (create_app);
    # Flask-WTF looks up the request's own blueprint, not the one it is nested in.
    csrf.exempt(resource.bp)
bp.register_error_handler(Problem, answer_problem)
bp.register_error_handler(RuleError, answer_rule_error)
# Both kinds of lost race are 409 (Conflict is a RuleError, answered 422 otherwise).
bp.register_error_handler(Conflict, answer_stale)
bp.register_error_handler(IntegrityError, answer_race)
bp.register_error_handler(HTTPException, answer_http_error)
# Flask prefers an app handler for a status code over a blueprint handler for a class,
# so an HTML 404 page elsewhere in the app would win without these.
for code in default_exceptions:
    bp.register_error_handler(code, answer_http_error)


@bp.before_app_request
def answer_routing_error() -> Response | None:
    """Answer an unknown URL or method under /api as a problem; blueprint handlers never see it."""
    error = request.routing_exception
    is_api = request.path == "/api" or request.path.startswith("/api/")
    if isinstance(error, HTTPException) and (error.code or 0) >= 400 and is_api:
        return answer_http_error(error)
    return None


@bp.before_request
def require_json() -> None:
    """Take a change only as JSON: a cross-site form cannot send it without a CORS preflight.

    A DELETE carries no body, and no form can send one across sites.
    """
    if request.method not in ("GET", "HEAD", "OPTIONS", "DELETE") and not request.is_json:
        raise Problem(415, msg(N_("Send the request body as application/json.")))


@bp.get("/openapi.json")
@documented({200: None})
def openapi_show() -> Response:
    """Describe the API as an OpenAPI 3.1 document."""
    return jsonify(openapi.document(current_app))
