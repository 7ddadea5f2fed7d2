"""A table's own rule sets: saved under a name, listed beside the presets, copied by each game.

A saved set is a capability like a game: it opens only with its secret token, so no one lists,
reads or changes another table's sets by guessing ids.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import abort
from sqlalchemy import select

from .database import lock_rule_set, lock_writes
from .extensions import db
from .link_tokens import new_token
from .models import LARGEST_INTEGER, HouseRules, utcnow
from .rules.bounds import NAME_LENGTH, TEXT
from .rules.errors import RuleError
from .rules.messages import N_, msg
from .rules.presets import HOUSE_KEY, PRESETS
from .rules.ruleset import RuleSet
from .rules.ruleset_json import ruleset_from_dict, ruleset_to_dict
from .rules.validation import check_ruleset

KEY_PREFIX = "house-"  # a saved set's key: "house-7" never clashes with a preset's


def key_of(saved: HouseRules) -> str:
    """The key a saved set goes by in forms and links."""
    return f"{KEY_PREFIX}{saved.id}"


def rules_of(saved: HouseRules) -> RuleSet:
    """A saved set as a rule set, named and keyed as it is saved."""
    return replace(
        ruleset_from_dict(saved.rules_json, stored=True), key=key_of(saved), name=saved.name
    )


def opens(saved: HouseRules, token: str) -> bool:
    """Whether the token is the set's own, compared in constant time."""
    return secrets.compare_digest(token.encode(), saved.token.encode())


def among(tokens: Mapping[int, str]) -> list[HouseRules]:
    """The saved sets these tokens open, by name: one query by id, never a scan."""
    ids = [i for i in tokens if 0 < i <= LARGEST_INTEGER]
    if not ids:
        return []
    query = select(HouseRules).where(HouseRules.id.in_(ids))
    found = [saved for saved in db.session.scalars(query) if opens(saved, tokens[saved.id])]
    return sorted(found, key=lambda saved: (saved.name, saved.id))


def get(ruleset_id: int, token: str | None, *, change: bool = False) -> HouseRules:
    """The saved set this token opens, or 404: the same for a missing set and a wrong token.

    For a change the set is locked before it is read, so concurrent saves wait their turn.
    """
    if change and 0 < ruleset_id <= LARGEST_INTEGER:
        lock_rule_set(ruleset_id)
    saved = db.session.get(HouseRules, ruleset_id) if 0 < ruleset_id <= LARGEST_INTEGER else None
    if saved is None or token is None or not opens(saved, token):
        abort(404)
    return saved


def by_key(key: str, tokens: Mapping[int, str]) -> RuleSet | None:
    """A preset, or a saved set the tokens open, by its key ("may-i", "house-7"); else None."""
    if key in PRESETS:
        return PRESETS[key]
    number = key.removeprefix(KEY_PREFIX)
    if not (key.startswith(KEY_PREFIX) and re.fullmatch("[0-9]{1,10}", number)):
        return None
    found = among({int(number): tokens[int(number)]} if int(number) in tokens else {})
    return rules_of(found[0]) if found else None


def _checked_name(name: str) -> str:
    """A name of 1 to 80 characters, spaces at either end trimmed."""
    name = name.strip()
    if not name:
        raise RuleError(msg(N_("A rule set needs a name.")), field="name")
    if len(name) > NAME_LENGTH:
        message = msg(TEXT, high=NAME_LENGTH)
        raise RuleError(message, field="name")
    return name


def _stored(name: str, rules: RuleSet, copied: bool = False) -> dict[str, object]:
    """The rules as stored: checked by the engine first (a copy as it was made), named as saved."""
    rules = replace(rules, name=name, key=HOUSE_KEY)
    check_ruleset(rules, stored=copied)
    return ruleset_to_dict(rules)


def checked_copy(name: str, rules: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A set from a backup as it would be saved: name and rules checked, else RuleError."""
    name = _checked_name(name)
    try:
        return name, _stored(name, ruleset_from_dict(rules, stored=True), copied=True)
    except (KeyError, ValueError, TypeError) as error:
        unreadable = msg(N_("These rules cannot be read: %(reason)s"), reason=str(error))
        raise RuleError(unreadable) from None


def create(name: str, rules: RuleSet, copied: bool = False) -> HouseRules:
    """Save a rule set under a name; a copy of a saved set keeps its round count as made."""
    name = _checked_name(name)
    saved = HouseRules(name=name, rules_json=_stored(name, rules, copied), token=new_token())
    lock_writes()
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
    return create(copy_name[:NAME_LENGTH], rules_of(saved), copied=True)
