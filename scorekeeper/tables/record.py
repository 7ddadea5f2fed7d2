"""A table's finished games as the rules engine's stats read them: seats as people, after merges.

Scoring a game through the rules engine is most of the record's cost, and a game's score
changes only with the game: every change bumps its version. So each game's scored result is
kept in the one cache (kept.py) by (id, version, edit link); nothing is stored, and a corrected
game is scored again. People are not kept: a merge changes who sat where without changing the game.
"""

from __future__ import annotations

from dataclasses import replace

from ..games.facts import read_table_games
from ..games.state import game_state
from ..kept import keep_scored, scored_of
from ..rules.game_facts import GameFacts
from ..rules.game_state import GameState
from ..rules.stats import PlayedGame, PlayedRound


def played_games(table_id: int) -> list[PlayedGame]:
    """The table's finished games, for the stats, in a fixed number of queries."""
    # Taken once: another request may drop a kept result while this one reads the rest.
    found: dict[int, PlayedGame | None] = {}

    def known(game: GameFacts) -> bool:
        hit, scored = scored_of(game)
        if hit:
            found[game.id] = scored
        return hit

    played = []
    for game in read_table_games(table_id, known):
        people = tuple(seat.person or 0 for seat in game.seats)
        if game.id in found:
            scored = found[game.id]
        else:
            state = game_state(game)
            scored = played_game(state) if state.finished else None
            keep_scored(game, scored)
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
