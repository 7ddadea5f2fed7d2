"""The OpenAPI 3.1 document, made from the URL map and the models each view declares it uses.

The rules engine checks a rule set (rules/bounds.py) and names each problem at its field; the
schema pydantic makes of its dataclasses knows only the types. Each bounded setting of a rule
set sent to the API gets its bound here, read from the same table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from flask import Flask
from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema
from werkzeug.routing import AnyConverter, IntegerConverter, Rule

from ..rules.bounds import NUMBERS, Bound
from ..tables.backup.format import Backup
from .answers import Conflict, Problem
from .base import MediaType, Operation, Schema, operation_of

REASONS = {
    400: "The body is not a JSON object.",
    401: "No link token was sent (Authorization: Bearer <token>), or it opens nothing here.",
    403: "A view link asked for a change.",
    404: "No such game, table, person, rule set or URL.",
    409: "Another change to the game happened at the same moment, or since `version`.",
    410: "The link was replaced; ask the table for the new one.",
    413: "The body is larger than the server takes.",
    415: "The body is not sent as application/json.",
    422: "A field is missing, of the wrong type, or refused by the game's rules.",
    429: "Too many tries from this client or link (the README's rate limits): wait Retry-After.",
}
# Where the rate limits answer 429: creating, and every URL a link opens (rate_limits.py).
LIMITED = ("/api/v1/games", "/api/v1/tables", "/api/v1/rulesets/saved")
DESCRIPTION = (
    "The score sheet of May I? and the Contract Rummy family. Send every change as "
    "application/json (otherwise 415). Errors are application/problem+json (RFC 9457) with "
    "an `errors` object of messages per field, in the language of Accept-Language. Changes "
    "to one game are made one at a time; send the `version` you last read with each, and a "
    "change that another client's overtook is refused with 409 and the game as it now stands "
    "(`game`). Bodies are I-JSON (RFC 7493): text with a lone surrogate is refused; a whole "
    "number may be sent as 2 or 2.0, never as 2.5."
)
LINK = "link"
LINKED = ("game_id", "table_id")  # a URL naming one of these opens with its link
REF = r'"#/components/schemas/([^"]+)"'


def api_rules(app: Flask) -> Iterator[tuple[Rule, str]]:
    """Every rule of the API with each of its methods (HEAD and OPTIONS are Flask's own)."""
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                yield rule, method


def document(app: Flask) -> Schema:
    """The whole OpenAPI 3.1 document of this app's API, made once."""
    made: Schema | None = app.extensions.get("scorekeeper.openapi")
    if made is None:
        made = app.extensions["scorekeeper.openapi"] = _document(app)
    return made


def _document(app: Flask) -> Schema:
    schemas = _Schemas()
    paths: dict[str, Schema] = {}
    for rule, method in api_rules(app):
        path = paths.setdefault(openapi_path(rule.rule), {})
        path[method.lower()] = _operation(app, rule, method, schemas)
    # Not an API answer but a file (a table's backup): described here so programs can read it.
    schemas.ref(Backup, "validation")
    return {
        "openapi": "3.1.0",
        "info": {"title": "Scorekeeper API", "version": "1", "description": DESCRIPTION},
        "paths": paths,
        "components": {
            "schemas": schemas.components(),
            "securitySchemes": {
                LINK: {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "A game's or a table's edit link token (reading and changing) or "
                        "view link token (reading, and the arbiter without adding a buy). A "
                        "replaced link answers 410. A saved rule set's token (answered when "
                        "it is saved) reads, changes and deletes that set."
                    ),
                }
            },
        },
    }


def _operation(app: Flask, rule: Rule, method: str, schemas: _Schemas) -> Schema:
    """One operation: parameters, body, answers and problems, all from its declaration."""
    view = app.view_functions[rule.endpoint]
    declared = operation_of(app, rule.endpoint)
    responses: Schema = {}
    for status, model in declared.answers.items():
        if isinstance(model, MediaType):
            content = {model.name: {"schema": {"type": "string"}}}
            responses[str(status)] = {"description": model.description, "content": content}
        else:
            responses[str(status)] = _content(schemas, model, "application/json", "The answer.")
    for status in _problems(rule, method, declared):
        model = Conflict if status == 409 and "game_id" in rule.arguments else Problem
        reason = REASONS[status]
        responses[str(status)] = _content(schemas, model, "application/problem+json", reason)
    op: Schema = {
        "operationId": rule.endpoint.rpartition(".")[2],  # the view's name, in any blueprint
        "summary": (view.__doc__ or "").strip().splitlines()[0],
        "responses": responses,
    }
    if rule.arguments or declared.parameters:
        op["parameters"] = [_parameter(name, rule) for name in sorted(rule.arguments)] + [
            {"name": q.name, "in": q.location, "schema": q.schema, "description": q.description}
            for q in declared.parameters
        ]
    if {*LINKED, "ruleset_id"} & set(rule.arguments):
        op["security"] = [{LINK: []}]
    if declared.body is not None:
        body = _content(schemas, declared.body, "application/json", "", mode="validation")
        op["requestBody"] = {"required": True, "content": body["content"]}
    return op


