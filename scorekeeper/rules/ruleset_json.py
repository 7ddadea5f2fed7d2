"""Rule sets to and from JSON, refusing bad input with every problem named by its field."""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import types
import typing
from collections.abc import Iterable
from typing import Any

from .errors import RuleSetInvalid
from .messages import N_, Message, msg
from .presets import own_identity
from .ruleset import RuleSet
from .validation import validate_ruleset

ROOT = ""  # the error key for a problem with the document as a whole
Errors = dict[str, list[Message]]


class _Invalid:
    """Stands for a value that could not be read; its problems are already recorded."""


_INVALID = _Invalid()
_SCALAR_MESSAGES: dict[type, str] = {
    bool: N_("Must be true or false."),
    int: N_("Must be a whole number."),
    str: N_("Must be text."),
}


def ruleset_to_dict(rules: RuleSet) -> dict[str, Any]:
    """Write a rule set as JSON-ready data: enums as their values, tuples as lists."""
    data = _to_data(rules)
    assert isinstance(data, dict)
    return data


def ruleset_to_json(rules: RuleSet) -> str:
    """Write a rule set as JSON text, fields in declaration order."""
    return json.dumps(ruleset_to_dict(rules), ensure_ascii=False)


def ruleset_from_dict(data: object, *, stored: bool = False) -> RuleSet:
    """Read a rule set from JSON data; refuse it with every problem, per field, if any.

    A set a client sends is the table's own unless it is a preset (presets.own_identity).
    `stored` reads a copy kept earlier (a game's, a saved set's) as it was kept, with the
    round count it has.
    """
    errors: Errors = {}
    rules = _convert(RuleSet, data, ROOT, errors)
    if errors:
        raise RuleSetInvalid(errors)
    assert isinstance(rules, RuleSet)
    problems = validate_ruleset(rules, stored=stored)
    if problems:
        raise RuleSetInvalid(problems)
    return rules if stored else own_identity(rules)


def ruleset_from_json(text: str) -> RuleSet:
    """Read a rule set from JSON text; refuse text that is not JSON or not a valid rule set."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        message = msg(
            N_("Not valid JSON (line %(line)s, column %(column)s)."),
            line=error.lineno,
            column=error.colno,
        )
        raise RuleSetInvalid({ROOT: [message]}) from error
    return ruleset_from_dict(data)


def _to_data(value: object) -> object:
    """Turn dataclasses, enums, tuples and dicts into plain JSON values, recursively."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_to_data(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _to_data(item) for key, item in value.items()}
    return value


def _join(path: str, name: object) -> str:
    return f"{path}.{name}" if path else str(name)


def _refuse(errors: Errors, path: str, message: Message) -> _Invalid:
    errors.setdefault(path, []).append(message)
    return _INVALID


def _any_invalid(items: Iterable[object]) -> bool:
    return any(item is _INVALID for item in items)


# Not game data: the type hints of the rule set's own dataclasses, a fixed few.
@functools.lru_cache(maxsize=64)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _convert(tp: Any, value: object, path: str, errors: Errors) -> object:
    """Read `value` as type `tp`, recording problems under `path`; _INVALID if it cannot."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _convert_optional(tp, value, path, errors)
    if origin is tuple:
        return _convert_tuple(tp, value, path, errors)
    if origin is dict:
        return _convert_dict(tp, value, path, errors)
    if dataclasses.is_dataclass(tp):
        return _convert_dataclass(tp, value, path, errors)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _convert_enum(tp, value, path, errors)
    if tp in _SCALAR_MESSAGES:
        # bool is a subclass of int, but true is no number of cards.
        if isinstance(value, tp) and (tp is bool or not isinstance(value, bool)):
            return value
        if tp is int and isinstance(value, float) and value.is_integer():
            return int(value)  # JSON has one kind of number: 3.0 is the whole number 3
        return _refuse(errors, path, msg(_SCALAR_MESSAGES[tp]))
    raise TypeError(f"no JSON reader for {tp!r} at {path!r}")


def _convert_optional(tp: Any, value: object, path: str, errors: Errors) -> object:
    """X | None: null stands for None (e.g. "no cap"), anything else must be an X."""
    others = [arg for arg in typing.get_args(tp) if arg is not types.NoneType]
    if len(others) != 1:
        raise TypeError(f"only X | None unions are supported, not {tp!r}")
    return None if value is None else _convert(others[0], value, path, errors)


def _convert_tuple(tp: Any, value: object, path: str, errors: Errors) -> object:
    """tuple[X, ...] arrives as a JSON list; each item's path ends in its 0-based index."""
    args = typing.get_args(tp)
    if len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"only tuple[X, ...] is supported, not {tp!r}")
    if not isinstance(value, list | tuple):
        return _refuse(errors, path, msg(N_("Must be a list.")))
    items = [_convert(args[0], item, _join(path, i), errors) for i, item in enumerate(value)]
    return _INVALID if _any_invalid(items) else tuple(items)


def _convert_dict(tp: Any, value: object, path: str, errors: Errors) -> object:
    """dict[str, X] arrives as a JSON object; each entry's path ends in its key."""
    key_type, value_type = typing.get_args(tp)
    if key_type is not str:
        raise TypeError(f"only str keys are supported, not {tp!r}")
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        return _refuse(errors, path, msg(N_("Must be an object with named entries.")))
    items = {
        key: _convert(value_type, item, _join(path, key), errors) for key, item in value.items()
    }
    return _INVALID if _any_invalid(items.values()) else items


def _convert_dataclass(tp: Any, value: object, path: str, errors: Errors) -> object:
    """A dataclass arrives as an object: unknown keys are refused, omitted ones default."""
    if not isinstance(value, dict):
        return _refuse(errors, path, msg(N_("Must be an object with named settings.")))
    fields = {f.name: f for f in dataclasses.fields(tp) if f.init}
    unknown = [key for key in value if key not in fields]
    for key in unknown:
        _refuse(errors, _join(path, key), msg(N_("Unknown setting.")))
    missing = [name for name, f in fields.items() if name not in value and _required(f)]
    for name in missing:
        _refuse(errors, _join(path, name), msg(N_("Required.")))
    kwargs = {
        name: _convert(_hints(tp)[name], value[name], _join(path, name), errors)
        for name in fields
        if name in value
    }
    if unknown or missing or _any_invalid(kwargs.values()):
        return _INVALID
    return tp(**kwargs)


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _convert_enum(tp: type[enum.Enum], value: object, path: str, errors: Errors) -> object:
    """An enum arrives as its value ("high_or_low"), not its name."""
    try:
        return tp(value)
    except (ValueError, TypeError):
        choices = ", ".join(str(member.value) for member in tp)
        return _refuse(errors, path, msg(N_("Must be one of: %(choices)s."), choices=choices))
