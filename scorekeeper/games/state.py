"""A game's state for the service: its facts read (games/facts.py), derived by the rules engine
(rules/game_state.py) under its parsed rule set, and kept per version. Nothing here is stored."""

from __future__ import annotations

import json
from collections.abc import Collection
from functools import lru_cache

from flask import abort

from ..recent import Recent, per_app
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


STATES_KEPT = 256  # games shown recently, per process: a few KB each


class KeptStates:
    """Derived states of recently shown games by (game id, version), least recently used out.

    An entry can never be stale: every change to a game's facts (buys, hands, corrections,
    undo, run-outs, links) goes through history.record or history.write, which bumps the
    game's version in the same transaction, and versions only grow, so no later read names an
    older entry's version. Games of a card table are not kept: renaming or merging a table's
    person changes their seats' names without a new version. States are frozen values, shared
    between threads; only games/opening.py reads and keeps them.
    """

    def __init__(self) -> None:
        self._states: Recent[tuple[int, int], GameState] = Recent(STATES_KEPT)

    def get(self, game_id: int, version: int) -> GameState | None:
        """The state kept for this version of the game, if any."""
        return self._states.get((game_id, version))

    def keep(self, state: GameState) -> None:
        """Keep a state, under the version its facts were read at."""
        if state.facts.table_id is None:
            self._states.put((state.facts.id, state.facts.version), state)


def kept_states() -> KeptStates:
    """This app's kept states."""
    return per_app("scorekeeper.kept_states", KeptStates)


@lru_cache(maxsize=1024)
def parsed_rules(text: str) -> RuleSet:
    """A stored rule set, parsed once per text and process (the rules never change in play)."""
    return ruleset_from_dict(json.loads(text), stored=True)


def game_rules(facts: GameFacts) -> RuleSet:
    """The rule set a game is played under."""
    return parsed_rules(facts.rules_text)


def game_state(facts: GameFacts, rules: RuleSet | None = None) -> GameState:
    """Read a game's facts through the rules engine (`rules`: its rule set, if parsed)."""
    return derive.game_state(facts, rules or game_rules(facts))
