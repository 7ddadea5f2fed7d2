"""A game's state for the service: its facts read (games/facts.py), derived by the rules engine
(rules/game_state.py) under its parsed rule set. Kept per version by games/opening.py, in the
one cache (kept.py); nothing here is stored or kept."""

from __future__ import annotations

import json
from collections.abc import Collection
from functools import lru_cache

from flask import abort

from ..rules import game_state as derive
from ..rules.game_facts import GameFacts
from ..rules.game_state import GameState
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from .facts import read_game, read_games


def load_game(game_id: int) -> GameFacts:
    """The game's facts (games.facts.read_game), or 404."""
    facts = read_game(game_id)
    if facts is None:
        abort(404)
    return facts


def recent_games(game_ids: Collection[int]) -> list[GameState]:
    """These games, most recently changed first, in a fixed number of queries."""
    found = sorted(read_games(game_ids), key=lambda facts: facts.updated_at, reverse=True)
    return [game_state(facts) for facts in found]


# Not game data: a rule set's text, shared by every game of a preset or saved set.
@lru_cache(maxsize=1024)
def parsed_rules(text: str) -> RuleSet:
    """A stored rule set, parsed once per text and process (the rules never change in play)."""
    return ruleset_from_dict(json.loads(text), stored=True)


def game_rules(facts: GameFacts) -> RuleSet:
    """The rule set a game is played under."""
    return parsed_rules(facts.rules_text)


def game_state(
    facts: GameFacts, rules: RuleSet | None = None, before: GameState | None = None
) -> GameState:
    """Read a game's facts through the rules engine (`rules`: its rule set, if parsed;
    `before`: the state they were made from, rules.game_state's shortcut)."""
    return derive.game_state(facts, rules or game_rules(facts), before)
