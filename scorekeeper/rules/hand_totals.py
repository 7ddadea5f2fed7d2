"""Which totals a hand left at the end of a round can make (docs/RULES.md 6)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleError
from .messages import N_, Message, msg
from .ruleset import RuleSet
from .table import round_buy_cap, round_spec_for

DRAWN_BEFORE_END = 1  # the card a player drew on the turn the round ended
UNUSUAL_SHARE = 0.5  # above half the most a hand can hold, a total is possible but worth a look


@dataclass(frozen=True)
class HandLimits:
    """The most cards a player can hold at the end of a round, and what cards are worth."""

    most_cards: int
    lowest_value: int  # the cheapest card: no non-zero hand is worth less
    highest_value: int

    @property
    def most_points(self) -> int:
        """Every card held is the most valuable one."""
        return self.most_cards * self.highest_value

    @property
    def unusual_above(self) -> int:
        """Totals above this are possible but rare enough to check."""
        return int(self.most_points * UNUSUAL_SHARE)


def hand_limits(rules: RuleSet, round_number: int, cards_in_play: int) -> HandLimits:
    """The deal, the card drawn last and what the buys added, bounded by the cards in play."""
    spec = round_spec_for(rules, round_number)
    cap = round_buy_cap(rules, round_number)
    if cap is None:
        most = cards_in_play  # unlimited buys: only the decks bound a hand
    else:
        per_buy = 1 + rules.buys.penalty_cards
        most = min(cards_in_play, spec.deal + DRAWN_BEFORE_END + cap * per_buy)
    values = [value for value in rules.scoring.values.values() if value > 0]
    return HandLimits(most, min(values), max(values))


def check_total(limits: HandLimits, points: int, field: str) -> None:
    """Refuse a total no hand can make: below the cheapest card, or above a hand of the best."""
    if 0 < points < limits.lowest_value:
        message = msg(
            N_("No hand is worth %(points)s: the cheapest card counts %(lowest)s."),
            points=points,
            lowest=limits.lowest_value,
        )
        raise RuleError(message, field=field)
    if points > limits.most_points:
        message = msg(
            N_(
                "No hand is worth %(points)s: a player holds at most %(cards)s cards at the end "
                "of this round, worth at most %(most)s."
            ),
            points=points,
            cards=limits.most_cards,
            most=limits.most_points,
        )
        raise RuleError(message, field=field)


def unusual_total_warning(limits: HandLimits, name: str, points: int) -> Message | None:
    """Warn about a possible but unusually high total, so the table checks it."""
    if points <= limits.unusual_above:
        return None
    return msg(
        N_("%(name)s: %(points)s points is unusually high for one hand. Check it."),
        name=name,
        points=points,
    )
