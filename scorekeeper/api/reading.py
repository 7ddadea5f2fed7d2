"""Reading a JSON request body into its model, every problem named by its field and translated."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, TypeVar

from flask import current_app, request
from pydantic import Discriminator, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from ..rules.messages import N_, Message, msg
from .openapi import operation_of
from .problems import Problem

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
