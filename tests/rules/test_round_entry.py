"""A round's end as one value (rules/round_entry.py), whichever door it came by: cards kept as
cards, the stored shape read and written unchanged, the phones' entries and the one-line
reading made into it. Pure: no app and no database."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.game_facts import EnteredHand
from scorekeeper.rules.playing_cards import JOKER, Card, Rank, Suit, parse_cards
from scorekeeper.rules.quick_entry import SaidHand
from scorekeeper.rules.round_end import checked_end
from scorekeeper.rules.round_entry import (
    Hand,
    RoundEnd,
    card_of,
    cards_of,
    from_phones,
    from_reading,
    from_stored,
    unchanged_from_phones,
)
from tests.rules.test_round_end import state_of

KH, K = Card(Rank.KING, Suit.HEARTS), Card(Rank.KING)


@pytest.mark.parametrize(
    ("given", "cards", "counts"),
    [
        (parse_cards("KH KH KS"), {KH: 2, Card(Rank.KING, Suit.SPADES): 1}, {"K": 3}),
        (
            parse_cards("7H JK KH"),
            {Card(Rank.SEVEN, Suit.HEARTS): 1, JOKER: 1, KH: 1},
            {"7": 1, "JK": 1, "K": 1},
        ),
        ({"K": 2, "JK": 1}, {K: 2, JOKER: 1}, {"K": 2, "JK": 1}),
        ({"A": 0}, {Card(Rank.ACE): 0}, {"A": 0}),
        ([], {}, None),
    ],
)
def test_cards_are_kept_as_cards_and_stored_per_rank(
    given: Any, cards: dict[Card, int], counts: dict[str, int] | None
) -> None:
    hand = Hand(cards=cards_of(given))
    assert hand.cards == cards
    assert hand.counts() == counts


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("K", K),
        ("JK", JOKER),
        ("10", Card(Rank.TEN)),
        ("KH", KH),
        ("7♥", Card(Rank.SEVEN, Suit.HEARTS)),
    ],
)
def test_a_hands_field_names_a_rank_or_a_card(token: str, card: Card) -> None:
    assert card_of(token) == card
    assert card_of(str(card)) == card  # the field writes it back as it reads it


@pytest.mark.parametrize("given", [{"Z": 1}, {"K": 1, "T": 2}])
def test_counts_of_no_rank_are_refused_naming_it(given: dict[str, int]) -> None:
    with pytest.raises(RuleError) as refused:
        cards_of(given)
    assert refused.value.field == "cards" and "Not a rank" in str(refused.value.message)


def test_a_card_that_is_no_card_is_refused() -> None:
    with pytest.raises(RuleError) as refused:
        card_of("ZZ")
    assert str(refused.value.message) == "Not a card: ZZ"


STORED = [
    {
        "ended_by_stock": False,
        "cut_bonus_seat": None,
        "results": [
            {"seat": 0, "went_out": False, "points": 12, "cards": None},
            {"seat": 1, "went_out": True, "points": 0, "cards": None},
            {"seat": 2, "went_out": False, "points": 25, "cards": {"Q": 1, "A": 1}},
            {"seat": 3, "went_out": False, "points": 0, "cards": {"K": 0}},
        ],
    },
    {
        "ended_by_stock": False,
        "cut_bonus_seat": None,
        "results": [
            {"seat": 0, "went_out": False, "points": 35, "cards": {"K": 2, "JK": 1}},
            {"seat": 1, "went_out": False, "points": 12, "cards": None},
            {"seat": 2, "went_out": True, "points": 0, "cards": None},
            {"seat": 3, "went_out": False, "points": 5, "cards": None},
        ],
        "from_phones": [0, 2],
    },
]


@pytest.mark.parametrize("stored", STORED)
def test_a_stored_round_end_is_read_and_stored_again_unchanged(stored: dict[str, Any]) -> None:
    end = from_stored(stored)
    assert end.went_out == next(r["seat"] for r in stored["results"] if r["went_out"])
    assert end.phones == tuple(stored.get("from_phones", ()))
    assert checked_end(state_of(), 1, end).facts == stored


def test_a_stored_stock_ending_has_nobody_out() -> None:
    stored = {"ended_by_stock": True, "cut_bonus_seat": None, "results": []}
    end = from_stored(stored)
    assert (end.went_out, end.ended_by_stock, end.hands) == (None, True, {})


def entry(seat: int, status: str = "pending", **said: Any) -> EnteredHand:
    """Seat `seat`'s hand entered on its phone for round 1."""
    hand = {"went_out": False, "points": None, "cards": None, "cut_bonus": False} | said
    return EnteredHand(seat, 1, status=status, note=None, action_id=None, **hand)


ENTRIES = {
    0: entry(0, went_out=True, cut_bonus=True),
    1: entry(1, points=35),
    2: entry(2, cards={"K": 2, "JK": 1}),
    3: entry(3, "sent_back", points=12),
}


def test_the_waiting_entries_are_as_much_of_a_round_end_as_they_say() -> None:
    end = from_phones(ENTRIES)
    assert end.phones == (0, 1, 2)  # a hand sent back waits for its phone, not the round
    assert (end.went_out, end.ended_by_stock, end.cut_bonus_seat) == (0, False, 0)
    assert end.hands[1] == Hand(points=35)
    assert end.hands[2] == Hand(cards={K: 2, JOKER: 1})


SAVED = {0: Hand(went_out=True), 1: Hand(points=35), 2: Hand(cards={K: 2, JOKER: 1})}


@pytest.mark.parametrize(
    ("saved", "cut", "unchanged"),
    [
        (SAVED, 0, (0, 1, 2)),
        (SAVED, None, (1, 2)),  # Anna's cut was not saved: her hand is the scorekeeper's
        ({**SAVED, 1: Hand(points=36)}, 0, (0, 2)),
        ({**SAVED, 1: Hand(cards={K: 3, Card(Rank.FIVE): 1})}, 0, (0, 2)),
        ({**SAVED, 2: Hand(cards={JOKER: 1, Card(Rank.KING, Suit.SPADES): 2})}, 0, (0, 1, 2)),
        ({**SAVED, 2: Hand(points=35)}, 0, (0, 1)),
        ({**SAVED, 0: Hand(points=0), 1: Hand(went_out=True)}, None, (2,)),
    ],
)
def test_the_hands_saved_as_their_phones_sent_them_are_named(
    saved: dict[int, Hand], cut: int | None, unchanged: tuple[int, ...]
) -> None:
    end = RoundEnd({**saved, 3: Hand(points=12)}, cut_bonus_seat=cut)
    assert unchanged_from_phones(end, ENTRIES) == unchanged


def test_a_round_said_in_one_line_names_seats_of_the_round() -> None:
    said = (SaidHand(0, went_out=True, points=None), SaidHand(1, went_out=False, points=35))
    end = from_reading(said, (1, 3))  # a tiebreaker between Ben and Dan
    assert end.hands == {1: Hand(went_out=True), 3: Hand(points=35)}
    assert (end.went_out, end.ended_by_stock) == (1, False)
