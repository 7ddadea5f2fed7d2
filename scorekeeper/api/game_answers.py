"""A game as the API answers it, declared once: the answer is built and documented from these."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ..i18n import translate_text
from ..models import LARGEST_INTEGER, iso
from ..rules.game_state import GameState
from ..rules.ruleset import RuleSet
from ..rules.standings import Standings
from .answer_base import Answer, Count, Score, Timestamp
from .round_answers import CurrentRoundAnswer, PlayedRound, played
from .seat_answers import NextGame, SeatLink


class Player(Answer):
    seat: Count
    name: str


class StandingRow(Answer):
    seat: Count
    name: str
    total: Score
    rounds_out: Count
    place: Count


class StandingsAnswer(Answer):
    """Rows best first, the winners once decided, who plays a tiebreaker, and why."""

    rows: list[StandingRow]
    winners: list[Count]
    needs_tiebreaker: list[Count]
    explanation: list[str]

    @classmethod
    def of(cls, table: Standings) -> StandingsAnswer:
        """The standings, explained in the request's language."""
        return cls(
            rows=[
                StandingRow(
                    seat=row.seat,
                    name=row.name,
                    total=row.total,
                    rounds_out=row.rounds_out,
                    place=row.place,
                )
                for row in table.rows
            ],
            winners=list(table.winners),
            needs_tiebreaker=list(table.needs_tiebreaker),
            explanation=[translate_text(line) for line in table.explanation],
        )


class Game(Answer):
    """Everything about a game: table, rules, the round now, rounds played, totals, standings."""

    id: Annotated[int, Field(ge=1, le=LARGEST_INTEGER)]
    version: Annotated[int, Field(ge=0, le=LARGEST_INTEGER)]
    players: list[Player]
    rules: RuleSet
    first_dealer: Count
    dealer_was_cut: bool
    decks: Count | None
    finished: bool
    current_round: CurrentRoundAnswer | None
    rounds: list[PlayedRound]
    totals: list[Score]
    running_totals: list[list[Score]]
    standings: StandingsAnswer
    created_at: Timestamp
    updated_at: Timestamp
    seat_links: list[SeatLink] | None  # each seat's link, for the edit link only (else null)
    # Where the asking link leads after Play again (GET only; null before it, and in a change's
    # answer): a view client follows it to the next game without anyone sharing a link.
    next_game: NextGame | None

    @classmethod
    def fields_of(cls, state: GameState) -> dict[str, object]:
        """The game's fields, for this answer or one that adds to it."""
        game, current = state.facts, state.current
        return {
            "id": game.id,
            "version": game.version,
            "players": [Player(seat=seat, name=name) for seat, name in enumerate(state.names)],
            "rules": state.rules,
            "first_dealer": game.first_dealer,
            "dealer_was_cut": game.dealer_was_cut,
            "decks": game.decks,
            "finished": state.finished,
            "current_round": None if current is None else CurrentRoundAnswer.of(current),
            "rounds": played(state),
            "totals": list(state.running[-1]) if state.running else [0] * state.players,
            "running_totals": [list(row) for row in state.running],
            "standings": StandingsAnswer.of(state.standings),
            "created_at": iso(game.created_at),
            "updated_at": iso(game.updated_at),
            "seat_links": None,
            "next_game": None,
        }

    @classmethod
    def of(cls, state: GameState) -> Game:
        """The game as it stands."""
        return cls.model_validate(cls.fields_of(state))
