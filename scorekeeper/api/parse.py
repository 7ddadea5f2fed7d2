"""Reading a JSON request body field by field, every problem named by its field."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from ..rules.errors import RuleError, RuleSetInvalid
from ..rules.messages import N_, Message, msg
from ..rules.playing_cards import Card, parse_cards
from ..rules.presets import PRESETS
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from .problems import Problem

MAX_NUMBER = 100_000  # far above any hand, deck or round; keeps every integer column safe
ACTION_ID_LENGTH = 64  # the history's one-time token column
NAME_LENGTH = 40  # the player name column
MAX_VERSION = 2**31 - 1  # the game version column's range
SEAT_OUTSIDE = N_("There is no seat %(value)s at this table.")
_ABSENT = object()


def read_body() -> Body:
    """The request body as a JSON object (an empty body reads as {}); 400 if it is not one."""
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw, parse_constant=_not_json) if raw.strip() else {}
    except (ValueError, RecursionError) as error:
        raise Problem(400, msg(N_("The body is not valid JSON."))) from error
    if not isinstance(data, dict):
        raise Problem(400, msg(N_("The body must be a JSON object.")))
    return Body(data)


def _not_json(constant: str) -> None:
    """NaN and Infinity are Python's extensions, not JSON."""
    raise ValueError(constant)


