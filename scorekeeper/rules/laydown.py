"""Melds and the laydown of a round's contract (docs/RULES.md sections 3, 6, 7 and 8).

Books and runs are checked in meld_checks; this module checks a whole laydown
against a contract and is where the rest of the app imports meld checks from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from .errors import RuleError
from .meld import BOOK, RUN, MeldCheck, check_book, check_run, is_wild, run_verdict
from .messages import N_, Message, msg, nmsg
from .playing_cards import Card, Suit
from .ruleset import Contract, RuleSet
from .run_placement import RunPlacement, continuing_suit

__all__ = [
    "BOOK",
    "RUN",
    "MeldCheck",
    "check_book",
    "check_contract",
    "check_melds_against",
    "check_run",
    "check_tiebreaker_contract",
    "is_wild",
]


@dataclass(frozen=True)
class _Reading:
    """What one laid-down meld can count as: a book, a run (with its placements), or both."""

    book: MeldCheck
    run: MeldCheck
    spots: tuple[RunPlacement, ...]


def check_contract(melds: Sequence[Sequence[Card]], rules: RuleSet, round_number: int) -> MeldCheck:
    """A laydown must be exactly the contract of its round (round 1: two books, and so on)."""
    if not 1 <= round_number <= len(rules.rounds):
        reason = msg(N_("There is no round %(number)s in this game."), number=round_number)
        raise RuleError(reason, field="round")
    spec = rules.round_spec(round_number)
    if rules.exact_lifted(spec):
        # Round 7 of the sheet: 13 cards cannot go down as three runs of exactly four.
        rules = replace(rules, melds=replace(rules.melds, exact_laydown=False))
    return check_melds_against(spec.contract, melds, rules)


def check_tiebreaker_contract(melds: Sequence[Sequence[Card]], rules: RuleSet) -> MeldCheck:
    """The tiebreaker round's laydown must be its contract (May I?: two runs)."""
    return check_melds_against(rules.scoring.tiebreaker_round.contract, melds, rules)


def check_melds_against(
    contract: Contract, melds: Sequence[Sequence[Card]], rules: RuleSet
) -> MeldCheck:
    """A laydown is exactly the contract's books and runs, each legal; exact and abutting rules."""
    needed = contract.books + contract.runs
    if len(melds) != needed:
        return MeldCheck(False, _count_message(needed, len(melds)))
    readings = [_read(meld, contract, rules) for meld in melds]
    for index, (meld, reading) in enumerate(zip(melds, readings, strict=True)):
        if not (reading.book.ok or reading.run.ok):
            return replace(_likely_failure(reading, meld, contract, rules), meld=index)
    only_books = sum(r.book.ok and not r.run.ok for r in readings)
    only_runs = sum(r.run.ok and not r.book.ok for r in readings)
    if only_books > contract.books:
        return MeldCheck(False, _kind_message(BOOK, contract.books, only_books), BOOK)
    if only_runs > contract.runs:
        return MeldCheck(False, _kind_message(RUN, contract.runs, only_runs), RUN)
    return _check_runs_apart(readings, contract, rules)


def _read(meld: Sequence[Card], contract: Contract, rules: RuleSet) -> _Reading:
    """Check a meld both ways, at the contract's lengths; exact lengths when laydown is exact."""
    exact = rules.melds.exact_laydown
    refusal, spots = run_verdict(meld, rules, contract.run_length, exact)
    return _Reading(
        book=check_book(meld, rules, contract.book_length, exact),
        run=MeldCheck(refusal is None, refusal, RUN),
        spots=spots,
    )


def _likely_failure(
    reading: _Reading, meld: Sequence[Card], contract: Contract, rules: RuleSet
) -> MeldCheck:
    """Explain the kind meant: the only kind wanted, else a book if the naturals share a rank."""
    if not contract.runs:
        return reading.book
    if not contract.books:
        return reading.run
    ranks = {card.rank for card in meld if not is_wild(card, rules)}
    return reading.book if len(ranks) <= 1 else reading.run


def _check_runs_apart(readings: list[_Reading], contract: Contract, rules: RuleSet) -> MeldCheck:
    """Without abutting runs (the sheet), two runs of a suit may not continue each other."""
    if rules.melds.abutting_runs:
        return MeldCheck(True)
    fixed_books = {i for i, r in enumerate(readings) if not r.run.ok}
    either = [i for i, r in enumerate(readings) if r.book.ok and r.run.ok]
    clash: Suit | None = None
    # A meld that could be either counts as whichever kind lets the laydown stand.
    for as_books in combinations(either, contract.books - len(fixed_books)):
        books = fixed_books.union(as_books)
        runs = [r.spots for i, r in enumerate(readings) if i not in books]
        clash = continuing_suit(runs, rules.melds.aces)
        if clash is None:
            return MeldCheck(True)
    assert clash is not None
    reason = N_("Two runs of %(suit)s continue each other; they must overlap or leave a gap.")
    return MeldCheck(False, msg(reason, suit=clash.symbol), RUN)


def _count_message(needed: int, given: int) -> Message:
    """The contract names how many melds go down, no more and no fewer."""
    return nmsg(
        "This contract is %(count)s meld, not %(given)s.",
        "This contract is %(count)s melds, not %(given)s.",
        needed,
        given=given,
    )


def _kind_message(kind: str, wanted: int, given: int) -> Message:
    """The contract names how many of the melds are books and how many are runs."""
    if kind == BOOK:
        return nmsg(
            "This contract has %(count)s book, not %(given)s.",
            "This contract has %(count)s books, not %(given)s.",
            wanted,
            given=given,
        )
    return nmsg(
        "This contract has %(count)s run, not %(given)s.",
        "This contract has %(count)s runs, not %(given)s.",
        wanted,
        given=given,
    )
