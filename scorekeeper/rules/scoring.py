"""Round scores and running totals (docs/RULES.md sections 5, 6 and 8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .ruleset import ReshufflePolicy, RuleSet


@dataclass(frozen=True)
class HandResult:
    """One player's facts for a round: hand points as counted, going out, the cut, an adjustment."""

    points: int = 0
    went_out: bool = False
    cut_bonus: bool = False
    adjustment: int = 0


@dataclass(frozen=True)
class RoundOutcome:
    """A scored round: each seat's score and who went out (None: ended by the stock)."""

    scores: tuple[int, ...]
    went_out: int | None


def score_round(
    rules: RuleSet, results: Sequence[HandResult], *, ended_by_stock: bool = False
) -> RoundOutcome:
    """Score a round: who went out scores 0, everyone else their hand (docs/RULES.md 6)."""
    went_out = _who_went_out(rules, results, ended_by_stock)
    for seat, result in enumerate(results):
        _check_points(seat, result)
        if result.adjustment and not rules.scoring.adjustments:
            raise RuleError(
                msg(N_("These rules allow no adjustments.")), field=f"adjustment.{seat}"
            )
    _check_cut(rules, results)
    bonus = rules.scoring.cut_bonus
    scores = tuple(r.points - (bonus if r.cut_bonus else 0) + r.adjustment for r in results)
    return RoundOutcome(scores, went_out)


def check_stock_ending(rules: RuleSet, field: str) -> None:
    """Refuse a stock ending where the stock is re-formed every time (Contract Rummy sheet)."""
    if rules.reshuffle is ReshufflePolicy.ALWAYS:
        raise RuleError(
            msg(
                N_(
                    "Under these rules the stock is re-formed every time it runs out, "
                    "so a round never ends by the stock."
                )
            ),
            field=field,
        )


def _who_went_out(
    rules: RuleSet, results: Sequence[HandResult], ended_by_stock: bool
) -> int | None:
    """Exactly one player goes out, unless the second run-out of the stock ended the round."""
    out = [seat for seat, result in enumerate(results) if result.went_out]
    if ended_by_stock:
        check_stock_ending(rules, "ended_by_stock")
        if out:
            raise RuleError(
                msg(N_("Nobody goes out in a round ended by the stock.")), field="went_out"
            )
        return None
    if not out:
        raise RuleError(
            msg(N_("Mark the player who went out, or end the round by the stock.")),
            field="went_out",
        )
    if len(out) > 1:
        raise RuleError(
            nmsg(
                "Only one player can go out in a round; %(count)s is marked.",
                "Only one player can go out in a round; %(count)s are marked.",
                len(out),
            ),
            field="went_out",
        )
    return out[0]


def _check_points(seat: int, result: HandResult) -> None:
    """Hand points are never negative, and the player who went out holds no cards."""
    if result.points < 0:
        raise RuleError(
            msg(N_("Points cannot be negative: %(points)s."), points=result.points),
            field=f"points.{seat}",
        )
    if result.went_out and result.points > 0:
        raise RuleError(
            msg(N_("The player who went out scores 0, not %(points)s."), points=result.points),
            field=f"points.{seat}",
        )


def _check_cut(rules: RuleSet, results: Sequence[HandResult]) -> None:
    """The cut bonus exists only where the rules give one, and only one player cuts (Liverpool)."""
    cutters = sum(result.cut_bonus for result in results)
    if cutters and rules.scoring.cut_bonus <= 0:
        raise RuleError(msg(N_("These rules have no cut bonus.")), field="cut_bonus")
    if cutters > 1:
        raise RuleError(
            msg(N_("Only one player cuts, so only one can earn the cut bonus.")),
            field="cut_bonus",
        )


def check_cut_bonus(rules: RuleSet, seat: int | None, cutter: int | None) -> None:
    """Liverpool: only the round's cutter, right of the dealer, can earn the cut bonus."""
    if seat is None:
        return
    if rules.scoring.cut_bonus <= 0:
        raise RuleError(msg(N_("These rules have no cut bonus.")), field="cut_bonus_seat")
    if seat != cutter:
        message = msg(N_("Only the player who cut this round can earn the cut bonus."))
        raise RuleError(message, field="cut_bonus_seat")


def zero_warning(result: HandResult, name: str) -> Message | None:
    """Warn when a player who did not go out counts 0: a hand left at the end always scores."""
    if result.went_out or result.points != 0:
        return None
    return msg(N_("%(name)s: 0 points, but %(name)s did not go out. Check the hand."), name=name)


def totals(outcomes: Sequence[RoundOutcome], players: int) -> tuple[int, ...]:
    """Each seat's total: the sum of its round scores; lowest wins (docs/RULES.md 6)."""
    rows = running_totals(outcomes, players)
    return rows[-1] if rows else (0,) * players


def running_totals(outcomes: Sequence[RoundOutcome], players: int) -> tuple[tuple[int, ...], ...]:
    """The running score sheet: each seat's total after each round."""
    _check_players(outcomes, players)
    rows = accumulate(
        (outcome.scores for outcome in outcomes),
        lambda total, scores: tuple(a + b for a, b in zip(total, scores, strict=True)),
    )
    return tuple(rows)


def rounds_gone_out(outcomes: Sequence[RoundOutcome], players: int) -> tuple[int, ...]:
    """How many rounds each seat went out in: the May I? tiebreak (docs/RULES.md 6)."""
    _check_players(outcomes, players)
    outs = [outcome.went_out for outcome in outcomes]
    return tuple(outs.count(seat) for seat in range(players))


def _check_players(outcomes: Sequence[RoundOutcome], players: int) -> None:
    """Every round of a game is scored for the same seats, and its winner sits at the table."""
    for number, outcome in enumerate(outcomes, start=1):
        if len(outcome.scores) != players:
            raise RuleError(
                nmsg(
                    "Round %(number)s should have %(count)s score.",
                    "Round %(number)s should have %(count)s scores.",
                    players,
                    number=number,
                ),
                field=f"rounds.{number}",
            )
        if outcome.went_out is not None and not 0 <= outcome.went_out < players:
            raise RuleError(
                msg(N_("Round %(number)s names a player who is not at the table."), number=number),
                field=f"rounds.{number}.went_out",
            )
