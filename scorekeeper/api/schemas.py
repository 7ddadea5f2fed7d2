"""JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of what the API reads and answers."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any

from ..rules.ruleset import RuleSet
from .parse import ACTION_ID_LENGTH, MAX_NUMBER, MAX_VERSION, NAME_LENGTH

Schema = dict[str, Any]
INT: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_NUMBER}
SIGNED: Schema = {"type": "integer"}  # scores go below 0 with the Liverpool cut bonus
STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
ACTION_ID: Schema = {"type": "string", "minLength": 1, "maxLength": ACTION_ID_LENGTH}
VERSION_NUMBER: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_VERSION}
CARDS: Schema = {
    "description": 'Cards as text ("KC 7H JK", also 10S, TS, 7♥) or a list of such tokens.',
    "anyOf": [STR, {"type": "array", "items": STR}],
}
COUNTS: Schema = {
    "description": 'Cards counted per rank code: A, 2-10, J, Q, K, JK ({"K": 1, "JK": 1}).',
    "type": "object",
    "additionalProperties": INT,
}


def ref(name: str) -> Schema:
    """A reference to a component schema."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    """The schema, or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: Schema) -> Schema:
    """A list of items."""
    return {"type": "array", "items": items}


def obj(properties: Schema, optional: Schema | None = None) -> Schema:
    """An object with these required (and optional) properties and no others."""
    return {
        "type": "object",
        "required": list(properties),
        "properties": {**properties, **(optional or {})},
        "additionalProperties": False,
    }


