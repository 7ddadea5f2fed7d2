"""The OpenAPI 3.1 document of the JSON API, written by hand beside the views it describes."""

from __future__ import annotations

from typing import Any

from .schemas import COMPONENTS, Schema, array, ref

GAME_ID: Schema = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
NUMBER: Schema = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
KEY: Schema = {"name": "key", "in": "path", "required": True, "schema": {"type": "string"}}
ROLE: Schema = {
    "name": "role",
    "in": "path",
    "required": True,
    "schema": {"enum": ["edit", "view"]},
}
REASONS = {
    400: "The body is not a JSON object.",
    401: "No link token was sent (Authorization: Bearer <token>).",
    403: "A view link asked for a change.",
    404: "No such game, rule set or URL.",
    409: "Another change to the game happened at the same moment.",
    410: "The link was replaced; ask the table for the new one.",
    415: "The body is not sent as application/json.",
    422: "A field is missing, of the wrong type, or refused by the game's rules.",
}
STALE: Schema = {
    "description": (
        "The change was built on an old `version`: another client changed the same thing "
        "since (or at the same moment). `game` is the game as it now stands; check, then "
        "send the change again with its version."
    ),
    "content": {"application/problem+json": {"schema": ref("Conflict")}},
}
CHANGE_ERRORS = (400, 401, 403, 404, 409, 410, 415, 422)
READ_ERRORS = (401, 404, 410)
CHECK_ERRORS = (400, 415, 422)
LINK: list[dict[str, list[str]]] = [
    {"link": []}
]  # the game's edit or view link token, sent as a bearer token


def operation(
    endpoint: str,
    summary: str,
    answers: dict[int, str],
    *,
    body: str | None = None,
    errors: tuple[int, ...] = (),
    parameters: tuple[Schema, ...] = (),
) -> Schema:
    """One operation: its request body schema, its answers, and the problems it may answer."""
    responses: dict[str, Any] = {
        str(status): _json(schema, "application/json") for status, schema in answers.items()
    }
    for status in errors:
        responses[str(status)] = {
            "description": REASONS[status],
            "content": {"application/problem+json": {"schema": ref("Problem")}},
        }
    op: Schema = {"operationId": endpoint, "summary": summary, "responses": responses}
    if 401 in errors:
        op["security"] = LINK
    if parameters:
        op["parameters"] = list(parameters)
    if body is not None:
        op["requestBody"] = {"required": True, **_json(body, "application/json")}
    return op


def change(
    endpoint: str,
    summary: str,
    answers: dict[int, str],
    body: str,
    parameters: tuple[Schema, ...] = (GAME_ID,),
) -> Schema:
    """A change to a game through its edit link; a stale `version` answers 409 (Conflict)."""
    op = operation(
        endpoint, summary, answers, body=body, errors=CHANGE_ERRORS, parameters=parameters
    )
    op["responses"]["409"] = STALE
    return op


def _json(schema: str, media_type: str) -> Schema:
    """A JSON body of a component schema ("Game"), or a list of one ("[Change]")."""
    name = schema.strip("[]")
    content = array(ref(name)) if schema.startswith("[") else ref(name)
    return {"description": name, "content": {media_type: {"schema": content}}}


