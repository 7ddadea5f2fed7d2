"""The "May I?" arbiter: caps, precedence, own discard, twice in a row (RULES.md 4)."""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.arbiter import (
    NEARER_CALLER,
    TAKEN_AS_DRAW,
    arbitrate,
    buy_refusal,
    buys_left,
)
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.presets import (
    CONTRACT_RUMMY,
    MAY_I,
    NO_BUYS,
    PRESETS,
    SHANGHAI,
    UNLIMITED_BUYS,
)
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.stock import buy_after_stock_refusal

SCHEDULE = (0, 0, 0, 1, 2, 2, 3)
SCHEDULED = replace(
    MAY_I,
    rounds=tuple(
        replace(spec, buy_cap=cap) for spec, cap in zip(MAY_I.rounds, SCHEDULE, strict=True)
    ),
)
PER_GAME = replace(MAY_I, buys=replace(MAY_I.buys, cap_per_round=None, cap_per_game=5))
NOT_ONCE_DOWN = replace(MAY_I, buys=replace(MAY_I.buys, no_buy_after_contract_down=True))


def rendered(message: object) -> str | None:
    """The English text of a refusal, or None when the buy is allowed."""
    return None if message is None else str(message)


@pytest.mark.parametrize(
    ("rules", "used", "refusal"),
    [
        (MAY_I, 0, None),
        (MAY_I, 2, None),
        (MAY_I, 3, "The limit of 3 buys per round is reached."),
        (MAY_I, 7, "The limit of 3 buys per round is reached."),
        (UNLIMITED_BUYS, 3, None),
        (UNLIMITED_BUYS, 100, None),
        (NO_BUYS, 0, "There is no buying in this round."),
        (SHANGHAI, 1, None),
        (SHANGHAI, 2, "The limit of 2 buys per round is reached."),
        (CONTRACT_RUMMY, 40, None),
    ],
)
def test_each_rule_sets_round_cap_refuses_the_buy_past_it(
    rules: RuleSet, used: int, refusal: str | None
) -> None:
    assert rendered(buy_refusal(rules, 1, player=2, buys_used_by_player=used)) == refusal


@pytest.mark.parametrize("round_number", [1, 4, 7])
def test_fourth_buy_in_a_may_i_round_is_refused(round_number: int) -> None:
    assert buy_refusal(MAY_I, round_number, 0, 2) is None
    assert buy_refusal(MAY_I, round_number, 0, 3) is not None


@pytest.mark.parametrize(
    ("round_number", "used", "allowed"),
    [(1, 0, False), (3, 0, False), (4, 0, True), (4, 1, False), (5, 1, True), (7, 2, True)],
)
def test_a_per_round_schedule_sets_each_rounds_cap(
    round_number: int, used: int, allowed: bool
) -> None:
    assert (buy_refusal(SCHEDULED, round_number, 1, used) is None) is allowed


@pytest.mark.parametrize(
    ("rules", "round_number", "used", "left"),
    [
        (MAY_I, 1, 0, 3),
        (MAY_I, 1, 2, 1),
        (MAY_I, 1, 3, 0),
        (MAY_I, 1, 5, 0),
        (MAY_I, 8, 1, 2),
        (UNLIMITED_BUYS, 1, 9, None),
        (NO_BUYS, 1, 0, 0),
        (SHANGHAI, 3, 1, 1),
        (SCHEDULED, 4, 0, 1),
        (SCHEDULED, 7, 1, 2),
    ],
)
def test_buys_left_counts_down_to_zero_or_is_unlimited(
    rules: RuleSet, round_number: int, used: int, left: int | None
) -> None:
    assert buys_left(rules, round_number, used) == left


