"""A table's finished games as the rules engine's stats read them: seats as people, after merges.

Scoring a game through the rules engine is most of the record's cost, and a game's score
changes only with the game: every change bumps its version. So each game's scored result is
kept in-process by (id, version, edit link); nothing is stored, and a corrected game is scored
again. People are not kept: a merge changes who sat where without changing the game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace

from flask import current_app

from ..games.facts import read_table_games
from ..games.state import game_state
from ..rules.game_facts import GameFacts
from ..rules.game_state import GameState
from ..rules.stats import PlayedGame, PlayedRound

Key = tuple[int, int, str]
CACHE_SIZE = 50_000  # scored games kept per app, the least recently read dropped first


class ScoredGames:
    """What each game read lately scored to (None for an unfinished game), by its key."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._scored: OrderedDict[Key, PlayedGame | None] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, key: Key) -> tuple[bool, PlayedGame | None]:
        """Whether a result is kept, and the result, marked as read just now."""
        with self._lock:
            if key not in self._scored:
                return False, None
            self._scored.move_to_end(key)
            return True, self._scored[key]

    def put(self, key: Key, played: PlayedGame | None) -> None:
        """Keep a result, dropping the least recently read beyond the size."""
        with self._lock:
            self._scored[key] = played
            while len(self._scored) > self.size:
                self._scored.popitem(last=False)


def scored_games() -> ScoredGames:
    """This app's kept results."""
    return current_app.extensions.setdefault("scorekeeper.scored_games", ScoredGames())  # type: ignore[no-any-return]


def _key(game: GameFacts) -> Key:
    """A game's key: a correction bumps the version; the link tells apart games of equal id."""
    return (game.id, game.version, game.edit_token)


def played_games(table_id: int) -> list[PlayedGame]:
    """The table's finished games, for the stats, in a fixed number of queries."""
    kept = scored_games()
    # Taken once: another request may drop a kept result while this one reads the rest.
    found: dict[Key, PlayedGame | None] = {}

    def known(game: GameFacts) -> bool:
        hit, scored = kept.find(_key(game))
        if hit:
            found[_key(game)] = scored
        return hit

    played = []
    for game in read_table_games(table_id, known):
        people = tuple(seat.person or 0 for seat in game.seats)
        key = _key(game)
        if key in found:
            scored = found[key]
        else:
            state = game_state(game)
            scored = played_game(state) if state.finished else None
            kept.put(key, scored)
        if scored is not None:
            played.append(replace(scored, people=people))
    return played


def played_game(state: GameState) -> PlayedGame:
    """A finished game's state as facts for the stats: seats as the table's people."""
    people = tuple(seat.person or 0 for seat in state.facts.seats)
    players = len(people)
    rounds = tuple(
        PlayedRound(
            contract=state.rules.rounds[number - 1].contract,
            scores=outcome.scores,
            went_out=outcome.went_out,
            buys=_buys(state, number, players),
        )
        for number, outcome in enumerate(state.outcomes, start=1)
    )
    regular = len(state.rules.rounds)
    extra = [_buys(state, n, players) for n in state.rounds if n > regular]
    tiebreak_buys = tuple(sum(b[seat] for b in extra) for seat in range(players)) if extra else ()
    return PlayedGame(
        ruleset=state.rules.key,
        ruleset_name=state.rules.name,
        played_on=state.facts.created_at.date(),
        people=people,
        rounds=rounds,
        winners=state.standings.winners,
        tiebreak_buys=tiebreak_buys,
    )


def _buys(state: GameState, number: int, players: int) -> tuple[int, ...]:
    """Buys per seat in one round."""
    bought = state.buys_in(number)
    return tuple(bought[seat] for seat in range(players))