GAME = (GAME_ID,)
PATHS: dict[str, dict[str, Schema]] = {
    "/api/openapi.json": {
        "get": {
            "operationId": "openapi_show",
            "summary": "This document.",
            "responses": {"200": {"description": "The OpenAPI 3.1 document."}},
        }
    },
    "/api/v1/rulesets": {
        "get": operation("rulesets_index", "List the preset rule sets.", {200: "[RuleSetEntry]"})
    },
    "/api/v1/rulesets/{key}": {
        "get": operation(
            "rulesets_show",
            "Show a preset.",
            {200: "RuleSetEntry"},
            errors=(404,),
            parameters=(KEY,),
        )
    },
    "/api/v1/games": {
        "post": operation(
            "games_create",
            "Start a game; first_dealer null cuts for the deal at random. The answer holds "
            "the game's edit and view link tokens.",
            {201: "GameCreated"},
            body="NewGame",
            errors=(400, 409, 415, 422),
        )
    },
    "/api/v1/games/{game_id}": {
        "get": operation(
            "games_show", "Show a game.", {200: "Game"}, errors=READ_ERRORS, parameters=GAME
        )
    },
    "/api/v1/games/{game_id}/buys": {
        "post": change(
            "buys_create",
            "Record a buy (200 when the action_id was already recorded).",
            {201: "Game", 200: "Game"},
            body="SeatChange",
        )
    },
    "/api/v1/games/{game_id}/buys/remove": {
        "post": change(
            "buys_remove",
            "Take back a seat's last buy this round.",
            {200: "Game"},
            body="SeatChange",
        )
    },
    "/api/v1/games/{game_id}/arbiter": {
        "post": change(
            "arbiter_rule",
            "Rule on a discard several players called for; record the buy if asked.",
            {200: "Ruling", 201: "Ruling"},
            body="Call",
        )
    },
    "/api/v1/games/{game_id}/run-outs": {
        "post": change(
            "run_outs_create",
            "Record that the stock ran out; say whether that ends the round.",
            {201: "RunOut", 200: "RunOut"},
            body="RunOutReport",
        )
    },
    "/api/v1/games/{game_id}/rounds/{number}": {
        "put": change(
            "rounds_update",
            "Record or correct how a round ended; went_out null means the stock ended it.",
            {200: "GameWithWarnings"},
            body="RoundResult",
            parameters=(GAME_ID, NUMBER),
        )
    },
    "/api/v1/games/{game_id}/undo": {
        "post": change(
            "undo_create",
            "Undo the newest change.",
            {200: "Game"},
            body="Action",
        )
    },
    "/api/v1/games/{game_id}/history": {
        "get": operation(
            "history_index",
            "List the changes, newest first.",
            {200: "[Change]"},
            errors=READ_ERRORS,
            parameters=GAME,
        )
    },
    "/api/v1/games/{game_id}/version": {
        "get": operation(
            "version_show",
            "The game's version alone, in one query: poll this, and fetch the game when it "
            "changes.",
            {200: "GameVersion"},
            errors=READ_ERRORS,
            parameters=GAME,
        )
    },
    "/api/v1/games/{game_id}/links/{role}": {
        "post": change(
            "links_create",
            "Replace the edit or view link (edit link only) and answer both links; the old "
            "one answers 410 from now on.",
            {200: "Links"},
            body="LinkChange",
            parameters=(GAME_ID, ROLE),
        )
    },
    "/api/v1/tally": {
        "post": operation(
            "tally_create",
            "Count a hand's penalty points.",
            {200: "Tally"},
            body="TallyRequest",
            errors=CHECK_ERRORS,
        )
    },
    "/api/v1/melds/check": {
        "post": operation(
            "melds_check",
            "Check a laydown against a round's contract, or one book or run.",
            {200: "MeldCheck"},
            body="MeldCheckRequest",
            errors=CHECK_ERRORS,
        )
    },
}


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "description": (
                "The score sheet of May I? and the Contract Rummy family. Send every change as "
                "application/json (otherwise 415). Errors are application/problem+json "
                "(RFC 9457) with an `errors` object of messages per field, in the language "
                "of Accept-Language. Changes to one game are made one at a time; send the "
                "`version` you last read with each, and a change that another client's "
                "overtook is refused with 409 and the game as it now stands (`game`)."
            ),
        },
        "paths": PATHS,
        "components": {
            "schemas": COMPONENTS,
            "securitySchemes": {
                "link": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "A game's edit link token (reading and changing) or view link token "
                        "(reading, and the arbiter without recording). A replaced link "
                        "answers 410."
                    ),
                }
            },
        },
    }
