"""Which totals a hand can make at the end of a round (docs/RULES.md 6)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.hand_totals import check_total, hand_limits, unusual_total_warning
from scorekeeper.rules.presets import CONTRACT_RUMMY, MAY_I, NO_BUYS, PRESETS

CARDS_IN_PLAY = 108


def test_a_may_i_hand_holds_the_deal_the_last_draw_and_three_buys_with_their_penalties() -> None:
    limits = hand_limits(MAY_I, 1, CARDS_IN_PLAY)
    deal = MAY_I.rounds[0].deal
    assert (limits.most_cards, limits.lowest_value, limits.highest_value) == (deal + 1 + 6, 2, 15)
    assert limits.most_points == (deal + 7) * 15


def test_without_buys_a_hand_is_the_deal_and_the_last_draw() -> None:
    assert hand_limits(NO_BUYS, 1, CARDS_IN_PLAY).most_cards == NO_BUYS.rounds[0].deal + 1


def test_unlimited_buys_are_bounded_by_the_cards_in_play() -> None:
    assert hand_limits(PRESETS["unlimited-buys"], 1, CARDS_IN_PLAY).most_cards == CARDS_IN_PLAY


@pytest.mark.parametrize("points", [1])
def test_a_total_below_the_cheapest_card_is_refused(points: int) -> None:
    with pytest.raises(RuleError) as refused:
        check_total(hand_limits(MAY_I, 1, CARDS_IN_PLAY), points, field="hands.1")
    assert refused.value.field == "hands.1"
    assert str(refused.value.message) == "No hand is worth 1: the cheapest card counts 2."


def test_a_total_above_a_hand_full_of_the_best_cards_is_refused() -> None:
    limits = hand_limits(MAY_I, 1, CARDS_IN_PLAY)
    with pytest.raises(RuleError) as refused:
        check_total(limits, 999, field="hands.2")
    assert str(refused.value.message) == (
        f"No hand is worth 999: a player holds at most {limits.most_cards} cards at the end "
        f"of this round, worth at most {limits.most_points}."
    )
    check_total(limits, limits.most_points, field="hands.2")


@pytest.mark.parametrize("points", [0, 2, 15, 80])
def test_ordinary_totals_pass_without_a_warning(points: int) -> None:
    limits = hand_limits(CONTRACT_RUMMY, 1, CARDS_IN_PLAY)
    check_total(limits, points, field="hands.0")
    assert unusual_total_warning(limits, "Ben", points) is None


def test_an_unusually_high_total_is_possible_but_warned_about() -> None:
    limits = hand_limits(MAY_I, 1, CARDS_IN_PLAY)
    high = limits.unusual_above + 1
    check_total(limits, high, field="hands.0")
    warning = unusual_total_warning(limits, "Ben", high)
    assert str(warning) == f"Ben: {high} points is unusually high for one hand. Check it."
