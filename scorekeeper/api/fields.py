"""The kinds of value the API reads, each declared once: its check and its schema are one."""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    Field,
    PlainValidator,
    Strict,
    StringConstraints,
    ValidationError,
    ValidationInfo,
)
from pydantic import ValidatorFunctionWrapHandler as Handler
from pydantic import WrapValidator as Wrap
from pydantic_core import PydanticCustomError
from werkzeug.routing import BaseConverter

from ..models import LARGEST_INTEGER
from ..rules.errors import RuleError
from ..rules.messages import N_, msg
from ..rules.playing_cards import Card, parse_cards

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