@pytest.mark.parametrize(
    ("rules", "round_number", "used", "kwargs", "left"),
    [
        (PER_GAME, 1, 0, {"game_used": 0}, 5),
        (PER_GAME, 3, 1, {"game_used": 4}, 1),
        (PER_GAME, 6, 0, {"game_used": 5}, 0),  # 5 of 5 a game: none left, whatever the round
        (
            replace(PER_GAME, buys=replace(PER_GAME.buys, cap_per_round=3)),
            2,
            1,
            {"game_used": 4},
            1,
        ),
        (
            replace(PER_GAME, buys=replace(PER_GAME.buys, cap_per_round=3)),
            2,
            1,
            {"game_used": 1},
            2,
        ),
        (NOT_ONCE_DOWN, 1, 0, {"contract_down": True}, 0),
        (NOT_ONCE_DOWN, 1, 0, {"contract_down": False}, 3),
        (MAY_I, 1, 0, {"contract_down": True}, 3),  # May I? lets a player buy once down
        (MAY_I, 1, 0, {"run_outs": 2}, 0),  # the stock ended the round: nobody buys
        (UNLIMITED_BUYS, 1, 0, {"run_outs": 2}, 0),
        (UNLIMITED_BUYS, 1, 0, {"run_outs": 1}, None),
        (CONTRACT_RUMMY, 1, 9, {"run_outs": 5}, None),  # the sheet's stock never ends a round
    ],
)
def test_buys_left_honours_every_limit_on_the_next_buy(
    rules: RuleSet, round_number: int, used: int, kwargs: dict[str, Any], left: int | None
) -> None:
    assert buys_left(rules, round_number, used, **kwargs) == left


@given(
    rules=st.sampled_from([*PRESETS.values(), SCHEDULED, PER_GAME, NOT_ONCE_DOWN]),
    round_number=st.integers(1, 7),
    used=st.integers(0, 6),
    earlier=st.integers(0, 8),
    contract_down=st.booleans(),
    run_outs=st.integers(0, 3),
)
def test_no_buy_is_left_exactly_when_the_next_buy_is_refused(
    rules: RuleSet,
    round_number: int,
    used: int,
    earlier: int,
    contract_down: bool,
    run_outs: int,
) -> None:
    game_used = used + earlier
    left = buys_left(
        rules,
        round_number,
        used,
        game_used=game_used,
        contract_down=contract_down,
        run_outs=run_outs,
    )
    refusal = buy_after_stock_refusal(rules, run_outs) or buy_refusal(
        rules,
        round_number,
        0,
        used,
        game_buys_used_by_player=game_used,
        contract_down=contract_down,
    )
    assert (refusal is not None) == (left == 0)


@pytest.mark.parametrize(
    ("rules", "kwargs", "refusal"),
    [
        (MAY_I, {"discarder": 2}, "Nobody may buy back their own discard."),
        (MAY_I, {"discarder": 1}, None),
        (CONTRACT_RUMMY, {"bought_above": 2}, "Nobody may buy twice in a row."),
        (CONTRACT_RUMMY, {"bought_above": 3}, None),
        (CONTRACT_RUMMY, {}, None),
        (MAY_I, {"bought_above": 2}, None),
        (PER_GAME, {"game_buys_used_by_player": 5}, "The limit of 5 buys per game is reached."),
        (PER_GAME, {"game_buys_used_by_player": 4}, None),
        (NOT_ONCE_DOWN, {"contract_down": True}, "Nobody may buy once their contract is down."),
        (MAY_I, {"contract_down": True}, None),
    ],
)
def test_single_buy_refusals_give_the_reason(
    rules: RuleSet, kwargs: dict[str, Any], refusal: str | None
) -> None:
    assert rendered(buy_refusal(rules, 1, 2, 0, **kwargs)) == refusal


def test_nearest_caller_clockwise_from_the_discarder_wins() -> None:
    ruling = arbitrate(MAY_I, 1, players=5, discarder=1, callers={0, 3, 4}, buys_used={})
    assert (ruling.winner, ruling.is_buy) == (3, True)
    assert ruling.refusals == {0: NEARER_CALLER, 4: NEARER_CALLER}
    assert str(ruling.explanation) == (
        "The nearest caller clockwise buys the card and takes 1 penalty card."
    )


@pytest.mark.parametrize(
    ("players", "discarder", "callers", "winner"),
    [
        (4, 3, {1, 2}, 1),
        (4, 0, {3, 2}, 2),
        (6, 4, {0, 3, 5}, 5),
        (6, 4, {0, 3}, 0),
        (8, 6, {5, 1, 3}, 1),
        (3, 2, {1}, 1),
    ],
)
def test_precedence_goes_clockwise_round_the_table(
    players: int, discarder: int, callers: set[int], winner: int
) -> None:
    assert arbitrate(MAY_I, 1, players, discarder, callers, {}).winner == winner


