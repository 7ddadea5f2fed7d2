"""The blank sheet to print: each round's facts for the table size, a box per allowed buy."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules.blank_sheet import blank_sheet, player_counts
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.ruleset import BuyRules, DealPasses, DeckRule

MAY_I = PRESETS["may-i"]


def test_may_i_for_eight_players_passes_the_deal_left_with_three_boxes_a_round() -> None:
    sheet = blank_sheet(MAY_I, 8)
    assert [r.number for r in sheet.rounds] == [1, 2, 3, 4, 5, 6, 7]
    assert [r.dealer for r in sheet.rounds] == [0, 1, 2, 3, 4, 5, 6]
    assert {(r.decks, r.jokers, r.total_cards) for r in sheet.rounds} == {(3, 6, 162)}
    assert {r.buy_boxes for r in sheet.rounds} == {3}
    assert [r.final_discard for r in sheet.rounds] == [True] * 6 + [False]
    assert not sheet.unlimited_buys


def test_the_deal_comes_round_to_player_one_again() -> None:
    assert [r.dealer for r in blank_sheet(MAY_I, 3).rounds] == [0, 1, 2, 0, 1, 2, 0]


def test_shanghai_allows_two_buys_and_contract_rummy_counts_them_without_limit() -> None:
    assert {r.buy_boxes for r in blank_sheet(PRESETS["shanghai"], 4).rounds} == {2}
    unlimited = blank_sheet(PRESETS["contract-rummy"], 4)
    assert {r.buy_boxes for r in unlimited.rounds} == {0}
    assert unlimited.unlimited_buys


def test_a_game_cap_below_the_round_cap_gives_that_many_boxes() -> None:
    rules = replace(MAY_I, buys=BuyRules(cap_per_round=3, cap_per_game=2))
    sheet = blank_sheet(rules, 4)
    assert {r.buy_boxes for r in sheet.rounds} == {2}
    assert not sheet.unlimited_buys
    no_round_cap = replace(MAY_I, buys=BuyRules(cap_per_round=None, cap_per_game=5))
    assert not blank_sheet(no_round_cap, 4).unlimited_buys


def test_when_the_winner_deals_the_sheet_leaves_the_dealer_to_the_table() -> None:
    rules = replace(MAY_I, deal_passes=DealPasses.WINNER)
    assert {r.dealer for r in blank_sheet(rules, 5).rounds} == {None}


def test_table_sizes_are_the_ones_the_decks_are_for() -> None:
    rules = replace(MAY_I, decks=(DeckRule(3, 5, 2, 4),), min_players=2, max_players=8)
    assert player_counts(rules) == (3, 4, 5)
    with pytest.raises(RuleError):
        blank_sheet(rules, 6)
