"""A table's finished games as the rules engine's stats read them: seats as people, after merges."""

from __future__ import annotations

from ..games.state import GameState
from ..rules.stats import PlayedGame, PlayedRound
from .facts import table_game_states


def played_games(table_id: int) -> list[PlayedGame]:
    """The table's finished games, for the stats, in a fixed number of queries."""
    return [played_game(state) for state in table_game_states(table_id) if state.finished]


def played_game(state: GameState) -> PlayedGame:
    """A finished game read from rows (facts.GameRow) as facts for the stats."""
    people = tuple(seat.person for seat in state.game.seats)  # type: ignore[attr-defined]
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


def _buys(state: GameState, number: int, players: int) -> tuple[int, ...]:
    """Buys per seat in one round."""
    bought = state.buys_in(number)
    return tuple(bought[seat] for seat in range(players))
