"""The family rating: Plackett-Luce over placements, replayed in order (RULES.md 12)."""

import pytest

from scorekeeper.rules.party_rating import SHOWN_AFTER, expected_places, ratings
from scorekeeper.rules.party_standings import TableGame


def game(people, places):
    """A finished game of these people, placed as given (totals do not enter the rating)."""
    return TableGame(1, 1, tuple(people), (0,) * len(people), tuple(places))


@pytest.mark.parametrize(("games", "shown"), [(4, False), (5, True), (6, True)])
def test_a_rating_is_shown_after_five_games_only(games, shown):
    rated = ratings([game("ABC", (1, 2, 3))] * games)

    assert rated["A"].games == games
    assert (rated["A"].shown is not None) is shown
    assert SHOWN_AFTER == 5


def test_the_shown_number_is_the_cautious_estimate_to_one_decimal():
    rated = ratings([game("ABC", (1, 2, 3))] * 5)["A"]

    assert rated.shown == round(rated.mu - 3 * rated.sigma, 1)


def test_winning_raises_a_rating_and_losing_lowers_it():
    rated = ratings([game("ABC", (1, 2, 3))])

    assert rated["A"].mu > rated["B"].mu > rated["C"].mu
    assert rated["A"].mu > 25 > rated["C"].mu  # everyone starts at 25


def test_players_tied_on_a_place_are_rated_alike():
    rated = ratings([game("ABCD", (1, 2, 2, 4))])

    assert rated["B"].mu == pytest.approx(rated["C"].mu)
    assert rated["A"].mu > rated["B"].mu > rated["D"].mu


def test_the_order_the_games_finished_in_changes_the_ratings():
    a_first, b_first = game("AB", (1, 2)), game("AB", (2, 1))

    forwards = ratings([a_first, a_first, b_first])
    backwards = ratings([b_first, a_first, a_first])

    assert forwards["A"].mu != pytest.approx(backwards["A"].mu)
    assert forwards["A"].games == backwards["A"].games == 3


def test_expected_places_follow_the_ratings_and_newcomers_start_level():
    rated = ratings([game("ABC", (1, 2, 3))] * 3)

    assert expected_places("CAB", rated) == (3, 1, 2)
    assert expected_places(("A", "New"), {}) == (1, 1)
    assert expected_places(("New", "A"), rated) == (2, 1)
