"""The record's figures against three games worked out by hand (ties, a tiebreaker, two rule sets).

Game A (may-i, 5 Jan): Ann 0+30=30, Ben 10+0=10 (wins), Cy 25+5=30.
Game B (may-i, 10 Feb): Ben 20+0=20, Ann 0+20=20, tied; Ann wins the tiebreaker (1 buy in it).
Game C (contract-rummy, 1 Mar): Ann 0 (wins), Cy 40.
"""

from __future__ import annotations

from datetime import date

import pytest

from scorekeeper.rules.ruleset import Contract
from scorekeeper.rules.stats import (
    HeadToHead,
    PlayedGame,
    PlayedRound,
    head_to_head,
    only,
    player_record,
)

ANN, BEN, CY, DORA = 1, 2, 3, 4
TWO_BOOKS, BOOK_AND_RUN = Contract(books=2), Contract(books=1, runs=1)

GAME_A = PlayedGame(
    ruleset="may-i",
    played_on=date(2026, 1, 5),
    people=(ANN, BEN, CY),
    rounds=(
        PlayedRound(TWO_BOOKS, (0, 10, 25), went_out=0, buys=(0, 1, 2)),
        PlayedRound(BOOK_AND_RUN, (30, 0, 5), went_out=1, buys=(1, 0, 0)),
    ),
    winners=(1,),
)
GAME_B = PlayedGame(
    ruleset="may-i",
    played_on=date(2026, 2, 10),
    people=(BEN, ANN),
    rounds=(
        PlayedRound(TWO_BOOKS, (20, 0), went_out=1, buys=(0, 0)),
        PlayedRound(BOOK_AND_RUN, (0, 20), went_out=0, buys=(1, 1)),
    ),
    winners=(1,),
    tiebreak_buys=(0, 1),
)
GAME_C = PlayedGame(
    ruleset="contract-rummy",
    played_on=date(2026, 3, 1),
    people=(ANN, CY),
    rounds=(PlayedRound(TWO_BOOKS, (0, 40), went_out=0, buys=(0, 0)),),
    winners=(0,),
)
GAMES = (GAME_A, GAME_B, GAME_C)


def test_anns_record_over_all_three_games() -> None:
    ann = player_record(GAMES, ANN)
    assert (ann.played, ann.won, ann.win_rate) == (3, 2, pytest.approx(2 / 3))
    assert ann.totals == (30, 20, 0)
    assert (ann.average, ann.best, ann.worst) == (pytest.approx(50 / 3), 0, 30)
    assert (ann.rounds_out, ann.buys, ann.tiebreaks) == (3, 3, 1)
    assert ann.by_contract == {TWO_BOOKS: 0.0, BOOK_AND_RUN: 25.0}
    assert ann.costliest == BOOK_AND_RUN


def test_bens_record_counts_the_tiebreaker_he_lost() -> None:
    ben = player_record(GAMES, BEN)
    assert (ben.played, ben.won, ben.average, ben.best, ben.worst) == (2, 1, 15.0, 10, 20)
    assert (ben.rounds_out, ben.buys, ben.tiebreaks) == (2, 2, 1)
    assert ben.by_contract == {TWO_BOOKS: 15.0, BOOK_AND_RUN: 0.0}
    assert ben.costliest == TWO_BOOKS


def test_a_tied_total_without_the_win_is_not_a_win() -> None:
    cy = player_record(GAMES, CY)
    assert (cy.played, cy.won, cy.win_rate, cy.totals) == (2, 0, 0.0, (30, 40))
    assert (cy.rounds_out, cy.buys, cy.tiebreaks) == (0, 2, 0)


def test_someone_who_never_played_has_no_figures() -> None:
    dora = player_record(GAMES, DORA)
    assert (dora.played, dora.won, dora.win_rate, dora.average) == (0, 0, None, None)
    assert (dora.best, dora.worst, dora.costliest, dora.by_contract) == (None, None, None, {})


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        (ANN, BEN, HeadToHead(games=2, first_ahead=1, second_ahead=1, even=0)),
        (BEN, ANN, HeadToHead(games=2, first_ahead=1, second_ahead=1, even=0)),
        (ANN, CY, HeadToHead(games=2, first_ahead=1, second_ahead=0, even=1)),
        (BEN, CY, HeadToHead(games=1, first_ahead=1, second_ahead=0, even=0)),
        (CY, DORA, HeadToHead(games=0, first_ahead=0, second_ahead=0, even=0)),
    ],
)
def test_head_to_head_puts_a_winner_ahead_then_the_lower_total(
    first: int, second: int, expected: HeadToHead
) -> None:
    assert head_to_head(GAMES, first, second) == expected


@pytest.mark.parametrize(
    ("ruleset", "since", "until", "expected"),
    [
        (None, None, None, GAMES),
        ("may-i", None, None, (GAME_A, GAME_B)),
        ("contract-rummy", None, None, (GAME_C,)),
        (None, date(2026, 2, 10), None, (GAME_B, GAME_C)),
        (None, None, date(2026, 2, 10), (GAME_A, GAME_B)),
        ("may-i", date(2026, 3, 1), None, ()),
    ],
)
def test_filters_by_rule_set_and_period_include_both_ends(
    ruleset: str | None, since: date | None, until: date | None, expected: tuple[PlayedGame, ...]
) -> None:
    assert only(GAMES, ruleset, since, until) == expected


def test_one_rule_set_only_counts_its_games() -> None:
    ann = player_record(only(GAMES, "contract-rummy"), ANN)
    assert (ann.played, ann.won, ann.average, ann.tiebreaks, ann.buys) == (1, 1, 0.0, 0, 0)


# Game D: Ann and Ben tie on 20 and Ann went out more often: the rounds gone out decide.
GAME_D = PlayedGame(
    ruleset="may-i",
    played_on=date(2026, 4, 1),
    people=(ANN, BEN, CY),
    rounds=(
        PlayedRound(TWO_BOOKS, (0, 20, 30), went_out=0, buys=(0, 0, 0)),
        PlayedRound(BOOK_AND_RUN, (0, 0, 30), went_out=1, buys=(0, 0, 0)),
        PlayedRound(BOOK_AND_RUN, (20, 0, 30), went_out=0, buys=(0, 0, 0)),
    ),
    winners=(0,),
)
# Game E: the same tie under "tied players share the win": nothing was decided.
GAME_E = PlayedGame(
    ruleset="house",
    played_on=date(2026, 4, 2),
    people=(ANN, BEN, CY),
    rounds=GAME_D.rounds,
    winners=(0, 1),
)


def test_a_tie_the_rounds_gone_out_decide_is_a_tiebreak_for_both_tied_players() -> None:
    assert GAME_D.tiebroken == frozenset({0, 1})
    ann, ben, cy = (player_record((GAME_D,), person).tiebreaks for person in (ANN, BEN, CY))
    assert (ann, ben, cy) == (1, 1, 0)


def test_a_tiebreaker_round_is_a_tiebreak_for_its_winner_and_its_loser() -> None:
    assert GAME_B.tiebroken == frozenset({0, 1})


def test_a_shared_win_and_a_tie_behind_the_winner_are_no_tiebreak() -> None:
    assert GAME_E.tiebroken == frozenset() and GAME_A.tiebroken == frozenset()
    assert player_record((GAME_A, GAME_E), ANN).tiebreaks == 0
    assert player_record((GAME_A, GAME_D, GAME_E), CY).tiebreaks == 0
