"""The stock running out: re-form it from the discards, or end the round (RULES.md 5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.presets import CONTRACT_RUMMY, LIVERPOOL, MAY_I, NO_BUYS
from scorekeeper.rules.ruleset import ReshufflePolicy, RuleSet
from scorekeeper.rules.stock import (
    buy_after_stock_refusal,
    round_ended_by_stock,
    stock_ending_refusal,
    stock_ran_out,
)

SHUFFLE = "Shuffle the discard pile, keep its top card, and play on."
TURN_OVER = "Turn the discard pile over without shuffling, keep its top card, and play on."
ROUND_ENDS = "The stock ran out a second time: the round ends and everybody counts their hand."
UNSHUFFLED_MAY_I = replace(MAY_I, shuffle_on_reform=False)
UNSHUFFLED_SHEET = replace(CONTRACT_RUMMY, shuffle_on_reform=False)


@pytest.mark.parametrize(
    ("rules", "instruction"),
    [(MAY_I, SHUFFLE), (NO_BUYS, SHUFFLE), (UNSHUFFLED_MAY_I, TURN_OVER)],
)
def test_first_run_out_under_may_i_re_forms_the_stock(rules: RuleSet, instruction: str) -> None:
    run_out = stock_ran_out(rules, previous_run_outs=0)
    assert (run_out.number, run_out.ends_round, str(run_out.instruction)) == (
        1,
        False,
        instruction,
    )


@pytest.mark.parametrize("rules", [MAY_I, NO_BUYS, UNSHUFFLED_MAY_I])
def test_second_run_out_under_may_i_ends_the_round(rules: RuleSet) -> None:
    run_out = stock_ran_out(rules, previous_run_outs=1)
    assert (run_out.number, run_out.ends_round, str(run_out.instruction)) == (2, True, ROUND_ENDS)


@pytest.mark.parametrize(
    ("rules", "instruction"),
    [(CONTRACT_RUMMY, SHUFFLE), (LIVERPOOL, SHUFFLE), (UNSHUFFLED_SHEET, TURN_OVER)],
)
@pytest.mark.parametrize("previous", [0, 1, 2, 5, 30])
def test_under_the_sheet_every_run_out_re_forms_the_stock(
    rules: RuleSet, instruction: str, previous: int
) -> None:
    run_out = stock_ran_out(rules, previous_run_outs=previous)
    assert (run_out.number, run_out.ends_round, str(run_out.instruction)) == (
        previous + 1,
        False,
        instruction,
    )


def test_the_policy_not_the_preset_decides() -> None:
    rules = replace(MAY_I, reshuffle=ReshufflePolicy.ALWAYS)
    assert not stock_ran_out(rules, previous_run_outs=1).ends_round


@pytest.mark.parametrize(("rules", "previous"), [(MAY_I, 2), (MAY_I, 5), (CONTRACT_RUMMY, -1)])
def test_impossible_run_out_counts_are_refused(rules: RuleSet, previous: int) -> None:
    with pytest.raises(RuleError) as error:
        stock_ran_out(rules, previous_run_outs=previous)
    assert error.value.field == "previous_run_outs"


@pytest.mark.parametrize(
    ("rules", "run_outs", "ended"),
    [(MAY_I, 0, False), (MAY_I, 1, False), (MAY_I, 2, True), (CONTRACT_RUMMY, 5, False)],
)
def test_the_second_run_out_ends_a_may_i_round_only(
    rules: RuleSet, run_outs: int, ended: bool
) -> None:
    assert round_ended_by_stock(rules, run_outs) is ended


def test_the_stock_can_end_a_may_i_round_only_on_its_second_run_out() -> None:
    for run_outs, said in ((0, "0 times"), (1, "1 time this round")):
        refusal = stock_ending_refusal(MAY_I, run_outs)
        assert refusal is not None and f"so far it ran out {said}" in str(refusal)
    assert stock_ending_refusal(MAY_I, 2) is None


def test_buys_close_when_the_stock_ended_the_round() -> None:
    assert buy_after_stock_refusal(MAY_I, 1) is None
    refusal = buy_after_stock_refusal(MAY_I, 2)
    assert str(refusal) == "The stock ended this round: nobody can buy any more."
    assert buy_after_stock_refusal(CONTRACT_RUMMY, 5) is None
