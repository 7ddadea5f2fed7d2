"""A table's games as the rules engine's stats read them: seats as people, after merges."""

from __future__ import annotations

from ..games.state import GameState
from ..models import person_of
from ..rules.stats import PlayedGame, PlayedRound


def played_game(state: GameState) -> PlayedGame:
    """A finished game of a table as facts for the stats: people, rounds, buys, winners."""
    people = tuple(
        person_of(seat.table_player).id if seat.table_player else -seat.position - 1
        for seat in state.game.seats
    )
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
    tiebreak_seats = frozenset(seat for t in state.tiebreakers for seat in t.seats)
    extra = [_buys(state, n, players) for n in state.rounds if n > regular]
    tiebreak_buys = tuple(sum(b[seat] for b in extra) for seat in range(players)) if extra else ()
    return PlayedGame(
        ruleset=state.rules.key,
        played_on=state.game.created_at.date(),
        people=people,
        rounds=rounds,
        winners=state.standings.winners,
        tiebreak_seats=tiebreak_seats,
        tiebreak_buys=tiebreak_buys,
    )


def played_games(states: list[GameState]) -> list[PlayedGame]:
    """The finished ones among these games, for the stats."""
    return [played_game(state) for state in states if state.finished]


def _buys(state: GameState, number: int, players: int) -> tuple[int, ...]:
    """Buys per seat in one round."""
    bought = state.buys_in(number)
    return tuple(bought[seat] for seat in range(players))
