"""A game as the API answers it, declared once: the answer is built and documented from these."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from flask import Response, jsonify
from pydantic import BaseModel, ConfigDict, Field

from ..games.state import CurrentRound, GameState
from ..i18n import translate
from ..models import Round
from ..rules.ruleset import RuleSet
from ..rules.standings import Standings
from ..rules.table import describe_contract
from .fields import MAX_ID

Count = Annotated[int, Field(ge=0)]
Score = int  # below 0 with the Liverpool cut bonus
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]


class Answer(BaseModel):
    """A JSON object with exactly these fields, every one of them always sent."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


def answer(model: BaseModel, status: int = 200) -> tuple[Response, int]:
    """A model as the JSON answer, with its status."""
    return jsonify(model.model_dump(mode="json")), status


class Player(Answer):
    seat: Count
    name: str


class RoundContract(Answer):
    books: Count
    runs: Count
    book_length: Count
    run_length: Count


class SeatBuys(Answer):
    seat: Count
    bought: Count
    left: Count | None


class CurrentRoundAnswer(Answer):
    """The round being played: contract, deal, decks, who deals, leads and cuts, buys, stock."""

    number: Count
    is_tiebreaker: bool
    seats: list[Count]
    contract: RoundContract
    contract_text: str
    deal: Count
    final_discard: bool
    decks: Count
    jokers: Count
    total_cards: Count
    dealer: Count
    first_player: Count
    cutter: Count | None
    buy_cap: Count | None
    buys: list[SeatBuys]
    last_buyer: Count | None
    run_outs: Count
    ended_by_stock: bool
    warnings: list[str]

    @classmethod
    def of(cls, current: CurrentRound) -> CurrentRoundAnswer:
        """The round now, every sentence in the request's language."""
        setup, contract = current.setup, current.setup.contract
        return cls(
            number=current.number,
            is_tiebreaker=current.is_tiebreaker,
            seats=list(current.seats),
            contract=RoundContract(
                books=contract.books,
                runs=contract.runs,
                book_length=contract.book_length,
                run_length=contract.run_length,
            ),
            contract_text=" + ".join(translate(part) for part in describe_contract(contract)),
            deal=setup.deal,
            final_discard=setup.final_discard,
            decks=setup.decks,
            jokers=setup.jokers,
            total_cards=setup.total_cards,
            dealer=current.dealer,
            first_player=current.first_player,
            cutter=current.cutter,
            buy_cap=setup.buy_cap,
            buys=[
                SeatBuys(seat=seat, bought=current.buys[seat], left=current.buys_left[seat])
                for seat in current.seats
            ],
            last_buyer=current.last_buyer,
            run_outs=current.run_outs,
            ended_by_stock=current.ended_by_stock,
            warnings=[translate(warning) for warning in setup.warnings],
        )


class HandAnswer(Answer):
    seat: Count
    went_out: bool
    points: Count
    cards: dict[str, Count] | None


class PlayedRound(Answer):
    """One played round: each seat's score, who went out, and each hand as entered."""

    number: Count
    is_tiebreaker: bool
    seats: list[Count]
    scores: list[Score | None]
    went_out: Count | None
    ended_by_stock: bool
    cut_bonus_seat: Count | None
    dealer: Count
    hands: list[HandAnswer]

    @classmethod
    def of(cls, record: Round, scores: list[int | None], went_out: int | None) -> PlayedRound:
        """A round as stored, with its scores."""
        return cls(
            number=record.number,
            is_tiebreaker=record.tiebreak_seats is not None,
            seats=[result.seat for result in record.results],
            scores=scores,
            went_out=went_out,
            ended_by_stock=record.ended_by_stock,
            cut_bonus_seat=record.cut_bonus_seat,
            dealer=record.dealer,
            hands=[
                HandAnswer(seat=r.seat, went_out=r.went_out, points=r.points, cards=r.cards)
                for r in record.results
            ],
        )


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
            explanation=[translate(line) for line in table.explanation],
        )


class Game(Answer):
    """Everything about a game: table, rules, the round now, rounds played, totals, standings."""

    id: Annotated[int, Field(ge=1, le=MAX_ID)]
    version: Annotated[int, Field(ge=0, le=MAX_ID)]
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

    @classmethod
    def fields_of(cls, state: GameState) -> dict[str, object]:
        """The game's fields, for this answer or one that adds to it."""
        game, current = state.game, state.current
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
        }

    @classmethod
    def of(cls, state: GameState) -> Game:
        """The game as it stands."""
        return cls.model_validate(cls.fields_of(state))


def played(state: GameState) -> list[PlayedRound]:
    """Rounds played, in order: regular rounds score toward the totals, tiebreakers do not."""
    rounds = []
    for number, outcome in enumerate(state.outcomes, start=1):
        rounds.append(PlayedRound.of(state.rounds[number], list(outcome.scores), outcome.went_out))
    for number in sorted(n for n in state.rounds if n > len(state.rules.rounds)):
        record = state.rounds[number]
        if record.results:
            scores: list[int | None] = [None] * state.players
            for result in record.results:
                scores[result.seat] = result.points
            went_out = next((r.seat for r in record.results if r.went_out), None)
            rounds.append(PlayedRound.of(record, scores, went_out))
    return rounds


def iso(moment: datetime | None) -> str | None:
    """A timestamp in ISO 8601 with its offset; SQLite hands it back without one, meaning UTC."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
