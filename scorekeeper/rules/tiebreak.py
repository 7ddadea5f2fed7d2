"""Breaking a tie on the lowest total: rounds out, tiebreaker rounds, sharing (docs/RULES.md 6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .ruleset import RuleSet, TiebreakPolicy
from .scoring import check_stock_ending

Tiers = tuple[tuple[int, ...], ...]  # seats grouped best first; a group still shares its place
Settlement = tuple[Tiers, tuple[Message, ...]]  # the leaders' tiers and the reasons, in order


@dataclass(frozen=True)
class TiebreakerOutcome:
    """A tiebreaker round: who played, who went out, or each hand if the stock ended it."""

    seats: tuple[int, ...]
    went_out: int | None
    hand_points: dict[int, int] = field(default_factory=dict)


def tiers_by(seats: Sequence[int], key: Callable[[int], int]) -> Tiers:
    """Group seats by key, lowest first, keeping seat order inside a group."""
    ordered = sorted(seats, key=key)
    return tuple(tuple(group) for _, group in groupby(ordered, key=key))


def settle_tie(
    rules: RuleSet,
    names: Sequence[str],
    rounds_out: Sequence[int],
    leaders: tuple[int, ...],
    tiebreakers: Sequence[TiebreakerOutcome],
    total: int,
) -> Settlement:
    """Order the seats on the lowest total; the first tier still contends for the win."""
    if len(leaders) == 1:
        winner = names[leaders[0]]
        line = msg(N_("%(name)s wins with the lowest total, %(total)s."), name=winner, total=total)
        return _playoffs(rules, names, (leaders,), tiebreakers, [line])
    lines = [msg(N_("%(names)s tied on %(total)s."), names=_names(names, leaders), total=total)]
    policy = rules.scoring.tiebreak
    if policy is TiebreakPolicy.SHARED:
        if tiebreakers:
            raise RuleError(
                msg(N_("Under these rules a tie shares the win: no tiebreaker round.")),
                field="tiebreakers",
            )
        lines.append(msg(N_("%(names)s share the win."), names=_names(names, leaders)))
        return (leaders,), tuple(lines)
    tiers: Tiers = (leaders,)
    if policy is TiebreakPolicy.ROUNDS_OUT_THEN_PLAYOFF:
        tiers = tiers_by(leaders, lambda seat: -rounds_out[seat])
        lines += [_went_out_line(names[seat], rounds_out[seat]) for seat in leaders]
        if len(tiers[0]) == 1:
            lines.append(msg(N_("%(name)s wins on rounds gone out."), name=names[tiers[0][0]]))
    return _playoffs(rules, names, tiers, tiebreakers, lines)


def _names(names: Sequence[str], seats: Sequence[int]) -> tuple[str, ...]:
    """The names at these seats, as a message's list parameter."""
    return tuple(names[seat] for seat in seats)


def _went_out_line(name: str, rounds: int) -> Message:
    """The May I? tiebreak: how many rounds this player went out in."""
    return nmsg(
        "%(name)s went out in %(count)s round.",
        "%(name)s went out in %(count)s rounds.",
        rounds,
        name=name,
    )


def _playoffs(
    rules: RuleSet,
    names: Sequence[str],
    tiers: Tiers,
    tiebreakers: Sequence[TiebreakerOutcome],
    lines: list[Message],
) -> Settlement:
    """Play tiebreaker rounds among those still tied until one player is left (May I?)."""
    for index, outcome in enumerate(tiebreakers):
        where = f"tiebreakers.{index}"
        if len(tiers[0]) == 1:
            winner = names[tiers[0][0]]
            raise RuleError(
                msg(N_("No tiebreaker round is needed: %(name)s has won."), name=winner),
                field=where,
            )
        head, line = _tiebreaker(rules, names, tiers[0], outcome, where)
        tiers = (*head, *tiers[1:])
        lines.append(line)
    if len(tiers[0]) > 1:
        lines += _call_tiebreaker(rules, _names(names, tiers[0]), still=len(lines) > 1)
    return tiers, tuple(lines)


def _tiebreaker(
    rules: RuleSet,
    names: Sequence[str],
    seats: tuple[int, ...],
    outcome: TiebreakerOutcome,
    where: str,
) -> tuple[Tiers, Message]:
    """Whoever goes out wins the tiebreaker; if the stock ends it, the lowest hand wins."""
    _check_players(names, seats, outcome, where)
    if outcome.went_out is not None:
        rest = tuple(seat for seat in seats if seat != outcome.went_out)
        line = msg(
            N_("%(name)s went out in the tiebreaker round and wins."), name=names[outcome.went_out]
        )
        return ((outcome.went_out,), rest), line
    check_stock_ending(rules, f"{where}.went_out")
    tiers = tiers_by(seats, outcome.hand_points.__getitem__)
    best, low = tiers[0], outcome.hand_points[tiers[0][0]]
    if len(best) == 1:
        template = N_(
            "The tiebreaker round ended with the stock: "
            "%(name)s has the lowest hand, %(points)s, and wins."
        )
        return tiers, msg(template, name=names[best[0]], points=low)
    template = N_("The tiebreaker round ended with the stock: %(names)s tied on %(points)s.")
    return tiers, msg(template, names=_names(names, best), points=low)


def _check_players(
    names: Sequence[str], seats: tuple[int, ...], outcome: TiebreakerOutcome, where: str
) -> None:
    """Exactly the tied players play; one of them goes out, or every hand is counted."""
    playing = _names(names, seats)
    if sorted(outcome.seats) != sorted(seats):
        message = msg(N_("The tiebreaker round is for %(names)s."), names=playing)
        raise RuleError(message, field=f"{where}.seats")
    if outcome.went_out is not None and outcome.went_out not in seats:
        message = msg(N_("Only %(names)s play the tiebreaker round."), names=playing)
        raise RuleError(message, field=f"{where}.went_out")
    counted = set(outcome.hand_points)
    if outcome.went_out is not None and counted:
        message = msg(N_("Hands are counted only when the stock ends the tiebreaker round."))
        raise RuleError(message, field=f"{where}.hand_points")
    if outcome.went_out is None and counted != set(seats):
        message = msg(N_("Count the hand of each of %(names)s."), names=playing)
        raise RuleError(message, field=f"{where}.hand_points")
    for seat, points in outcome.hand_points.items():
        if points < 0:
            message = msg(N_("Points cannot be negative: %(points)s."), points=points)
            raise RuleError(message, field=f"{where}.hand_points.{seat}")


def _call_tiebreaker(rules: RuleSet, tied: tuple[str, ...], *, still: bool) -> list[Message]:
    """Announce the tiebreaker round and its contract (May I?: 2 runs, 10 cards)."""
    spec = rules.scoring.tiebreaker_round
    if still:
        lines = [msg(N_("Still tied: %(names)s play a tiebreaker round."), names=tied)]
    else:
        lines = [msg(N_("%(names)s play a tiebreaker round."), names=tied)]
    # One count per sentence, so that every language can choose its own plural forms.
    books, runs = spec.contract.books, spec.contract.runs
    if books:
        lines.append(nmsg("Contract: %(count)s book.", "Contract: %(count)s books.", books))
    if runs:
        lines.append(nmsg("Contract: %(count)s run.", "Contract: %(count)s runs.", runs))
    lines.append(nmsg("Deal %(count)s card each.", "Deal %(count)s cards each.", spec.deal))
    return lines