def test_discarder_cannot_buy_back_their_own_discard() -> None:
    ruling = arbitrate(MAY_I, 1, players=4, discarder=2, callers={2}, buys_used={})
    assert ruling.winner is None
    assert str(ruling.refusals[2]) == "Nobody may buy back their own discard."
    assert str(ruling.explanation) == "Nobody who called may buy the card."


def test_nobody_calling_leaves_the_card_where_it_lies() -> None:
    ruling = arbitrate(MAY_I, 1, players=4, discarder=0, callers=(), buys_used={})
    assert (ruling.winner, ruling.is_buy, ruling.refusals) == (None, False, {})
    assert str(ruling.explanation) == "Nobody called."


def test_a_capped_caller_is_passed_over_for_the_next_one() -> None:
    ruling = arbitrate(MAY_I, 1, players=5, discarder=0, callers={2, 4}, buys_used={2: 3, 4: 1})
    assert ruling.winner == 4
    assert str(ruling.refusals[2]) == "The limit of 3 buys per round is reached."


@pytest.mark.parametrize(
    ("rules", "winner"), [(CONTRACT_RUMMY, 3), (SHANGHAI, 3), (MAY_I, 2), (UNLIMITED_BUYS, 2)]
)
def test_who_bought_the_card_above_may_not_buy_the_next_card_down_under_the_sheet(
    rules: RuleSet, winner: int
) -> None:
    ruling = arbitrate(rules, 1, 5, discarder=0, callers={2, 3}, buys_used={}, bought_above=2)
    assert ruling.winner == winner


@pytest.mark.parametrize("rules", [CONTRACT_RUMMY, SHANGHAI], ids=["sheet", "shanghai"])
def test_a_fresh_discard_starts_a_new_chain_where_the_last_buyer_may_buy_again(
    rules: RuleSet,
) -> None:
    # Seat 2 bought at an earlier discard; this discard has no card bought above it.
    ruling = arbitrate(rules, 1, 5, discarder=0, callers={2, 3}, buys_used={2: 1})
    assert ruling.winner == 2
    assert ruling.is_buy


def test_the_buyer_of_the_card_above_must_sit_at_the_table() -> None:
    with pytest.raises(RuleError) as refused:
        arbitrate(CONTRACT_RUMMY, 1, 4, discarder=0, callers={2}, buys_used={}, bought_above=9)
    assert refused.value.field == "bought_above"


@pytest.mark.parametrize(("rules", "is_buy"), [(MAY_I, True), (CONTRACT_RUMMY, False)])
def test_the_turn_player_calling_counts_as_a_buy_only_under_may_i(
    rules: RuleSet, is_buy: bool
) -> None:
    ruling = arbitrate(rules, 1, players=4, discarder=0, callers={1, 2}, buys_used={})
    assert (ruling.winner, ruling.is_buy) == (1, is_buy)
    assert ruling.refusals == {2: NEARER_CALLER}


def test_the_turn_players_call_under_may_i_is_capped_like_any_buy() -> None:
    ruling = arbitrate(MAY_I, 1, players=4, discarder=0, callers={1, 3}, buys_used={1: 3})
    assert (ruling.winner, ruling.is_buy) == (3, True)
    assert str(ruling.refusals[1]) == "The limit of 3 buys per round is reached."


def test_the_turn_player_taking_a_draw_under_the_sheet_ignores_buy_rules() -> None:
    ruling = arbitrate(
        SHANGHAI, 1, players=4, discarder=0, callers={1}, buys_used={1: 2}, bought_above=1
    )
    assert (ruling.winner, ruling.is_buy, ruling.refusals) == (1, False, {})


@pytest.mark.parametrize("rules", [MAY_I, CONTRACT_RUMMY, NO_BUYS])
def test_the_turn_player_drawing_the_discard_refuses_every_caller(rules: RuleSet) -> None:
    ruling = arbitrate(
        rules, 1, 4, discarder=1, callers={0, 3}, buys_used={}, turn_player_draws=True
    )
    assert (ruling.winner, ruling.is_buy) == (2, False)
    assert set(ruling.refusals) == {0, 3}
    assert ruling.explanation == TAKEN_AS_DRAW