def _problems(rule: Rule, method: str, declared: Operation) -> list[int]:
    """The problems a view may answer: for its body, for its game link, and its own."""
    statuses = set(declared.errors)
    if declared.body is not None:
        statuses |= {400, 413, 415, 422}
    if declared.parameters:
        statuses |= {422}
    if set(LINKED) & set(rule.arguments):
        statuses |= {401, 404, 410}
        if method != "GET":
            statuses |= {403}
    if "game_id" in rule.arguments and method != "GET":
        statuses |= {409}
    if "ruleset_id" in rule.arguments:
        statuses |= {401, 404}
    if rule.rule.startswith(LIMITED):
        statuses |= {429}
    return sorted(statuses)


def _content(
    schemas: _Schemas, model: Any, media_type: str, description: str, mode: str = "serialization"
) -> Schema:
    """A response or body of one media type, its schema made from a model."""
    content = {} if model is None else {"schema": schemas.ref(model, mode)}
    return {"description": description, "content": {media_type: content}}


def _parameter(name: str, rule: Rule) -> Schema:
    """A path parameter, its schema read from the URL rule's converter."""
    converter = rule._converters[name]
    schema: Schema = {"type": "string", "pattern": "^[^/]+$"}
    if isinstance(converter, IntegerConverter):
        schema = {"type": "integer", "minimum": converter.min or 0}
        if converter.max is not None:
            schema["maximum"] = converter.max
    elif isinstance(converter, AnyConverter):
        schema = {"type": "string", "enum": sorted(converter.items)}
    elif isinstance(getattr(converter, "schema", None), dict):
        schema = dict(converter.schema)
    return {"name": name, "in": "path", "required": True, "schema": schema}


def openapi_path(rule: str) -> str:
    """Flask's /games/<int:game_id> as OpenAPI's /games/{game_id}."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


class _Schemas:
    """The models the operations name; their schemas become the document's components."""

    def __init__(self) -> None:
        self.refs: dict[tuple[Any, str], Schema] = {}

    def ref(self, model: Any, mode: str) -> Schema:
        """A placeholder for the model's schema, filled in once all models are known."""
        return self.refs.setdefault((model, mode), {})

    def components(self) -> Schema:
        """Every model's schema, named; each placeholder becomes a reference to its own."""
        inputs = [(key, key[1], TypeAdapter(key[0])) for key in self.refs]
        made, definitions = TypeAdapter.json_schemas(
            inputs,  # type: ignore[arg-type]
            ref_template="#/components/schemas/{model}",
            schema_generator=BoundedSchema,
        )
        for (key, _mode), schema in made.items():
            self.refs[key].update(schema)
        return _reachable(definitions.get("$defs", {}), list(self.refs.values()))


def _reachable(definitions: Schema, roots: list[Schema]) -> Schema:
    """The definitions the roots refer to, directly or through others; pydantic makes a few more."""
    named: Schema = {}
    pending = re.findall(REF, json.dumps(roots))
    while pending:
        name = pending.pop()
        if name not in named:
            named[name] = definitions[name]
            pending += re.findall(REF, json.dumps(named[name]))
    return {name: named[name] for name in sorted(named)}


class BoundedSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema, with a rule set's bounds on what a request sends."""

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        made = super().dataclass_schema(schema)
        if self.mode == "validation":
            for name, setting in made.get("properties", {}).items():
                bound = NUMBERS.get((schema["cls"], name))
                if bound is not None:
                    _bound(setting, bound)
        return made


def _bound(setting: Schema, bound: Bound) -> None:
    """Put a bound on a setting's value (a number), size (a list or text) or entries (a table)."""
    for kind in (setting, *setting.get("anyOf", ())):
        match kind.get("type"):
            case "integer":
                kind.update(minimum=bound.low, maximum=bound.high)
            case "array":
                kind.update(minItems=bound.low, maxItems=bound.high)
            case "string":
                kind.update(maxLength=bound.high)
            case "object" if isinstance(kind.get("additionalProperties"), dict):
                _bound(kind["additionalProperties"], bound)
