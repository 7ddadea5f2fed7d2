"""The house-rule editor's form: each input is named by its rule set path ("rounds.2.deal").

The form is read back into the same JSON data the API takes, so the rules engine's reader names
each problem by the very input that caused it.
"""

from __future__ import annotations

import base64
import binascii
import copy
import dataclasses
import enum
import json
import re
import types
import typing
import zlib
from typing import Any

from werkzeug.datastructures import MultiDict

from ..rules.bounds import MAX_DECK_RULES, MAX_ROUNDS, MIN_ROUNDS, STORED_MAX_ROUNDS
from ..rules.ruleset import RuleSet

WHOLE = re.compile(r"-?[0-9]{1,9}")
INDEX = re.compile(r"[0-9]{1,3}")  # ASCII digits only: str.isdigit() also takes "²", int() not
CHECKED = "on"  # a ticked box; each box follows a hidden "off" so an unticked one is still sent
# The editor draws every round and deck rule it is given: past the most any stored set holds
# it reads no more, so no form or link makes its page grow (the rules refuse more than 12).
MOST_ITEMS = STORED_MAX_ROUNDS
Data = dict[str, Any]


def read_form(form: MultiDict[str, str]) -> Data:
    """The form as rule set JSON data: numbers read where they are numbers, text left as typed."""
    data = _read(RuleSet, "", form)
    assert isinstance(data, dict)
    return data


def clipped(data: object) -> Data:
    """Rule set data from a link, its rounds and deck rules cut at MOST_ITEMS; {} if no object."""
    if not isinstance(data, dict):
        return {}
    lists = {
        key: data[key][:MOST_ITEMS]
        for key in ("rounds", "decks")
        if isinstance(data.get(key), list)
    }
    return {**data, **lists}


def flatten(data: object, path: str = "") -> dict[str, Any]:
    """Rule set JSON data as the form's inputs: {"rounds.0.deal": 10, ...}."""
    if isinstance(data, dict):
        return {
            k: v for key, item in data.items() for k, v in flatten(item, _join(path, key)).items()
        }
    if isinstance(data, list):
        return {
            k: v for i, item in enumerate(data) for k, v in flatten(item, _join(path, i)).items()
        }
    return {path: data}


def apply(data: Data, operation: str) -> Data:
    """Add, remove or move a round or a deck rule, as the editor's small buttons ask."""
    data = copy.deepcopy(data)
    name, _, index_text = operation.partition(":")
    rounds, decks = data.get("rounds"), data.get("decks")
    index = int(index_text) if INDEX.fullmatch(index_text) else -1
    if isinstance(rounds, list) and rounds:
        if name == "round-add" and len(rounds) < MAX_ROUNDS:
            rounds.append(copy.deepcopy(rounds[-1]))
        elif name == "round-remove" and 0 <= index < len(rounds) and len(rounds) > MIN_ROUNDS:
            del rounds[index]
        elif name == "round-up" and 0 < index < len(rounds):
            rounds[index - 1], rounds[index] = rounds[index], rounds[index - 1]
        elif name == "round-down" and 0 <= index < len(rounds) - 1:
            rounds[index + 1], rounds[index] = rounds[index], rounds[index + 1]
    if isinstance(decks, list) and decks:
        if name == "deck-add" and len(decks) < MAX_DECK_RULES:
            decks.append(copy.deepcopy(decks[-1]))
        elif name == "deck-remove" and 0 <= index < len(decks) and len(decks) > 1:
            del decks[index]
    return data


def encode(data: Data) -> str:
    """Rule set data packed into a link: compressed JSON in URL-safe base64."""
    packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)
    return base64.urlsafe_b64encode(packed).decode().rstrip("=")


def decode(text: str) -> object:
    """Rule set data unpacked from a link; None if it is not one."""
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        unpacked = zlib.decompressobj().decompress(packed, 64_000)  # bounded: no zip bomb
        return json.loads(unpacked)
    except (binascii.Error, zlib.error, ValueError, RecursionError):
        return None


def _join(path: str, name: object) -> str:
    return f"{path}.{name}" if path else str(name)


def _indices(form: MultiDict[str, str], path: str) -> list[int]:
    """The list items the form holds under a path, in the order of their numbers."""
    prefix = f"{path}."
    found = {key[len(prefix) :].split(".")[0] for key in form if key.startswith(prefix)}
    return sorted(int(index) for index in found if INDEX.fullmatch(index))[:MOST_ITEMS]


def _number(text: str) -> object:
    """A whole number, or the text as typed so the reader refuses it at its field."""
    text = text.strip()
    return int(text) if WHOLE.fullmatch(text) else text


def _read(tp: Any, path: str, form: MultiDict[str, str]) -> object:
    """Read the value of type `tp` the form holds at `path`."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = next(arg for arg in typing.get_args(tp) if arg is not types.NoneType)
        blank = not form.get(path, "").strip()
        return None if blank and inner is int else _read(inner, path, form)
    if origin is tuple:
        item = typing.get_args(tp)[0]
        return [_read(item, _join(path, i), form) for i in _indices(form, path)]
    if origin is dict:
        prefix = f"{path}."
        return {key[len(prefix) :]: _number(form[key]) for key in form if key.startswith(prefix)}
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        return {
            f.name: _read(hints[f.name], _join(path, f.name), form)
            for f in dataclasses.fields(tp)
            if _given(hints[f.name], _join(path, f.name), form)
        }
    if tp is bool:
        return CHECKED in form.getlist(path)
    if tp is int:
        return _number(form.get(path, ""))
    if isinstance(tp, type) and issubclass(tp, enum.Enum | str):
        return form.get(path, "")
    raise TypeError(f"the editor cannot read {tp!r} at {path!r}")


def _given(tp: Any, path: str, form: MultiDict[str, str]) -> bool:
    """Whether the form holds this setting at all; one it leaves out keeps its default."""
    prefix = f"{path}."
    return path in form or any(key.startswith(prefix) for key in form)
