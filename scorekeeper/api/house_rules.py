"""Saved house rule sets through the API: create, read, update, delete, and validate.

A set opens with its own token (answered on create) as a bearer token, as a game does; there
is no list of every set: ids are no secret, tokens are.
"""

from __future__ import annotations

from flask import Blueprint, Response, url_for
from werkzeug.exceptions import NotFound

from .. import house_rules
from ..models import HouseRules, iso
from ..rules.bounds import NAME_LENGTH
from ..rules.messages import N_, msg
from ..rules.ruleset import RuleSet
from .access import CHALLENGE, INVALID, bearer_token
from .answer_base import Answer, Count, Timestamp, answer
from .fields import text
from .openapi import documented
from .problems import Problem
from .reading import read
from .request_base import Body, RuleSetChoice

# No max= here: werkzeug answers an id past the maximum with 405, not 404; get() checks the range.
SAVED = "/v1/rulesets/saved/<int:ruleset_id>"
NO_RULE_SET = N_("There is no rule set %(key)s.")
NO_TOKEN = N_("Send the rule set's token in an Authorization: Bearer header.")
OPENS_NOTHING = N_("No saved rule set %(id)s opens with that link.")


class SavedRuleSetRequest(Body):
    """A house rule set to save: its name, and a preset's key or a whole rule set to start from."""

    name: text(NAME_LENGTH)  # type: ignore[valid-type]
    rules: RuleSetChoice


class RuleSetCheckRequest(Body):
    """A rule set to check: every problem is answered with 422, at its field."""

    rules: RuleSetChoice


class SavedRuleSet(Answer):
    """A saved house rule set; `token` opens it (keep it secret); `key` names it in the pages."""

    id: Count
    token: str
    key: str
    name: str
    rules: RuleSet
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, saved: HouseRules) -> SavedRuleSet:
        return cls(
            id=saved.id,
            token=saved.token,
            key=house_rules.key_of(saved),
            name=saved.name,
            rules=house_rules.rules_of(saved),
            created_at=iso(saved.created_at) or "",
            updated_at=iso(saved.updated_at) or "",
        )


class RuleSetValid(Answer):
    """A rule set the engine found playable, as it reads it (defaults filled in)."""

    valid: bool
    rules: RuleSet


@documented({201: SavedRuleSet}, SavedRuleSetRequest)
def saved_create() -> tuple[Response, int, dict[str, str]]:
    """Save a house rule set under a name."""
    body = read(SavedRuleSetRequest)
    saved = house_rules.create(body.name, body.rules)
    response, status = answer(SavedRuleSet.of(saved), 201)
    return response, status, {"Location": url_for(".saved_show", ruleset_id=saved.id)}


def _opened(ruleset_id: int, *, change: bool = False) -> HouseRules:
    """The set this request's bearer token opens: 401 without one or with one that opens no
    set (the same for a missing set and a wrong token)."""
    token = bearer_token()
    if token is None:
        raise Problem(401, msg(NO_TOKEN), headers=[CHALLENGE])
    try:
        return house_rules.get(ruleset_id, token, change=change)
    except NotFound:
        raise Problem(401, msg(OPENS_NOTHING, id=ruleset_id), headers=[INVALID]) from None


@documented({200: SavedRuleSet})
def saved_show(ruleset_id: int) -> tuple[Response, int]:
    """Show one saved house rule set."""
    return answer(SavedRuleSet.of(_opened(ruleset_id)))


@documented({200: SavedRuleSet}, SavedRuleSetRequest)
def saved_update(ruleset_id: int) -> tuple[Response, int]:
    """Replace a saved house rule set; games started with it keep their own copy."""
    saved = _opened(ruleset_id, change=True)  # as for a game: the link first, then the body
    body = read(SavedRuleSetRequest)
    return answer(SavedRuleSet.of(house_rules.update(saved, body.name, body.rules)))


@documented({200: SavedRuleSet})
def saved_delete(ruleset_id: int) -> tuple[Response, int]:
    """Delete a saved house rule set and answer it as it was; its games keep their copy."""
    saved = _opened(ruleset_id, change=True)
    gone = SavedRuleSet.of(saved)
    house_rules.delete(saved)
    return answer(gone)


@documented({200: RuleSetValid}, RuleSetCheckRequest)
def rulesets_validate() -> tuple[Response, int]:
    """Check a rule set with the rules engine: 200 when playable, else 422 with each problem."""
    return answer(RuleSetValid(valid=True, rules=read(RuleSetCheckRequest).rules))


def chosen(ruleset: RuleSet | str, token: str | None) -> RuleSet:
    """The rules a new game names: a whole set or a preset as read, or the saved set `house-<id>`
    its token opens; else 422 at `ruleset`, the same for a wrong token as for no such set."""
    if isinstance(ruleset, RuleSet):
        return ruleset
    number = ruleset.removeprefix(house_rules.KEY_PREFIX)
    tokens = {int(number): token} if token and number.isdecimal() else {}
    rules = house_rules.by_key(ruleset, tokens)  # as the start forms find it
    if rules is None:
        raise Problem(422, errors={"ruleset": [msg(NO_RULE_SET, key=ruleset)]})
    return rules


def register(bp: Blueprint) -> None:
    """Add the saved rule set routes to the API."""
    bp.add_url_rule("/v1/rulesets/saved", view_func=saved_create, methods=["POST"])
    bp.add_url_rule(SAVED, view_func=saved_show, methods=["GET"])
    bp.add_url_rule(SAVED, view_func=saved_update, methods=["PUT"])
    bp.add_url_rule(SAVED, view_func=saved_delete, methods=["DELETE"])
    bp.add_url_rule("/v1/rulesets/validate", view_func=rulesets_validate, methods=["POST"])
