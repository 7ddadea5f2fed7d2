"""A table's own rule sets: saved under a name, listed beside the presets, copied by each game."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from flask import abort
from sqlalchemy import select

from ..extensions import db
from ..models import HouseRules, utcnow
from ..rules.errors import RuleError
from ..rules.messages import N_, msg
from ..rules.presets import PRESETS
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict, ruleset_to_dict
from ..rules.validation import check_ruleset

NAME_LENGTH = 80  # the name column
KEY_PREFIX = "house-"  # a saved set's key: "house-7" never clashes with a preset's
MAX_ID = 2**31 - 1  # the id column's range: a larger id is no saved set, on any database


def key_of(saved: HouseRules) -> str:
    """The key a saved set goes by in forms and links."""
    return f"{KEY_PREFIX}{saved.id}"


def rules_of(saved: HouseRules) -> RuleSet:
    """A saved set as a rule set, named and keyed as it is saved."""
    return replace(ruleset_from_dict(saved.rules_json), key=key_of(saved), name=saved.name)


def all_saved() -> list[HouseRules]:
    """Every saved set, by name."""
    return list(db.session.scalars(select(HouseRules).order_by(HouseRules.name, HouseRules.id)))


def get(ruleset_id: int) -> HouseRules:
    """A saved set, or 404."""
    saved = db.session.get(HouseRules, ruleset_id) if 0 < ruleset_id <= MAX_ID else None
    if saved is None:
        abort(404)
    return saved


def by_key(key: str) -> RuleSet | None:
    """A preset or a saved set by its key ("may-i", "house-7"); None if there is none."""
    if key in PRESETS:
        return PRESETS[key]
    number = key.removeprefix(KEY_PREFIX)
    if (
        key.startswith(KEY_PREFIX)
        and re.fullmatch("[0-9]{1,10}", number)
        and 0 < int(number) <= MAX_ID
    ):
        saved = db.session.get(HouseRules, int(number))
        return None if saved is None else rules_of(saved)
    return None


def _checked_name(name: str) -> str:
    """A name of 1 to 80 characters, spaces at either end trimmed."""
    name = name.strip()
    if not name:
        raise RuleError(msg(N_("A rule set needs a name.")), field="name")
    if len(name) > NAME_LENGTH:
        message = msg(N_("Use at most %(maximum)s characters."), maximum=NAME_LENGTH)
        raise RuleError(message, field="name")
    return name


def _stored(name: str, rules: RuleSet) -> dict[str, object]:
    """The rules as stored: checked by the engine first, named as saved."""
    rules = replace(rules, name=name, key="house")
    check_ruleset(rules)
    return ruleset_to_dict(rules)


def checked_copy(name: str, rules: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A set from a backup as it would be saved: name and rules checked, else RuleError."""
    name = _checked_name(name)
    try:
        return name, _stored(name, ruleset_from_dict(rules))
    except (KeyError, ValueError, TypeError) as error:
        unreadable = msg(N_("These rules cannot be read: %(reason)s"), reason=str(error))
        raise RuleError(unreadable) from None


def create(name: str, rules: RuleSet) -> HouseRules:
    """Save a rule set under a name."""
    name = _checked_name(name)
    saved = HouseRules(name=name, rules_json=_stored(name, rules))
    db.session.add(saved)
    db.session.commit()
    return saved


def update(saved: HouseRules, name: str, rules: RuleSet) -> HouseRules:
    """Change a saved set; games started with it keep their own copy."""
    name = _checked_name(name)
    saved.rules_json = _stored(name, rules)
    saved.name = name
    saved.updated_at = utcnow()
    db.session.commit()
    return saved


def delete(saved: HouseRules) -> None:
    """Forget a saved set; games started with it keep their own copy."""
    db.session.delete(saved)
    db.session.commit()


def duplicate(saved: HouseRules, copy_name: str) -> HouseRules:
    """Save a copy of a saved set under another name."""
    return create(copy_name[:NAME_LENGTH], rules_of(saved))
