"""Saved house rule sets through the API: list, create, read, update, delete, and validate."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, url_for

from ..games import house_rules
from ..models import HouseRules
from ..rules.ruleset import RuleSet
from .answer_base import Answer, Count, Timestamp, answer
from .fields import text
from .game_answers import iso
from .openapi import documented
from .reading import read
from .request_base import Body, RuleSetChoice

# No max= here: werkzeug answers an id past the maximum with 405, not 404; get() checks the range.
SAVED = "/v1/rulesets/saved/<int:ruleset_id>"


class SavedRuleSetRequest(Body):
    """A house rule set to save: its name, and a preset's key or a whole rule set to start from."""

    name: text(house_rules.NAME_LENGTH)  # type: ignore[valid-type]
    rules: RuleSetChoice


class RuleSetCheckRequest(Body):
    """A rule set to check: every problem is answered with 422, at its field."""

    rules: RuleSetChoice


class SavedRuleSet(Answer):
    """A saved house rule set; `key` starts a game with it in the web pages."""

    id: Count
    key: str
    name: str
    rules: RuleSet
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, saved: HouseRules) -> SavedRuleSet:
        return cls(
            id=saved.id,
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


@documented({200: list[SavedRuleSet]})
def saved_index() -> tuple[Response, int]:
    """List the saved house rule sets, by name."""
    return jsonify(
        [SavedRuleSet.of(s).model_dump(mode="json") for s in house_rules.all_saved()]
    ), 200


@documented({201: SavedRuleSet}, SavedRuleSetRequest)
def saved_create() -> tuple[Response, int, dict[str, str]]:
    """Save a house rule set under a name."""
    body = read(SavedRuleSetRequest)
    saved = house_rules.create(body.name, body.rules)
    response, status = answer(SavedRuleSet.of(saved), 201)
    return response, status, {"Location": url_for(".saved_show", ruleset_id=saved.id)}


@documented({200: SavedRuleSet}, errors=(404,))
def saved_show(ruleset_id: int) -> tuple[Response, int]:
    """Show one saved house rule set."""
    return answer(SavedRuleSet.of(house_rules.get(ruleset_id)))


@documented({200: SavedRuleSet}, SavedRuleSetRequest, errors=(404,))
def saved_update(ruleset_id: int) -> tuple[Response, int]:
    """Replace a saved house rule set; games started with it keep their own copy."""
    body = read(SavedRuleSetRequest)  # a bad body is refused whether or not the set exists
    saved = house_rules.get(ruleset_id)
    return answer(SavedRuleSet.of(house_rules.update(saved, body.name, body.rules)))


@documented({200: SavedRuleSet}, errors=(404,))
def saved_delete(ruleset_id: int) -> tuple[Response, int]:
    """Delete a saved house rule set and answer it as it was; its games keep their copy."""
    saved = house_rules.get(ruleset_id)
    gone = SavedRuleSet.of(saved)
    house_rules.delete(saved)
    return answer(gone)


@documented({200: RuleSetValid}, RuleSetCheckRequest)
def rulesets_validate() -> tuple[Response, int]:
    """Check a rule set with the rules engine: 200 when playable, else 422 with each problem."""
    return answer(RuleSetValid(valid=True, rules=read(RuleSetCheckRequest).rules))


def register(bp: Blueprint) -> None:
    """Add the saved rule set routes to the API."""
    bp.add_url_rule("/v1/rulesets/saved", view_func=saved_index, methods=["GET"])
    bp.add_url_rule("/v1/rulesets/saved", view_func=saved_create, methods=["POST"])
    bp.add_url_rule(SAVED, view_func=saved_show, methods=["GET"])
    bp.add_url_rule(SAVED, view_func=saved_update, methods=["PUT"])
    bp.add_url_rule(SAVED, view_func=saved_delete, methods=["DELETE"])
    bp.add_url_rule("/v1/rulesets/validate", view_func=rulesets_validate, methods=["POST"])
