"""What every part of the API shares: answers read from the engine's objects, problems (RFC
9457), the links a request opens, and the declaration the OpenAPI document is made from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, TypeVar

from flask import Flask, Response, current_app, json, jsonify, request
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from ..extensions import db
from ..games import game_links
from ..games.game_links import GameAccess
from ..i18n import translate_text
from ..link_tokens import Access, LinkRefused
from ..models import LARGEST_INTEGER, CardTable, iso
from ..rules.errors import RuleError, RuleSetInvalid
from ..rules.messages import N_, Message, msg
from ..tables import table_links

GAME = f"/v1/games/<int(max={LARGEST_INTEGER}):game_id>"
# No max= here: werkzeug answers an id past the maximum with 405 where a URL takes two methods;
# opening the link finds no table past the id column's range (404).
TABLE = "/v1/tables/<int:table_id>"
View = TypeVar("View", bound=Callable[..., Any])
Schema = dict[str, Any]


def _said(value: Any) -> Any:
    return translate_text(value) if isinstance(value, Message) else value


def _timestamp(value: Any) -> Any:
    return iso(value) if isinstance(value, datetime) else value


Count = Annotated[int, Field(ge=0)]
Score = int  # below 0 with the Liverpool cut bonus
Timestamp = Annotated[
    str, Field(json_schema_extra={"format": "date-time"}), BeforeValidator(_timestamp)
]
Said = Annotated[str, BeforeValidator(_said)]  # a rules-engine message, in the request's language


class Answer(BaseModel):
    """A JSON object with exactly these fields, every one of them always sent; read from an
    object's attributes of the same names."""

    model_config = ConfigDict(
        extra="forbid", from_attributes=True, json_schema_serialization_defaults_required=True
    )


class With:
    """An object as an answer reads it: its own attributes (then those of `more`), and the ones
    given here, named as the answer names them or worked out for it."""

    def __init__(self, source: object, *more: object, **given: object) -> None:
        self.__dict__.update(given)
        self._sources = (source, *more)

    def __getattr__(self, name: str) -> Any:
        for source in self._sources:
            if hasattr(source, name):
                return getattr(source, name)
        raise AttributeError(name)


def answer(model: BaseModel, status: int = 200) -> tuple[Response, int]:
    """A model as the JSON answer, with its status.

    Serialised by pydantic straight to JSON text, in its fields' order: a game's answer (API
    buy, `bench/cost_table.py`) cost 2.1 M instructions through model_dump and Flask's
    sorting encoder, 0.51 M so."""
    body = model.model_dump_json()
    return current_app.response_class(body, status=status, mimetype="application/json"), status


def answer_list(models: Sequence[BaseModel]) -> tuple[Response, int]:
    """A list of models as the JSON answer."""
    return jsonify([model.model_dump(mode="json") for model in models]), 200


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
        game: BaseModel | None = None,
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
    game: BaseModel | None = None,
) -> Response:
    """A problem+json answer (answers.Problem, or answers.Conflict with the game); `type`
    about:blank means the status says it all (RFC 9457 4.2.1)."""
    title = HTTP_STATUS_CODES.get(status, "Error")
    fields: dict[str, Any] = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": detail or title,
        "errors": {field: list(messages) for field, messages in (errors or {}).items()},
    }
    if game is not None:
        fields["game"] = game.model_dump(mode="json")
    response = current_app.response_class(json.dumps(fields), status=status, mimetype=MEDIA_TYPE)
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


CHALLENGE = ("WWW-Authenticate", 'Bearer realm="scorekeeper"')
# RFC 6750: a token that opens nothing is an invalid token, whether or not the game exists
# (the same answer for both, so no one learns which ids are games).
INVALID = ("WWW-Authenticate", 'Bearer realm="scorekeeper", error="invalid_token"')


def bearer_token() -> str | None:
    """The token of an "Authorization: Bearer ..." header, if the request sent one."""
    auth = request.authorization
    if auth is None or auth.type != "bearer" or not auth.token:
        return None
    return auth.token


def game_access(game_id: int, *, change: bool) -> GameAccess:
    """What this request's link may do with the game (games.game_links.check_link), as the pages
    check it; the view then opens the game (games.opening).

    401 without a link or with one that opens no such game, 410 for a replaced link, 403 when
    a view link asks for a change. One query: a change's takes the game's lock.
    """
    try:
        return game_links.check_link(game_id, bearer_token(), change=change)
    except LinkRefused as refusal:
        raise refused(refusal) from None


def open_table(table_id: int, *, change: bool) -> tuple[CardTable, Access]:
    """The table this request's link opens, as the pages open it (tables.table_links.open_table),
    and which link it is; refused as game_access refuses, and a change locks the table first."""
    try:
        return table_links.open_table(table_id, bearer_token(), change=change)
    except LinkRefused as refusal:
        raise refused(refusal) from None


def refused(refusal: LinkRefused) -> Problem:
    """A refused link as the API answers it; 401 says how to send one, or that it opens nothing."""
    if refusal.status == 404:
        return Problem(401, refusal.message, headers=[INVALID])
    headers = [CHALLENGE] if refusal.status == 401 else []
    return Problem(refusal.status, refusal.message, headers=headers)


@dataclass(frozen=True)
class MediaType:
    """An answer that is a file of this type rather than a JSON object (a CSV)."""

    name: str
    description: str


@dataclass(frozen=True)
class Parameter:
    """A query-string or header parameter a view reads: its name, JSON Schema, what it does."""

    name: str
    schema: Schema
    description: str
    location: str = "query"


@dataclass(frozen=True)
class Operation:
    """What a view reads and answers: the request body's model, answers by status, problems."""

    answers: dict[int, Any]
    body: Any = None
    errors: tuple[int, ...] = ()
    parameters: tuple[Parameter, ...] = ()


def documented(
    answers: dict[int, Any],
    body: Any = None,
    errors: tuple[int, ...] = (),
    parameters: tuple[Parameter, ...] = (),
) -> Any:
    """Declare the models a view reads and answers; the document is made from them."""

    def declare(view: View) -> View:
        view.operation = Operation(answers, body, errors, parameters)  # type: ignore[attr-defined]
        return view

    return declare


def operation_of(app: Flask, endpoint: str) -> Operation:
    """The operation a view declared."""
    operation: Operation = app.view_functions[endpoint].operation  # type: ignore[attr-defined]
    return operation
