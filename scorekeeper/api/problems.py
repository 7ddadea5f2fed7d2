"""Every API error as RFC 9457 problem details (application/problem+json), never an HTML page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flask import Blueprint, Response, current_app, json, request
from werkzeug.exceptions import HTTPException, default_exceptions
from werkzeug.http import HTTP_STATUS_CODES

from ..extensions import db
from ..i18n import translate_text
from ..rules.errors import RuleError, RuleSetInvalid
from ..rules.messages import N_, Message, msg
from .answers import Conflict
from .answers import Problem as ProblemAnswer
from .game_answers import Game

MEDIA_TYPE = "application/problem+json"
WHOLE_REQUEST = ""  # the errors key for a problem with the request as a whole
Errors = Mapping[str, Sequence[Message]]
TOO_FAST = N_("This device sent too many requests in a short time. Wait a minute and try again.")


class Problem(Exception):
    """A refusal the API answers with: its status, a sentence, and the problems per field."""

    def __init__(
        self,
        status: int,
        detail: Message | None = None,
        errors: Errors | None = None,
        headers: Sequence[tuple[str, str]] = (),
        game: Game | None = None,
    ) -> None:
        super().__init__(status)
        self.status = status
        self.headers = headers
        self.game = game  # a member beside the standard ones (RFC 9457 3.2), for a conflict
        self.errors = dict(errors or {})
        first = next((messages[0] for messages in self.errors.values() if messages), None)
        self.detail = detail or first


def problem_response(
    status: int,
    detail: str | None,
    errors: Mapping[str, Sequence[str]] | None = None,
    headers: Sequence[tuple[str, str]] = (),
    game: Game | None = None,
) -> Response:
    """A problem+json answer; `type` about:blank means the status says it all (RFC 9457 4.2.1)."""
    title = HTTP_STATUS_CODES.get(status, "Error")
    fields = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail or title,
        "errors": {field: list(messages) for field, messages in (errors or {}).items()},
    }
    problem = ProblemAnswer(**fields) if game is None else Conflict(**fields, game=game)
    body = json.dumps(problem.model_dump(mode="json"))
    response = current_app.response_class(body, status=status, mimetype=MEDIA_TYPE)
    response.headers.extend(headers)
    return response


def answer_problem(error: Problem) -> Response:
    """Answer a refusal raised by a view or an input reader."""
    db.session.rollback()
    errors = {field: [translate_text(m) for m in said] for field, said in error.errors.items()}
    detail = translate_text(error.detail) if error.detail else None
    return problem_response(error.status, detail, errors, error.headers, error.game)


def answer_rule_error(error: RuleError) -> Response:
    """A game rule refused the input: 422, its message under its field (all of a rule set's)."""
    if isinstance(error, RuleSetInvalid):
        return answer_problem(Problem(422, error.message, error.errors))
    field = error.field or WHOLE_REQUEST
    return answer_problem(Problem(422, error.message, {field: [error.message]}))


def answer_http_error(error: HTTPException) -> Response:
    """Werkzeug's errors (404, 405, 413...) as problems, keeping headers such as Allow."""
    db.session.rollback()
    status = error.code or 500
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    # The limiter's own description names only the limit ("10 per 1 minute").
    detail = translate_text(msg(TOO_FAST)) if status == 429 else error.description
    return problem_response(status, detail, headers=headers)


def answer_routing_error() -> Response | None:
    """Answer an unknown URL or method under /api as a problem; blueprint handlers never see it."""
    error = request.routing_exception
    is_api = request.path == "/api" or request.path.startswith("/api/")
    if isinstance(error, HTTPException) and (error.code or 0) >= 400 and is_api:
        return answer_http_error(error)
    return None


def register(bp: Blueprint) -> None:
    """Install the handlers that keep every API error in problem+json."""
    bp.register_error_handler(Problem, answer_problem)
    bp.register_error_handler(RuleError, answer_rule_error)
    bp.register_error_handler(HTTPException, answer_http_error)
    # Flask prefers an app handler for a status code over a blueprint handler for a class,
    # so an HTML 404 page elsewhere in the app would win without these.
    for code in default_exceptions:
        bp.register_error_handler(code, answer_http_error)
    # Routing fails before any blueprint is chosen: only an app-wide hook can answer it.
    bp.before_app_request(answer_routing_error)