class Body:
    """A JSON object read field by field; problems collect per field until finish()."""

    def __init__(self, data: dict[str, Any], path: str = "", errors: Any = None) -> None:
        self.data = data
        self.path = path
        self.errors: dict[str, list[Message]] = {} if errors is None else errors
        self.read: set[str] = set()
        self.children: list[Body] = []

    def field(self, name: str) -> str:
        """The field's path in the errors: "hands.2.points"."""
        return f"{self.path}.{name}" if self.path else name

    def refuse(self, name: str, message: Message) -> None:
        """Record a problem with one field."""
        self.errors.setdefault(self.field(name), []).append(message)

    def refuse_whole(self, message: Message, name: str) -> None:
        """Record a problem with this nested object as a whole (at the top: with field `name`)."""
        self.errors.setdefault(self.path or name, []).append(message)

    def has(self, name: str) -> bool:
        """Whether the body gives this field at all."""
        return name in self.data

    def value(self, name: str, default: Any = _ABSENT) -> Any:
        """The raw value of a field; a missing field without default is refused as required."""
        self.read.add(name)
        if name in self.data:
            return self.data[name]
        if default is _ABSENT:
            self.refuse(name, msg(N_("Required.")))
        return default

    def integer(
        self, name: str, default: Any = _ABSENT, *, null: bool = False, high: int = MAX_NUMBER
    ) -> Any:
        """A whole number from 0 to `high`; null only where asked for."""
        value = self.value(name, default)
        if name not in self.data or (value is None and null):
            return value
        return self.whole(name, value, high, N_("Must be a whole number from %(low)s to %(high)s."))

    def seat(self, name: str, players: int, default: Any = _ABSENT, *, null: bool = False) -> Any:
        """A seat at this table, 0 to players - 1 clockwise; null only where asked for."""
        value = self.value(name, default)
        if name not in self.data or (value is None and null):
            return value
        return self.whole(name, value, players - 1, SEAT_OUTSIDE)

    def seats(self, name: str, players: int) -> list[int]:
        """A list of seats at this table."""
        items = self.items(name)
        return [
            self.whole(f"{name}.{i}", v, players - 1, SEAT_OUTSIDE) for i, v in enumerate(items)
        ]

    def whole(self, name: str, value: object, high: int, outside: str) -> int:
        """Refuse anything but a whole number from 0 to `high` (true and 1.0 are no numbers)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse(name, msg(N_("Must be a whole number.")))
        elif not 0 <= value <= high:
            self.refuse(name, msg(outside, low=0, high=high, value=value))
        else:
            return value
        return 0

    def choice(self, name: str, choices: tuple[str, ...]) -> str:
        """One of a few words."""
        value = self.value(name)
        if value in choices:
            return str(value)
        if name in self.data:
            listed = ", ".join(choices)
            self.refuse(name, msg(N_("Must be one of: %(choices)s."), choices=listed))
        return choices[0]

    def names(self, name: str) -> list[str]:
        """Players' names in seat order, each different (any case) and 1 to 40 characters."""
        items = self.items(name)
        if self.data.get(name) == []:
            self.refuse(name, msg(N_("Name the players.")))
        names = [self.check_text(f"{name}.{i}", item) for i, item in enumerate(items)]
        seen: set[str] = set()
        for index, text in enumerate(names):
            if text and text.casefold() in seen:
                self.refuse(f"{name}.{index}", msg(N_("Each player needs a different name.")))
            seen.add(text.casefold())
        return names

    def boolean(self, name: str, default: bool = False) -> bool:
        """true or false."""
        value = self.value(name, default)
        if isinstance(value, bool):
            return value
        self.refuse(name, msg(N_("Must be true or false.")))
        return default

    def text(self, name: str, default: Any = _ABSENT, *, length: int = NAME_LENGTH) -> Any:
        """Text of 1 to `length` characters, trimmed; null where the default is null."""
        value = self.value(name, default)
        if name not in self.data or (value is None and default is None):
            return value
        return self.check_text(name, value, length)

    def check_text(self, name: str, value: object, length: int = NAME_LENGTH) -> str:
        """Refuse anything but text of 1 to `length` characters once trimmed."""
        if not isinstance(value, str):
            self.refuse(name, msg(N_("Must be text.")))
            return ""
        if not 1 <= len(value.strip()) <= length:
            self.refuse(name, msg(N_("Must be 1 to %(length)s characters."), length=length))
        return value.strip()

    def action_id(self) -> str | None:
        """The optional one-time token that makes a double tap record once."""
        token: str | None = self.text("action_id", None, length=ACTION_ID_LENGTH)
        return token

    def version(self) -> int | None:
        """The optional game version the client last read; a change built on it may conflict."""
        version: int | None = self.integer("version", None, null=True, high=MAX_VERSION)
        return version

    def items(self, name: str, default: Any = _ABSENT) -> list[Any]:
        """A JSON list, its items still to be read."""
        value = self.value(name, default)
        if isinstance(value, list):
            return value
        if name in self.data:
            self.refuse(name, msg(N_("Must be a list.")))
        return []

    def child(self, name: str, value: object) -> Body | None:
        """A nested JSON object read with this body's errors, its fields under `name`."""
        if isinstance(value, dict):
            child = Body(value, self.field(name), self.errors)
            self.children.append(child)
            return child
        self.refuse(name, msg(N_("Must be an object with named entries.")))
        return None

    def cards(self, name: str, value: object) -> list[Card]:
        """Cards as text ("KC 7H JK") or a list of tokens; the first bad token is named."""
        if isinstance(value, list) and all(isinstance(token, str) for token in value):
            tokens: str | list[str] = value
        elif isinstance(value, str):
            tokens = value
        else:
            self.refuse(name, msg(N_('Give cards as text ("KC 7H JK") or a list of cards.')))
            return []
        try:
            return parse_cards(tokens)
        except RuleError as error:
            self.refuse(name, error.message)
            return []

    def ruleset(self, name: str = "ruleset", default: str | None = None) -> RuleSet:
        """A preset by key, or a whole rule set object checked field by field."""
        value = self.value(name, _ABSENT if default is None else default)
        if isinstance(value, str) and value in PRESETS:
            return PRESETS[value]
        if isinstance(value, str):
            self.refuse(name, msg(N_("There is no rule set %(key)s."), key=value))
        elif isinstance(value, dict):
            try:
                return ruleset_from_dict(value)
            except RuleSetInvalid as error:
                for path, messages in error.errors.items():
                    self.errors.setdefault(self.field(f"{name}.{path}".rstrip(".")), []).extend(
                        messages
                    )
        elif name in self.data:
            self.refuse(name, msg(N_("Give a rule set's key or a whole rule set.")))
        return PRESETS["may-i"]

    def close(self) -> None:
        """Refuse the fields nobody read: a misspelt field must not pass unnoticed."""
        for name in self.data:
            if name not in self.read:
                self.refuse(name, msg(N_("Unknown field.")))
        for child in self.children:
            child.close()

    def finish(self) -> None:
        """Answer 422 with every problem found, before anything is changed."""
        self.close()
        if self.errors:
            raise Problem(422, errors=self.errors)