def test_callers_passed_over_by_a_draw_keep_their_own_reason_if_they_have_one() -> None:
    ruling = arbitrate(
        MAY_I, 1, 4, discarder=1, callers={0, 1, 3}, buys_used={3: 3}, turn_player_draws=True
    )
    assert {seat: str(message) for seat, message in ruling.refusals.items()} == {
        0: str(TAKEN_AS_DRAW),
        1: "Nobody may buy back their own discard.",
        3: "The limit of 3 buys per round is reached.",
    }


def test_game_buys_are_checked_against_the_game_cap() -> None:
    ruling = arbitrate(
        PER_GAME, 6, 4, discarder=0, callers={2, 3}, buys_used={2: 1}, game_buys_used={2: 5}
    )
    assert ruling.winner == 3
    assert str(ruling.refusals[2]) == "The limit of 5 buys per game is reached."


def test_round_buys_stand_in_for_game_buys_when_those_are_not_given() -> None:
    ruling = arbitrate(PER_GAME, 1, 4, discarder=0, callers={2}, buys_used={2: 5})
    assert ruling.winner is None


def test_a_player_whose_contract_is_down_may_not_buy_when_the_table_says_so() -> None:
    ruling = arbitrate(
        NOT_ONCE_DOWN, 2, 4, discarder=0, callers={2, 3}, buys_used={}, contract_down={2}
    )
    assert ruling.winner == 3
    assert str(ruling.refusals[2]) == "Nobody may buy once their contract is down."


def test_the_explanation_says_how_many_penalty_cards_a_buy_costs() -> None:
    rules = replace(MAY_I, buys=replace(MAY_I.buys, penalty_cards=2))
    ruling = arbitrate(rules, 1, 4, discarder=0, callers={1}, buys_used={})
    assert str(ruling.explanation) == (
        "The player at turn called instead of drawing: a buy, with 2 penalty cards."
    )


@pytest.mark.parametrize(
    ("players", "discarder", "callers", "field"),
    [(1, 0, {0}, "players"), (4, 4, {1}, "discarder"), (4, 0, {1, 5}, "callers")],
)
def test_seats_off_the_table_are_refused(
    players: int, discarder: int, callers: set[int], field: str
) -> None:
    with pytest.raises(RuleError) as error:
        arbitrate(MAY_I, 1, players, discarder, callers, {})
    assert error.value.field == field


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    """A discard at a table of 2-8 under any preset, with callers, buys and a buyer above."""
    players = draw(st.integers(2, 8))
    seats = st.integers(0, players - 1)
    return {
        "rules": draw(st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.key))),
        "round_number": draw(st.integers(1, 7)),
        "players": players,
        "discarder": draw(seats),
        "callers": draw(st.lists(seats, unique=True)),
        "buys_used": draw(st.dictionaries(seats, st.integers(0, 4))),
        "turn_player_draws": draw(st.booleans()),
        "bought_above": draw(st.none() | seats),
        "contract_down": draw(st.frozensets(seats)),
    }


@given(calls(), st.randoms(use_true_random=False))
def test_the_ruling_does_not_depend_on_the_order_callers_are_listed(
    call: dict[str, Any], random: Random
) -> None:
    shuffled = list(call["callers"])
    random.shuffle(shuffled)
    assert arbitrate(**{**call, "callers": shuffled}) == arbitrate(**call)


@given(calls())
def test_every_caller_but_the_winner_is_told_why(call: dict[str, Any]) -> None:
    ruling = arbitrate(**call)
    assert set(ruling.refusals) == set(call["callers"]) - {ruling.winner}
    assert ruling.winner != call["discarder"]


@given(calls())
def test_only_callers_farther_from_the_discarder_are_passed_over_for_precedence(
    call: dict[str, Any],
) -> None:
    ruling = arbitrate(**call)
    discarder, players = call["discarder"], call["players"]
    passed_over = [seat for seat, reason in ruling.refusals.items() if reason == NEARER_CALLER]
    for seat in passed_over:
        assert ruling.winner is not None
        assert (seat - discarder) % players > (ruling.winner - discarder) % players