def type_schema(tp: Any) -> Schema:
    """The schema of a rule-set field type, read from the dataclasses themselves."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return nullable(type_schema(next(a for a in args if a is not types.NoneType)))
    if origin is tuple:
        return array(type_schema(args[0]))
    if origin is dict:
        return {"type": "object", "additionalProperties": type_schema(args[1])}
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        fields = [f for f in dataclasses.fields(tp) if f.init]
        required = {f.name: type_schema(hints[f.name]) for f in fields if _required(f)}
        optional = {f.name: type_schema(hints[f.name]) for f in fields if not _required(f)}
        return obj(required, optional)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [member.value for member in tp]}
    return {bool: BOOL, int: {"type": "integer"}, str: STR}[tp]


def _required(field: dataclasses.Field[Any]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


VERSION: Schema = {
    "description": (
        "The game's version as this client last read it (GET /api/v1/games/{game_id} or its "
        "/version). If what the change touches changed since (that player's buys for a buy, "
        "that round for a round's result, anything for an undo) it is refused with 409 and "
        "the game as it now stands. Left out or null, the change applies to the game as it "
        "is. Run-outs and new links take it but never conflict."
    ),
    **nullable(VERSION_NUMBER),
}
PLAYER = obj({"seat": INT, "name": STR})
CONTRACT = obj({"books": INT, "runs": INT, "book_length": INT, "run_length": INT})
CURRENT_ROUND = obj(
    {
        "number": INT,
        "is_tiebreaker": BOOL,
        "seats": array(INT),
        "contract": CONTRACT,
        "contract_text": STR,
        "deal": INT,
        "final_discard": BOOL,
        "decks": INT,
        "jokers": INT,
        "total_cards": INT,
        "dealer": INT,
        "first_player": INT,
        "cutter": nullable(INT),
        "buy_cap": nullable(INT),
        "buys": array(obj({"seat": INT, "bought": INT, "left": nullable(INT)})),
        "last_buyer": nullable(INT),
        "run_outs": INT,
        "ended_by_stock": BOOL,
        "warnings": array(STR),
    }
)
HAND = obj({"seat": INT, "went_out": BOOL, "points": INT, "cards": nullable(COUNTS)})
PLAYED_ROUND = obj(
    {
        "number": INT,
        "is_tiebreaker": BOOL,
        "seats": array(INT),
        "scores": array(nullable(SIGNED)),
        "went_out": nullable(INT),
        "ended_by_stock": BOOL,
        "cut_bonus_seat": nullable(INT),
        "dealer": INT,
        "hands": array(HAND),
    }
)
STANDINGS = obj(
    {
        "rows": array(
            obj({"seat": INT, "name": STR, "total": SIGNED, "rounds_out": INT, "place": INT})
        ),
        "winners": array(INT),
        "needs_tiebreaker": array(INT),
        "explanation": array(STR),
    }
)
GAME = obj(
    {
        "id": INT,
        "version": VERSION_NUMBER,
        "players": array(PLAYER),
        "rules": ref("RuleSet"),
        "first_dealer": INT,
        "dealer_was_cut": BOOL,
        "decks": nullable(INT),
        "finished": BOOL,
        "current_round": nullable(ref("CurrentRound")),
        "rounds": array(ref("PlayedRound")),
        "totals": array(SIGNED),
        "running_totals": array(array(SIGNED)),
        "standings": ref("Standings"),
        "created_at": {"type": "string", "format": "date-time"},
        "updated_at": {"type": "string", "format": "date-time"},
    }
)
RULESET_CHOICE: Schema = {
    "description": "A preset's key, or a whole rule set (checked field by field).",
    "anyOf": [STR, ref("RuleSet")],
}
SEAT_CHANGE = obj({"seat": INT}, {"action_id": ACTION_ID, "version": VERSION})
ONE_OF_HAND: Schema = {
    "description": "A hand: typed points, the cards, or the cards counted per rank.",
    "oneOf": [obj({"points": INT}), obj({"cards": CARDS}), obj({"counts": COUNTS})],
}
REQUESTS: dict[str, Schema] = {
    "NewGame": obj(
        {
            "ruleset": RULESET_CHOICE,
            "players": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH},
                "minItems": 1,
            },
        },
        {"first_dealer": nullable(INT), "decks": nullable(INT)},
    ),
    "SeatChange": SEAT_CHANGE,
    "Call": obj(
        {"discarder": INT, "callers": array(INT)},
        {"turn_player_draws": BOOL, "record": BOOL, "action_id": ACTION_ID, "version": VERSION},
    ),
    "RunOutReport": obj(
        {},
        {
            "seen": {
                "description": (
                    "How often this client saw the stock run out this round: two clients "
                    "reporting one run-out record it once (this, not `version`, settles that)."
                ),
                **nullable(INT),
            },
            "action_id": ACTION_ID,
            "version": VERSION,
        },
    ),
    "RoundResult": obj(
        {
            "went_out": nullable(INT),
            "hands": {
                "type": "object",
                "propertyNames": {"pattern": "^[0-9]+$"},
                "additionalProperties": ONE_OF_HAND,
            },
        },
        {"cut_bonus_seat": nullable(INT), "action_id": ACTION_ID, "version": VERSION},
    ),
    "Action": obj({}, {"action_id": ACTION_ID, "version": VERSION}),
    "LinkChange": obj({}, {"version": VERSION}),
    "TallyRequest": {
        "oneOf": [
            obj({"cards": CARDS}, {"ruleset": RULESET_CHOICE, "players": INT, "decks": INT}),
            obj({"counts": COUNTS}, {"ruleset": RULESET_CHOICE, "players": INT, "decks": INT}),
        ]
    },
    "MeldCheckRequest": {
        "oneOf": [
            obj({"round": INT, "melds": array(CARDS)}, {"ruleset": RULESET_CHOICE}),
            obj(
                {"meld": CARDS, "kind": {"enum": ["book", "run"]}},
                {"round": nullable(INT), "ruleset": RULESET_CHOICE},
            ),
        ]
    },
}
PROBLEM: Schema = {
    "type": STR,
    "title": STR,
    "status": {"type": "integer"},
    "detail": STR,
    "errors": {
        "description": 'Messages per input field ("hands.2", "ruleset.rounds.0.deal").',
        "type": "object",
        "additionalProperties": array(STR),
    },
}
ANSWERS: dict[str, Schema] = {
    "Problem": obj(PROBLEM),
    "Conflict": obj(
        {
            **PROBLEM,
            "game": {
                "description": "The game as it now stands: check it, then send the change again.",
                **ref("Game"),
            },
        }
    ),
    "RuleSet": type_schema(RuleSet),
    "RuleSetEntry": obj({"key": STR, "name": STR, "rules": ref("RuleSet")}),
    "CurrentRound": CURRENT_ROUND,
    "PlayedRound": PLAYED_ROUND,
    "Standings": STANDINGS,
    "Game": GAME,
    "GameCreated": obj(
        {**GAME["properties"], "links": obj({"edit_token": STR, "view_token": STR})},
    ),
    "GameWithWarnings": obj(
        {**GAME["properties"], "warnings": array(STR)},
    ),
    "Ruling": obj(
        {
            "winner": nullable(INT),
            "is_buy": BOOL,
            "refusals": array(obj({"seat": INT, "reason": STR})),
            "explanation": STR,
            "recorded": BOOL,
            "game": nullable(ref("Game")),
        }
    ),
    "RunOut": obj({"number": INT, "ends_round": BOOL, "instruction": STR, "game": ref("Game")}),
    "Change": obj(
        {
            "id": INT,
            "kind": {
                "enum": ["create", "buy", "buy_removed", "run_out", "result", "undo", "rotate_link"]
            },
            "round": nullable(INT),
            "seat": nullable(INT),
            "text": STR,
            "created_at": {"type": "string", "format": "date-time"},
            "undone": BOOL,
        }
    ),
    "Links": obj({"edit": STR, "view": STR}),
    "GameVersion": obj({"version": VERSION_NUMBER}),
    "Tally": obj({"points": INT}),
    "MeldCheck": obj(
        {
            "ok": BOOL,
            "reason": nullable(STR),
            "kind": nullable({"enum": ["book", "run"]}),
            "meld": nullable(INT),
        }
    ),
}
COMPONENTS: dict[str, Schema] = {**REQUESTS, **ANSWERS}
