"""The stock running out: re-form it from the discards, or end the round (docs/RULES.md 5)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .ruleset import ReshufflePolicy, RuleSet

RUN_OUTS_BEFORE_END = 1  # May I?: the stock is re-formed once; the next run-out ends the round


@dataclass(frozen=True)
class RunOut:
    """The n-th time the stock ran out this round, and what the table does now."""

    number: int
    ends_round: bool
    instruction: Message


def stock_ran_out(rules: RuleSet, previous_run_outs: int) -> RunOut:
    """Re-form the stock; under the once policy the second run-out ends the round."""
    if previous_run_outs < 0:
        message = msg(N_("The stock cannot have run out a negative number of times."))
        raise RuleError(message, field="previous_run_outs")
    number = previous_run_outs + 1
    if rules.reshuffle is ReshufflePolicy.ALWAYS or number <= RUN_OUTS_BEFORE_END:
        return RunOut(number, ends_round=False, instruction=_reform(rules))
    if number > RUN_OUTS_BEFORE_END + 1:
        # The run-out before this one already ended the round: nothing is left to play.
        message = msg(N_("The round already ended when the stock ran out a second time."))
        raise RuleError(message, field="previous_run_outs")
    ending = msg(
        N_("The stock ran out a second time: the round ends and everybody counts their hand.")
    )
    return RunOut(number, ends_round=True, instruction=ending)


def stock_can_end_round(rules: RuleSet) -> bool:
    """Whether the stock can end a round (May I?), or is re-formed every time (the sheet)."""
    return rules.reshuffle is ReshufflePolicy.ONCE


def round_ended_by_stock(rules: RuleSet, run_outs: int) -> bool:
    """Whether this many run-outs have ended the round (May I?: the second one)."""
    return stock_can_end_round(rules) and run_outs > RUN_OUTS_BEFORE_END


def standing_instruction(rules: RuleSet, run_outs: int) -> Message | None:
    """What the table does after the stock's last run-out, shown for the rest of the round."""
    if run_outs < 1:
        return None
    return stock_ran_out(rules, run_outs - 1).instruction


def stock_ending_refusal(rules: RuleSet, run_outs: int) -> Message | None:
    """Why the stock cannot have ended a round after this many run-outs (May I?: the second)."""
    if not stock_can_end_round(rules) or round_ended_by_stock(rules, run_outs):
        return None  # the sheet's rules refuse any stock ending in scoring.check_stock_ending
    return nmsg(
        "The stock ends the round only when it runs out a second time; so far it ran out "
        "%(count)s time this round. Tap “The stock ran out” each time it does.",
        "The stock ends the round only when it runs out a second time; so far it ran out "
        "%(count)s times this round. Tap “The stock ran out” each time it does.",
        run_outs,
    )


def buy_after_stock_refusal(rules: RuleSet, run_outs: int) -> Message | None:
    """Why no buy can be made once the stock ended the round (RULES.md 5's decision)."""
    if round_ended_by_stock(rules, run_outs):
        return msg(N_("The stock ended this round: nobody can buy any more."))
    return None


def _reform(rules: RuleSet) -> Message:
    """The discards but the top card become the new stock, shuffled unless the table says not."""
    if rules.shuffle_on_reform:
        return msg(N_("Shuffle the discard pile, keep its top card, and play on."))
    return msg(N_("Turn the discard pile over without shuffling, keep its top card, and play on."))
