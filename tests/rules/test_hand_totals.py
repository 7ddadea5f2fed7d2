"""Which totals a hand can make at the end of a round (docs/RULES.md 6).

The bound is what the most valuable cards the decks hold can make, for the cards the player
can hold: the deal, the last draw and their buys with the penalty cards. The figures below are
worked out by hand.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.hand_totals import check_total, hand_limits, unusual_total_warning
from scorekeeper.rules.presets import CONTRACT_RUMMY, MAY_I, NO_JOKERS, SHANGHAI
from scorekeeper.rules.ruleset import RuleSet

HOUSE = replace(
    MAY_I,
    key="house",
    buys=replace(MAY_I.buys, cap_per_round=2),
    scoring=replace(MAY_I.scoring, values={**MAY_I.scoring.values, "JK": 25}),
)


@pytest.mark.parametrize(
    ("rules", "round_number", "decks", "jokers", "buys", "cards", "most"),
    [
        # May I?, 2 decks and 4 jokers: 12 cards worth 15 (4 jokers, 8 aces), then 24 at 10.
        (MAY_I, 1, 2, 4, 0, 11, 11 * 15),  # 10 dealt + 1 drawn
        (MAY_I, 1, 2, 4, 1, 13, 12 * 15 + 1 * 10),  # + the buy and its penalty card
        (MAY_I, 1, 2, 4, 3, 17, 12 * 15 + 5 * 10),  # 230, where 17 × 15 = 255 was taken
        (MAY_I, 5, 2, 4, 0, 13, 12 * 15 + 1 * 10),  # 12 dealt: 190
        # 7 or 8 players: 3 decks and 6 jokers hold 18 cards worth 15.
        (MAY_I, 7, 3, 6, 3, 19, 18 * 15 + 1 * 10),
        # No jokers: 8 aces at 15, then kings, queens and jacks.
        (NO_JOKERS, 1, 2, 0, 0, 11, 8 * 15 + 3 * 10),
        # Shanghai, 4 players: 2 decks and 3 jokers at 50, 8 aces at 15; 11 dealt every round.
        (SHANGHAI, 1, 2, 3, 0, 12, 3 * 50 + 8 * 15 + 1 * 10),  # 280
        (SHANGHAI, 10, 2, 3, 2, 16, 3 * 50 + 8 * 15 + 5 * 10),  # 320
        # A house set, joker 25, 2 buys: 15 cards: 4 × 25 + 8 × 15 + 3 × 10 = 250.
        (HOUSE, 1, 2, 4, 2, 15, 250),
        # A tiebreaker round (2 runs, 10 dealt) counts like any round.
        (MAY_I, 8, 2, 4, 0, 11, 165),
    ],
)
def test_the_bound_is_the_decks_most_valuable_cards_for_the_cards_held(
    rules: RuleSet, round_number: int, decks: int, jokers: int, buys: int, cards: int, most: int
) -> None:
    limits = hand_limits(rules, round_number, decks, jokers, buys)
    assert (limits.most_cards, limits.most_points) == (cards, most)


def test_a_hand_never_holds_more_cards_than_the_decks() -> None:
    unlimited = replace(MAY_I, buys=replace(MAY_I.buys, cap_per_round=None, penalty_cards=3))
    limits = hand_limits(unlimited, 1, 1, 0, 20)
    assert limits.most_cards == 52
    assert limits.most_points == 4 * 15 + 12 * 10 + 4 * (2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10)


def test_the_house_sets_300_is_refused_and_250_is_the_most() -> None:
    limits = hand_limits(HOUSE, 1, 2, 4, 2)
    with pytest.raises(RuleError) as refused:
        check_total(limits, 300, field="hands.2")
    assert refused.value.field == "hands.2"
    assert str(refused.value.message) == (
        "No hand is worth 300: with 2 buys this player holds at most 15 cards at the end of "
        "this round, and the decks' 15 most valuable cards make 250."
    )
    check_total(limits, 250, field="hands.2")


def test_may_i_round_one_without_a_buy_refuses_166() -> None:
    limits = hand_limits(MAY_I, 1, 2, 4, 0)
    with pytest.raises(RuleError) as refused:
        check_total(limits, 166, field="hands.1")
    assert "with 0 buys this player holds at most 11 cards" in str(refused.value.message)
    check_total(limits, 165, field="hands.1")


def test_a_total_below_the_cheapest_card_is_refused() -> None:
    with pytest.raises(RuleError) as refused:
        check_total(hand_limits(MAY_I, 1, 2, 4, 0), 1, field="hands.1")
    assert refused.value.field == "hands.1"
    assert str(refused.value.message) == "No hand is worth 1: the cheapest card counts 2."


def test_a_joker_value_counts_for_nothing_without_jokers() -> None:
    cheap = replace(
        NO_JOKERS, scoring=replace(NO_JOKERS.scoring, values={**NO_JOKERS.scoring.values, "JK": 1})
    )
    assert hand_limits(cheap, 1, 2, 0, 0).lowest_value == 2


@pytest.mark.parametrize("points", [0, 2, 15, 80])
def test_ordinary_totals_pass_without_a_warning(points: int) -> None:
    limits = hand_limits(CONTRACT_RUMMY, 1, 2, 3, 0)
    check_total(limits, points, field="hands.0")
    assert unusual_total_warning(limits, "Ben", points) is None


def test_an_unusually_high_total_is_possible_but_warned_about() -> None:
    limits = hand_limits(MAY_I, 1, 2, 4, 0)
    high = limits.unusual_above + 1
    check_total(limits, high, field="hands.0")
    warning = unusual_total_warning(limits, "Ben", high)
    assert str(warning) == f"Ben: {high} points is unusually high for one hand. Check it."
