"""Reading a JSON request body into its model, every problem named by its field and translated;
the bodies of many routes."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from flask import current_app, request
from pydantic import Discriminator, Field, TypeAdapter, ValidationError, model_validator
from pydantic import ValidatorFunctionWrapHandler as Handler
from pydantic import WrapValidator as Wrap
from pydantic_core import ErrorDetails

from ..rules.bounds import MAX_DECKS, MAX_PLAYERS, MIN_PLAYERS
from ..rules.messages import N_, Message, msg
from ..rules.player_names import name_key
from .base import Problem, operation_of
from .fields import (
    SEAT_OUTSIDE,
    ActionId,
    Body,
    Name,
    Seat,
    Version,
    first_error,
    problems_at,
    refusal,
    whole,
)

Model = TypeVar("Model")
LONE = re.compile("[\ud800-\udfff]")  # a field named with one is told with the \\u escape
# Our words for what pydantic finds; its own English sentences never reach a client.
MESSAGES = {
    "missing": N_("Required."),
    "extra_forbidden": N_("Unknown field."),
    "int_type": N_("Must be a whole number."),
    "bool_type": N_("Must be true or false."),
    "string_type": N_("Must be text."),
    "list_type": N_("Must be a list."),
    "dict_type": N_("Must be an object with named entries."),
    "model_type": N_("Must be an object with named entries."),
    "model_attributes_type": N_("Must be an object with named entries."),
}
UNFORESEEN = N_("This value cannot be read here.")
SURROGATE = N_("Not valid text: it holds a lone surrogate.")


def read_json() -> dict[str, Any]:
    """The request body as a JSON object (an empty body reads as {}); 400 if it is not one."""
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw, parse_constant=_not_json) if raw.strip() else {}
    except (ValueError, RecursionError) as error:
        raise Problem(400, msg(N_("The body is not valid JSON."))) from error
    if not isinstance(data, dict):
        raise Problem(400, msg(N_("The body must be a JSON object.")))
    broken = {
        field: [msg(N_("Not valid text: it holds a lone surrogate."))] for field in _broken(data)
    }
    if broken:
        raise Problem(422, errors=broken)
    return data


def _not_json(constant: str) -> None:
    """NaN and Infinity are Python's extensions, not JSON."""
    raise ValueError(constant)


def _broken(value: object, path: str = "") -> Iterator[str]:
    """Where the body holds text with a lone surrogate, which no database can store (I-JSON)."""
    if isinstance(value, str) and LONE.search(value):
        yield path
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _broken(item, _join(path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            named = _join(path, LONE.sub(lambda char: f"\\u{ord(char.group()):04x}", key))
            yield from _broken(key, named)
            yield from _broken(item, named)


def read(model: type[Model] | Any, **context: Any) -> Model:
    """The body read as `model`, checked for this request (players: seats at the table); or 422."""
    # The document says what each view reads: a view reading another model would drift from it.
    assert operation_of(current_app, str(request.endpoint)).body is model, request.endpoint
    data = read_json()
    try:
        body: Model = _adapter(model).validate_python(data, context=context)
    except ValidationError as error:
        raise Problem(422, errors=errors_of(error, skip=1 if _tagged(model) else 0)) from None
    return body


def _tagged(model: Any) -> bool:
    """Whether the body is one of several objects told apart by a tag pydantic puts in `loc`."""
    metadata = getattr(model, "__metadata__", ())
    return any(isinstance(item, Discriminator) for item in metadata)


# Not game data: one pydantic adapter per request model, a fixed set of classes.
@lru_cache(maxsize=128)
def _adapter(model: Any) -> TypeAdapter[Any]:
    return TypeAdapter(model)


def errors_of(error: ValidationError, skip: int = 0) -> dict[str, list[Message]]:
    """pydantic's problems as ours, per field ("hands.2.points"), without its tags and markers."""
    errors: dict[str, list[Message]] = {}
    for detail in error.errors(include_url=False):
        loc = [str(part) for part in detail["loc"][skip:] if part != "[key]"]
        errors.setdefault(".".join(loc), []).append(message_of(detail))
    return errors


def message_of(detail: ErrorDetails) -> Message:
    """Our message for one problem: carried by our own checks, else chosen by its kind."""
    context = detail.get("ctx") or {}
    if isinstance(context.get("message"), Message):
        return context["message"]
    return msg(MESSAGES.get(detail["type"], UNFORESEEN))


def _join(path: str, name: object) -> str:
    return f"{path}.{name}" if path else str(name)


def _named(value: Any, handler: Handler) -> list[str]:
    """Players' names in seat order; two at least (every rule set's fewest), eight at most."""
    try:
        names: list[str] = handler(value)
    except ValidationError as error:
        if first_error(error) == "too_short" and isinstance(value, list) and value:
            message = N_("At least %(count)s players sit at one table.")
            raise refusal(message, count=MIN_PLAYERS) from None
        if first_error(error) == "too_short":
            raise refusal(N_("Name the players.")) from None
        if first_error(error) == "too_long":
            message = N_("At most %(count)s players sit at one table.")
            raise refusal(message, count=MAX_PLAYERS) from None
        raise
    return names


PlayerName = Annotated[
    Name,
    Field(
        description=(
            "1 to 40 visible characters. Control, format (zero width, direction marks, BOM), "
            "private-use and unassigned characters are refused; names that differ only in "
            "case or compatibility form (Ömer, ÖMER, ＯＭＥＲ) are one player."
        )
    ),
]
Players = Annotated[
    list[PlayerName], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS), Wrap(_named)
]


class Action(Body):
    """A change to a game: a one-time token against double taps, and the version it was made on."""

    action_id: ActionId = None
    version: Version = None


class Seating(Body):
    """Who sits where in a new game: first_dealer null cuts for the deal at random."""

    players: Players
    first_dealer: Seat | None = None
    decks: whole(MAX_DECKS) | None = None  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _table(self) -> Seating:
        """Each name differs from the others in any case; the first dealer sits at the table."""
        errors: dict[str, list[Message]] = {}
        seen: set[str] = set()
        for index, name in enumerate(self.players):
            if name_key(name) in seen:
                errors[f"players.{index}"] = [msg(N_("Each player needs a different name."))]
            seen.add(name_key(name))
        if self.first_dealer is not None and self.first_dealer >= len(self.players):
            errors["first_dealer"] = [msg(SEAT_OUTSIDE, value=self.first_dealer)]
        if errors:
            raise problems_at(type(self).__name__, errors)
        return self


class SeatChange(Action):
    """A buy, or taking one back, for one seat."""

    seat: Seat


class LinkChange(Body):
    """Replace a link; the version is taken, but a new link conflicts with no other change."""

    version: Version = None
