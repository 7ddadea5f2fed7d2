"""The kinds of value the API reads, each declared once (its check and its schema are one), and
the closed object every request body is."""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic import ValidatorFunctionWrapHandler as Handler
from pydantic import WrapValidator as Wrap
from pydantic.json_schema import JsonDict
from pydantic_core import InitErrorDetails, PydanticCustomError
from werkzeug.routing import BaseConverter

from ..models import LARGEST_INTEGER
from ..rules.bounds import MAX_ROUNDS, MIN_ROUNDS
from ..rules.errors import RuleError, RuleSetInvalid
from ..rules.messages import N_, Message, msg
from ..rules.playing_cards import Card, parse_cards
from ..rules.presets import PRESETS
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict

MAX_NUMBER = 100_000  # far above any hand, deck or round; keeps every integer column safe
ACTION_ID_LENGTH = 64  # the history's one-time token column
NAME_LENGTH = 40  # the player name column
RANGE = N_("Must be a whole number from %(low)s to %(high)s.")
SEAT_OUTSIDE = N_("There is no seat %(value)s at this table.")
OUT_OF_RANGE = {"greater_than_equal", "less_than_equal"}
# Spaces a name may start or end with (trimmed away); every other character but controls counts.
SPACES = " \u00a0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(map(chr, range(0x2000, 0x200B)))
CONTROLS = r"\x00-\x1f\x7f-\x9f"  # NUL and the other control characters, which no column takes
HAS_CONTROL = re.compile(f"[{CONTROLS}]")


def refusal(template: str, **params: Any) -> PydanticCustomError:
    """A validation error carrying one of our own messages, translated when answered."""
    return PydanticCustomError("scorekeeper", "{message}", {"message": msg(template, **params)})


def first_error(error: ValidationError) -> str:
    """The kind of the first problem pydantic found."""
    return str(error.errors()[0]["type"])


def integral(value: Any) -> Any:
    """2105.0 as 2105: JSON Schema counts a number with no fraction as an integer, so we do too."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= LARGEST_INTEGER:
        return int(value)
    return value


def whole(high: int = MAX_NUMBER, outside: str = RANGE) -> Any:
    """A whole number from 0 to `high` (true and "1" are no whole numbers here)."""

    def in_range(value: Any, handler: Handler) -> int:
        try:
            number: int = handler(integral(value))
        except ValidationError as error:
            if first_error(error) in OUT_OF_RANGE:
                raise refusal(outside, low=0, high=high, value=value) from None
            raise
        return number

    return Annotated[int, Strict(), Field(ge=0, le=high), Wrap(in_range)]


def _at_table(value: Any, handler: Handler, info: ValidationInfo) -> int:
    """A seat from 0 clockwise, below the number of players the request is read for."""
    try:
        seat: int = handler(integral(value))
    except ValidationError as error:
        if first_error(error) in OUT_OF_RANGE:
            raise refusal(SEAT_OUTSIDE, value=value) from None
        raise
    players = (info.context or {}).get("players")
    if players is not None and seat >= players:
        raise refusal(SEAT_OUTSIDE, value=value)
    return seat


def text(length: int) -> Any:
    """Text of 1 to `length` characters, no control characters, spaces at either end trimmed."""
    visible = f"^[^{CONTROLS}]*[^{CONTROLS}{SPACES}][^{CONTROLS}]*$"

    def checked(value: Any, handler: Handler) -> str:
        try:
            given: str = handler(value)
        except ValidationError as error:
            if first_error(error) == "string_type":
                raise
            if HAS_CONTROL.search(value):
                raise refusal(N_("Must not contain control characters.")) from None
            raise refusal(N_("Must be 1 to %(length)s characters."), length=length) from None
        return given.strip(SPACES)

    limits = StringConstraints(max_length=length, pattern=visible)
    return Annotated[str, Strict(), limits, Wrap(checked)]


def _cards(value: Any) -> list[Card]:
    """Cards as text ("KC 7H JK") or a list of tokens; the first bad token is named."""
    is_list = isinstance(value, list) and all(isinstance(token, str) for token in value)
    if not (isinstance(value, str) or is_list):
        raise refusal(N_('Give cards as text ("KC 7H JK") or a list of cards.'))
    try:
        return parse_cards(value)
    except RuleError as error:
        raise PydanticCustomError("scorekeeper", "{message}", {"message": error.message}) from None


def _choice(value: Any, handler: Handler) -> str:
    """One of a few words, the others listed when it is none of them."""
    try:
        word: str = handler(value)
    except ValidationError:
        raise refusal(N_("Must be one of: %(choices)s."), choices="book, run") from None
    return word


Whole = whole()
Seat = Annotated[int, Strict(), Field(ge=0, le=MAX_NUMBER), Wrap(_at_table)]
Version = Annotated[
    whole(LARGEST_INTEGER) | None,
    Field(
        description=(
            "The game's version as this client last read it (GET /api/v1/games/{game_id} or its "
            "/version). If what the change touches changed since (that player's buys for a buy, "
            "that round for a round's result, anything for an undo) it is refused with 409 and "
            "the game as it now stands. Left out or null, the change applies to the game as it "
            "is. Run-outs and new links take it but never conflict."
        )
    ),
]
ActionId = Annotated[
    text(ACTION_ID_LENGTH) | None,
    Field(description="A one-time token: the same change sent twice with it is made once."),
]
Name = text(NAME_LENGTH)
Cards = Annotated[
    list[Card],
    Field(description='Cards as text ("KC 7H JK", also 10S, TS, 7♥) or a list of such tokens.'),
    PlainValidator(_cards, json_schema_input_type=str | list[str]),
]
Counts = Annotated[
    dict[str, Whole],
    Field(description='Cards counted per rank code: A, 2-10, J, Q, K, JK ({"K": 1, "JK": 1}).'),
]
MeldKind = Annotated[Literal["book", "run"], Wrap(_choice)]


class PresetKey(BaseConverter):
    """A preset's key in a URL: any segment but the words of the routes beside it."""

    # Else /rulesets/saved and /rulesets/validate (POST only) matched /rulesets/<key> for a GET
    # and advertised it in Allow, which the document does not have (schemathesis, ST205).
    regex = r"(?!(?:saved|validate)$)[^/]+"
    schema: ClassVar[dict[str, str]] = {
        "type": "string",
        "pattern": "^(?!(?:saved|validate)$)[^/]+$",
    }


