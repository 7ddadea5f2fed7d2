"""Counting the cards left in a hand, within the cards in play (RULES.md 1, 2 and 6)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.playing_cards import (
    JOKER,
    NATURAL_RANKS,
    RANK_CODES,
    Card,
    Rank,
    Suit,
    parse_cards,
)
from scorekeeper.rules.presets import MAY_I, SHANGHAI
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.tally import card_points, cards_points, points_from_counts

PLAIN_VALUES = {"JK": 15, "A": 15, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 11)}}


def held(hand: str) -> Counter[Card]:
    """The cards of a hand written out ("KC 7H JK"), each with its copies."""
    return Counter(parse_cards(hand))


@pytest.mark.parametrize(("code", "points"), sorted(PLAIN_VALUES.items()))
def test_may_i_card_values_are_joker_ace_fifteen_faces_ten_pips_face_value(
    code: str, points: int
) -> None:
    card = JOKER if code == "JK" else parse_cards(f"{code}H")[0]
    assert card_points(card, MAY_I) == points


@pytest.mark.parametrize(("card", "points"), [(JOKER, 50), (Card(Rank.ACE, Suit.SPADES), 15)])
def test_shanghai_jokers_count_fifty(card: Card, points: int) -> None:
    assert card_points(card, SHANGHAI) == points


@pytest.mark.parametrize(
    ("hand", "rules", "points"),
    [
        ("KC 7H JK", MAY_I, 32),
        ("KC 7H JK", SHANGHAI, 67),
        ("", MAY_I, 0),
        ("2C", MAY_I, 2),
        ("10S TS", MAY_I, 20),
        ("AC AD AH AS", MAY_I, 60),
        ("JK JK JK JK", MAY_I, 60),
        ("QS QS", MAY_I, 20),
        ("9♠ 9♥ 9♠ 3D", MAY_I, 30),
    ],
)
def test_hand_points_add_up_the_cards_in_hand(hand: str, rules: RuleSet, points: int) -> None:
    assert cards_points(held(hand), rules, decks=2, jokers=4) == points


@pytest.mark.parametrize(
    ("hand", "decks", "jokers", "message"),
    [
        ("QS QS QS", 2, 4, "Only 2 copies of Q♠ are in play."),
        ("7H 7H", 1, 0, "Only 1 copy of 7♥ is in play."),
        ("JK JK JK JK JK", 2, 4, "Only 4 jokers are in play."),
        ("JK JK", 2, 1, "Only 1 joker is in play."),
        ("KC JK", 2, 0, "No jokers are in play."),
    ],
)
def test_hands_beyond_the_cards_in_play_are_refused(
    hand: str, decks: int, jokers: int, message: str
) -> None:
    with pytest.raises(RuleError) as error:
        cards_points(held(hand), MAY_I, decks, jokers)
    assert (error.value.message.render(), error.value.field) == (message, "cards")


def test_three_decks_allow_three_copies_of_a_card() -> None:
    assert cards_points(held("QS QS QS"), MAY_I, decks=3, jokers=6) == 30


@pytest.mark.parametrize(
    ("counts", "rules", "points"),
    [
        ({"K": 1, "7": 1, "JK": 1}, MAY_I, 32),
        ({"K": 1, "7": 1, "JK": 1}, SHANGHAI, 67),
        ({}, MAY_I, 0),
        ({"A": 0, "5": 0}, MAY_I, 0),
        ({"A": 8, "JK": 4}, MAY_I, 180),
        ({"10": 3, "2": 2}, MAY_I, 34),
    ],
)
def test_points_from_counts_multiply_each_rank_by_its_value(
    counts: dict[str, int], rules: RuleSet, points: int
) -> None:
    assert points_from_counts(counts, rules, decks=2, jokers=4) == points


@pytest.mark.parametrize(
    ("counts", "decks", "jokers", "message"),
    [
        ({"X": 1}, 2, 4, "Not a rank: X"),
        ({"T": 1}, 2, 4, "Not a rank: T"),
        ({"Q": -1}, 2, 4, "The count of Q cannot be negative."),
        ({"Q": 9}, 2, 4, "Only 8 cards of rank Q are in play."),
        ({"7": 13}, 3, 6, "Only 12 cards of rank 7 are in play."),
        ({"JK": 5}, 2, 4, "Only 4 jokers are in play."),
        ({"JK": 1}, 2, 0, "No jokers are in play."),
    ],
)
def test_impossible_counts_are_refused_naming_the_rank(
    counts: dict[str, int], decks: int, jokers: int, message: str
) -> None:
    with pytest.raises(RuleError) as error:
        points_from_counts(counts, MAY_I, decks, jokers)
    assert (error.value.message.render(), error.value.field) == (message, "cards")


# Two decks with four jokers, one entry per physical card: any subset is a possible hand.
PACK = [JOKER] * 4 + [Card(rank, suit) for rank in NATURAL_RANKS for suit in Suit] * 2
hands = st.lists(st.sampled_from(range(len(PACK))), unique=True, max_size=15).map(
    lambda places: [PACK[place] for place in places]
)


@given(hands)
def test_a_hand_and_its_counts_by_rank_score_the_same(hand: list[Card]) -> None:
    counts = Counter(RANK_CODES[card.rank] for card in hand)
    expected = sum(PLAIN_VALUES[RANK_CODES[card.rank]] for card in hand)
    assert cards_points(Counter(hand), MAY_I, decks=2, jokers=4) == expected
    assert points_from_counts(counts, MAY_I, decks=2, jokers=4) == expected


KH, KS, K = Card(Rank.KING, Suit.HEARTS), Card(Rank.KING, Suit.SPADES), Card(Rank.KING)


@pytest.mark.parametrize(
    ("cards", "points", "refused"),
    [
        ({KH: 3}, None, "Only 2 copies of K♥ are in play."),
        ({KH: 2, KS: 1}, 30, None),
        ({KH: 2, K: 6}, 80, None),  # a card tapped by its rank alone may be any king
        ({KH: 2, K: 7}, None, "Only 8 cards of rank K are in play."),
        ({K: 3}, 30, None),
        ({JOKER: 4, K: 0}, 60, None),
        ({JOKER: 5}, None, "Only 4 jokers are in play."),
    ],
)
def test_a_hand_holds_no_card_more_often_than_the_decks_hold_it(
    cards: dict[Card, int], points: int | None, refused: str | None
) -> None:
    if refused is None:
        assert cards_points(cards, MAY_I, decks=2, jokers=4) == points
        return
    with pytest.raises(RuleError) as error:
        cards_points(cards, MAY_I, decks=2, jokers=4)
    assert (error.value.message.render(), error.value.field) == (refused, "cards")
