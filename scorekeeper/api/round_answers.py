"""The rounds of a game as the API answers them: the round now, and every round played."""

from __future__ import annotations

from pydantic import Field

from ..i18n import translate_text
from ..rules.deal import describe_contract
from ..rules.game_facts import RoundFacts
from ..rules.game_state import CurrentRound, GameState
from .answer_base import Answer, Count, Score


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
    down: list[Count] = Field(
        description="Whose contract is down this round, in the order laid down."
    )
    run_outs: Count
    ended_by_stock: bool
    stock_instruction: str | None  # what the table does after the last run-out, all round long
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
            contract_text=" + ".join(translate_text(part) for part in describe_contract(contract)),
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
            down=list(current.down),
            run_outs=current.run_outs,
            ended_by_stock=current.ended_by_stock,
            stock_instruction=(
                translate_text(current.instruction) if current.instruction else None
            ),
            warnings=[translate_text(warning) for warning in setup.warnings],
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
    def of(cls, record: RoundFacts, scores: list[int | None], went_out: int | None) -> PlayedRound:
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