PresetName = Literal[tuple(PRESETS)]  # type: ignore[valid-type]


def _one_of_schema(schema: JsonDict, model: type[BaseModel]) -> None:
    """Say in the schema that exactly one of the model's `choices` is given."""
    choices: tuple[str, ...] = getattr(model, "choices", ())
    if choices:
        schema["oneOf"] = [{"required": [choice]} for choice in choices]


class Body(BaseModel):
    """A JSON object whose fields are all declared: any other is refused as unknown."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_one_of_schema)
    choices: ClassVar[tuple[str, ...]] = ()  # exactly one of these fields is given
    choices_at: ClassVar[str] = ""  # where a problem with the choice is told ("": the object)

    @model_validator(mode="after")
    def _exactly_one(self) -> Any:
        """Of the `choices`, exactly one must be given."""
        given = [name for name in self.choices if name in self.model_fields_set]
        if self.choices and len(given) != 1:
            listed = ", ".join(self.choices)
            message = msg(N_("Give exactly one of: %(choices)s."), choices=listed)
            raise problems_at(type(self).__name__, {self.choices_at: [message]})
        return self


def problems_at(title: str, errors: dict[str, list[Message]]) -> ValidationError:
    """Problems found beyond the shapes, each at its own field below the one being read."""
    details = [
        InitErrorDetails(
            type=PydanticCustomError("scorekeeper", "{message}", {"message": message}),
            loc=(field,) if field else (),
            input=None,
        )
        for field, messages in errors.items()
        for message in messages
    ]
    return ValidationError.from_exception_data(title, details)


def _ruleset(value: Any) -> RuleSet:
    """A preset by key, or a whole rule set checked field by field by the rules engine."""
    if isinstance(value, str) and value in PRESETS:
        return PRESETS[value]
    if isinstance(value, str):
        raise refusal(N_("There is no rule set %(key)s."), key=value)
    if not isinstance(value, dict):
        raise refusal(N_("Give a rule set's key or a whole rule set."))
    try:
        return ruleset_from_dict(value)
    except RuleSetInvalid as error:
        raise problems_at("RuleSet", error.errors) from None


RuleSetChoice = Annotated[
    RuleSet,
    Field(
        description=f"A preset's key, or a whole rule set (checked field by field; "
        f"{MIN_ROUNDS} to {MAX_ROUNDS} rounds)."
    ),
    PlainValidator(_ruleset, json_schema_input_type=PresetName | RuleSet),
]
SAVED_KEY = "house-[0-9]{1,10}"  # a saved house rule set's key (house_rules.KEY_PREFIX)
HouseKey = Annotated[str, Field(pattern=f"^{SAVED_KEY}$")]


def _ruleset_or_saved(value: Any) -> RuleSet | str:
    """A saved set's key as sent (its token opens it later), else a preset or a whole set."""
    if isinstance(value, str) and re.fullmatch(SAVED_KEY, value):
        return value
    return _ruleset(value)


GameRuleSet = Annotated[
    RuleSet | str,
    Field(
        description=f"A preset's key, a saved house rule set's (\"house-7\", opened by "
        f"`ruleset_token`), or a whole rule set ({MIN_ROUNDS} to {MAX_ROUNDS} rounds)."
    ),
    PlainValidator(_ruleset_or_saved, json_schema_input_type=PresetName | HouseKey | RuleSet),
]
RuleSetToken = Annotated[
    text(64) | None,  # type: ignore[valid-type]
    Field(description="For a saved house rule set: its token, answered when it was saved."),
]
MAY_I = Field("may-i", validate_default=True)
# A field that may be left out but not sent as null: None stands for "not given".
ABSENT: Any = Field(None, json_schema_extra=lambda schema: schema.pop("default"))
