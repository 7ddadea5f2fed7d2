"""Setting the table: decks, deal, dealer, first player, cutter, contracts (RULES.md 2, 3, 6)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.rules.deal import (
    deal_for,
    describe_contract,
    round_buy_cap,
    round_spec_for,
    tiebreaker_deal,
)
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.presets import (
    CONTRACT_RUMMY,
    LIVERPOOL,
    MAY_I,
    NINE_ROUND_MARATHON,
    NO_JOKERS,
    SHANGHAI,
    UNLIMITED_BUYS,
)
from scorekeeper.rules.ruleset import Contract, DealPasses, ReshufflePolicy, RoundSpec, RuleSet

WINNER_DEALS = replace(MAY_I, deal_passes=DealPasses.WINNER)


@pytest.mark.parametrize(
    ("rules", "players", "decks", "expected"),
    [
        (MAY_I, 2, None, (2, 4, 108)),
        (MAY_I, 4, None, (2, 4, 108)),
        (MAY_I, 6, None, (2, 4, 108)),
        (MAY_I, 7, None, (3, 6, 162)),
        (MAY_I, 8, None, (3, 6, 162)),
        (CONTRACT_RUMMY, 3, None, (2, 2, 106)),
        (CONTRACT_RUMMY, 4, None, (2, 3, 107)),
        (CONTRACT_RUMMY, 5, None, (2, 4, 108)),
        (CONTRACT_RUMMY, 6, None, (3, 5, 161)),
        (CONTRACT_RUMMY, 6, 3, (3, 5, 161)),
        (CONTRACT_RUMMY, 6, 4, (4, 5, 213)),
        (CONTRACT_RUMMY, 8, 4, (4, 7, 215)),
        (NO_JOKERS, 4, None, (2, 0, 104)),
        (NO_JOKERS, 7, None, (3, 0, 156)),
    ],
)
def test_decks_and_jokers_follow_the_table_size(
    rules: RuleSet, players: int, decks: int | None, expected: tuple[int, int, int]
) -> None:
    setup = deal_for(rules, players, 1, first_dealer=0, decks=decks)
    assert (setup.decks, setup.jokers, setup.total_cards) == expected


def test_jokers_are_left_out_when_the_rule_set_says_they_are_not_wild() -> None:
    rules = replace(MAY_I, melds=replace(MAY_I.melds, jokers_wild=False))
    assert deal_for(rules, 4, 1, first_dealer=0).jokers == 0


@pytest.mark.parametrize(
    ("round_number", "deal", "final_discard", "contract"),
    [
        (1, 10, True, Contract(books=2)),
        (2, 10, True, Contract(books=1, runs=1)),
        (3, 10, True, Contract(runs=2)),
        (4, 10, True, Contract(books=3)),
        (5, 12, True, Contract(books=2, runs=1)),
        (6, 12, True, Contract(books=1, runs=2)),
        (7, 12, False, Contract(runs=3)),
    ],
)
def test_each_standard_round_has_its_contract_and_deal(
    round_number: int, deal: int, final_discard: bool, contract: Contract
) -> None:
    setup = deal_for(MAY_I, 4, round_number, first_dealer=0)
    assert (setup.contract, setup.deal, setup.final_discard) == (contract, deal, final_discard)
    assert (setup.round_number, setup.total_rounds) == (round_number, 7)
    assert not setup.is_tiebreaker


@pytest.mark.parametrize(("rules", "total"), [(MAY_I, 7), (NINE_ROUND_MARATHON, 9)])
def test_total_rounds_is_the_length_of_the_round_list(rules: RuleSet, total: int) -> None:
    assert deal_for(rules, 4, 1, first_dealer=0).total_rounds == total


@pytest.mark.parametrize(
    ("players", "first_dealer", "round_number", "dealer", "first_player"),
    [
        (4, 0, 1, 0, 1),
        (4, 0, 2, 1, 2),
        (4, 0, 4, 3, 0),
        (4, 0, 5, 0, 1),
        (4, 2, 7, 0, 1),
        (5, 3, 1, 3, 4),
        (5, 3, 3, 0, 1),
        (2, 1, 2, 0, 1),
        (8, 7, 7, 5, 6),
    ],
)
def test_deal_passes_left_each_round_and_the_dealers_left_plays_first(
    players: int, first_dealer: int, round_number: int, dealer: int, first_player: int
) -> None:
    setup = deal_for(MAY_I, players, round_number, first_dealer)
    assert (setup.dealer, setup.first_player) == (dealer, first_player)


@pytest.mark.parametrize(
    ("players", "round_number", "first_dealer", "winners", "dealer"),
    [
        (4, 1, 2, (), 2),
        (4, 2, 2, (0,), 0),
        (4, 3, 2, (0, 3), 3),
        (4, 2, 2, (None,), 3),
        (4, 3, 3, (None, None), 1),
        (4, 4, 0, (2, None, 1), 1),
        (4, 3, 0, (2, None, 1), 3),
        (5, 3, 4, (1, None), 2),
    ],
)
def test_deal_passes_to_the_last_winner_or_left_after_a_stock_ending(
    players: int, round_number: int, first_dealer: int, winners: tuple[int | None, ...], dealer: int
) -> None:
    setup = deal_for(WINNER_DEALS, players, round_number, first_dealer, previous_winners=winners)
    assert (setup.dealer, setup.first_player) == (dealer, (dealer + 1) % players)


def test_winners_are_ignored_when_the_deal_passes_left() -> None:
    assert deal_for(MAY_I, 4, 3, 0, previous_winners=(3, 3)).dealer == 2


@pytest.mark.parametrize(
    ("winners", "field"),
    [((0,), "previous_winners"), ((0, 4), "previous_winners"), ((-1, 0), "previous_winners")],
)
def test_the_winner_deals_needs_every_earlier_winner_at_the_table(
    winners: tuple[int, ...], field: str
) -> None:
    with pytest.raises(RuleError) as error:
        deal_for(WINNER_DEALS, 4, 3, 0, previous_winners=winners)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("players", "dealer", "cutter"), [(4, 0, 3), (4, 1, 0), (3, 2, 1), (8, 5, 4), (6, 0, 5)]
)
def test_liverpool_cut_is_made_by_the_player_to_the_dealers_right(
    players: int, dealer: int, cutter: int
) -> None:
    setup = deal_for(LIVERPOOL, players, 1, first_dealer=dealer)
    assert (setup.dealer, setup.cutter) == (dealer, cutter)


@pytest.mark.parametrize("rules", [MAY_I, CONTRACT_RUMMY, SHANGHAI])
def test_nobody_cuts_without_a_cut_bonus(rules: RuleSet) -> None:
    assert deal_for(rules, 4, 1, first_dealer=0).cutter is None


@pytest.mark.parametrize(
    ("rules", "round_number", "cap"),
    [(MAY_I, 1, 3), (UNLIMITED_BUYS, 1, None), (SHANGHAI, 5, 2), (CONTRACT_RUMMY, 2, None)],
)
def test_setup_carries_the_rounds_buy_cap(
    rules: RuleSet, round_number: int, cap: int | None
) -> None:
    assert deal_for(rules, 4, round_number, first_dealer=0).buy_cap == cap


def test_a_round_with_its_own_buy_cap_overrides_the_rule_set() -> None:
    rounds = (MAY_I.rounds[0], replace(MAY_I.rounds[1], buy_cap=0), *MAY_I.rounds[2:])
    rules = replace(MAY_I, rounds=rounds)
    assert [deal_for(rules, 4, n, 0).buy_cap for n in (1, 2, 3)] == [3, 0, 3]


@pytest.mark.parametrize(
    ("rules", "policy"),
    [(MAY_I, ReshufflePolicy.ONCE), (CONTRACT_RUMMY, ReshufflePolicy.ALWAYS)],
)
def test_setup_carries_the_reshuffle_policy(rules: RuleSet, policy: ReshufflePolicy) -> None:
    assert deal_for(rules, 4, 1, first_dealer=0).reshuffle is policy


def test_two_players_are_warned_that_the_call_rarely_triggers() -> None:
    (warning,) = deal_for(MAY_I, 2, 1, first_dealer=0).warnings
    assert warning.render() == "The out-of-turn call rarely triggers with 2 players."


@pytest.mark.parametrize("players", [3, 4, 8])
def test_three_or_more_players_get_no_warning(players: int) -> None:
    assert deal_for(MAY_I, players, 1, first_dealer=0).warnings == ()


@pytest.mark.parametrize(
    ("rules", "kwargs", "field"),
    [
        (MAY_I, {"players": 9}, "players"),
        (MAY_I, {"players": 1}, "players"),
        (CONTRACT_RUMMY, {"players": 2}, "players"),
        (MAY_I, {"round_number": 0}, "round_number"),
        (MAY_I, {"round_number": 8}, "round_number"),
        (NINE_ROUND_MARATHON, {"round_number": 10}, "round_number"),
        (MAY_I, {"decks": 3}, "decks"),
        (CONTRACT_RUMMY, {"players": 5, "decks": 3}, "decks"),
        (CONTRACT_RUMMY, {"players": 6, "decks": 2}, "decks"),
        (MAY_I, {"first_dealer": 4}, "first_dealer"),
        (MAY_I, {"first_dealer": -1}, "first_dealer"),
    ],
)
def test_impossible_tables_are_refused_naming_the_field(
    rules: RuleSet, kwargs: dict[str, Any], field: str
) -> None:
    arguments: dict[str, Any] = {"players": 4, "round_number": 1, "first_dealer": 0, **kwargs}
    with pytest.raises(RuleError) as error:
        deal_for(rules, **arguments)
    assert error.value.field == field


def test_nine_players_are_refused_with_the_allowed_range() -> None:
    with pytest.raises(RuleError, match="May I\\? is played by 2 to 8 players, not 9"):
        deal_for(MAY_I, 9, 1, first_dealer=0)


def test_a_table_size_without_a_deck_rule_is_refused() -> None:
    rules = replace(MAY_I, decks=MAY_I.decks[:1])
    with pytest.raises(RuleError, match="no decks for 7 players") as error:
        deal_for(rules, 7, 1, first_dealer=0)
    assert error.value.field == "decks"


@pytest.mark.parametrize(
    ("rules", "players", "expected"),
    [(MAY_I, 2, (2, 4)), (CONTRACT_RUMMY, 2, (2, 1)), (CONTRACT_RUMMY, 3, (2, 2))],
)
def test_tiebreaker_is_two_runs_of_ten_cards_with_the_tied_players_decks(
    rules: RuleSet, players: int, expected: tuple[int, int]
) -> None:
    setup = tiebreaker_deal(rules, players, first_dealer=0)
    assert (setup.contract, setup.deal, setup.final_discard) == (Contract(runs=2), 10, True)
    assert (setup.decks, setup.jokers) == expected
    assert setup.is_tiebreaker
    assert (setup.round_number, setup.warnings) == (8, ())


@pytest.mark.parametrize(("playoff", "dealer"), [(1, 1), (2, 2), (3, 0), (4, 1)])
def test_each_further_tiebreaker_passes_the_deal_left(playoff: int, dealer: int) -> None:
    setup = tiebreaker_deal(MAY_I, 3, first_dealer=1, playoff=playoff)
    assert (setup.round_number, setup.dealer, setup.first_player) == (
        7 + playoff,
        dealer,
        (dealer + 1) % 3,
    )


def test_tiebreaker_uses_the_rule_sets_own_tiebreaker_round() -> None:
    special = RoundSpec(Contract(books=1, runs=1), deal=8, buy_cap=1)
    rules = replace(MAY_I, scoring=replace(MAY_I.scoring, tiebreaker_round=special))
    setup = tiebreaker_deal(rules, 2, first_dealer=0)
    assert (setup.contract, setup.deal, setup.buy_cap) == (special.contract, 8, 1)


@pytest.mark.parametrize(
    ("players", "kwargs", "field"),
    [
        (1, {}, "players"),
        (9, {}, "players"),
        (2, {"playoff": 0}, "playoff"),
        (2, {"first_dealer": 2}, "first_dealer"),
        (2, {"decks": 5}, "decks"),
    ],
)
def test_impossible_tiebreakers_are_refused_naming_the_field(
    players: int, kwargs: dict[str, Any], field: str
) -> None:
    arguments: dict[str, Any] = {"first_dealer": 0, **kwargs}
    with pytest.raises(RuleError) as error:
        tiebreaker_deal(CONTRACT_RUMMY, players, **arguments)
    assert error.value.field == field


@pytest.mark.parametrize(
    ("round_number", "spec"),
    [(1, MAY_I.rounds[0]), (7, MAY_I.rounds[6]), (8, MAY_I.scoring.tiebreaker_round)],
)
def test_rounds_past_the_last_are_tiebreaker_rounds(round_number: int, spec: RoundSpec) -> None:
    assert round_spec_for(MAY_I, round_number) == spec


@pytest.mark.parametrize("round_number", [0, -1])
def test_rounds_are_counted_from_one(round_number: int) -> None:
    with pytest.raises(RuleError) as error:
        round_buy_cap(MAY_I, round_number)
    assert error.value.field == "round_number"


@pytest.mark.parametrize(
    ("contract", "parts"),
    [
        (Contract(books=2), ["2 books"]),
        (Contract(books=1, runs=1), ["1 book", "1 run"]),
        (Contract(runs=2), ["2 runs"]),
        (Contract(books=1, runs=2), ["1 book", "2 runs"]),
        (Contract(books=4), ["4 books"]),
        (Contract(runs=3, run_length=5), ["3 runs of 5"]),
        (Contract(runs=1, run_length=7), ["1 run of 7"]),
        (Contract(books=1, book_length=4, runs=2), ["1 book of 4", "2 runs"]),
        (Contract(books=2, book_length=4, runs=1, run_length=10), ["2 books of 4", "1 run of 10"]),
        (Contract(), []),
    ],
)
def test_contract_is_named_one_plural_aware_part_per_meld_kind(
    contract: Contract, parts: list[str]
) -> None:
    assert [part.render() for part in describe_contract(contract)] == parts


def test_contract_parts_carry_count_and_length_for_translation() -> None:
    (part,) = describe_contract(Contract(runs=3, run_length=5))
    assert (part.template, part.plural, part.count) == (
        "%(count)s run of %(length)s",
        "%(count)s runs of %(length)s",
        3,
    )
    assert part.params == {"count": 3, "length": 5}
