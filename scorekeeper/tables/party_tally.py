"""Tonight's tally read from an evening: its games' scored rounds handed to the rules engine."""

from __future__ import annotations

from ..rules.game_state import GameState
from ..rules.party_tally import Tally, TallyGame, TallyRound, tally
from .party_evening import Evening


def evening_tally(evening: Evening) -> Tally:
    """The podium and highlights of an evening, from every game's regular rounds, in order."""
    games = (
        _tally_game(number, table.number, table.game)
        for number, tables in enumerate(evening.rounds, start=1)
        for table in tables
    )
    return tally(evening.standings, games)


def _tally_game(evening_round: int, table: int, state: GameState) -> TallyGame:
    """One game's people and scored regular rounds, as the tally reads them."""
    people = tuple(str(seat.person) for seat in state.facts.seats)
    rounds = tuple(
        TallyRound(
            outcome.scores,
            outcome.went_out,
            tuple(state.buys_in(number)[seat] for seat in range(state.players)),
            state.rounds[number].run_outs,
        )
        for number, outcome in enumerate(state.outcomes, start=1)
    )
    return TallyGame(evening_round, table, people, rounds)
