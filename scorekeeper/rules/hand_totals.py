"""Which totals a hand left at the end of a round can make (docs/RULES.md 6)."""

from __future__ import annotations

from dataclasses import dataclass

from .deal import round_spec_for
from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .playing_cards import NATURAL_RANKS, Rank
from .ruleset import RuleSet
from .tally import RANKS_PER_DECK

DRAWN_BEFORE_END = 1  # the card a player drew on the turn the round ended
UNUSUAL_SHARE = 0.5  # above half the most a hand can hold, a total is possible but worth a look


@dataclass(frozen=True)
class HandLimits:
    """What one player's hand can hold at the end of a round: how many cards, the cheapest
    card's value and the most those cards can be worth."""

    most_cards: int
    buys: int
    lowest_value: int  # the cheapest card in play: no non-zero hand is worth less
    most_points: int  # the most valuable cards the decks hold, as many as the hand can hold
    decks: int  # the set-up they were found for, to count tapped cards with
    jokers: int

    @property
    def unusual_above(self) -> int:
        """Totals above this are possible but rare enough to check."""
        return int(self.most_points * UNUSUAL_SHARE)


def hand_limits(
    rules: RuleSet, round_number: int, decks: int, jokers: int, buys: int
) -> HandLimits:
    """The most a hand is worth: the deal, the card drawn last and the player's buys with
    their penalty cards, each of them the most valuable card the decks still hold (RULES.md 6).

    May I? round 1 without a buy: 11 cards from 2 decks and 4 jokers, whose 12 cards worth
    15 (4 jokers, 8 aces) make at most 165.
    """
    spec = round_spec_for(rules, round_number)
    held = spec.deal + DRAWN_BEFORE_END + buys * (1 + rules.buys.penalty_cards)
    supply = _supply(rules, decks, jokers)
    most, left = 0, held
    for value, copies in supply:
        taken = min(copies, left)
        most, left = most + taken * value, left - taken
    in_play = sum(copies for _, copies in supply)
    lowest = min((value for value, _ in supply if value > 0), default=0)
    return HandLimits(min(held, in_play), buys, lowest, most, decks, jokers)


def _supply(rules: RuleSet, decks: int, jokers: int) -> list[tuple[int, int]]:
    """Each card value in play with how many cards of the decks have it, the dearest first."""
    values = rules.scoring.values
    copies = [(values[Rank.JOKER.code], jokers)] + [
        (values[rank.code], RANKS_PER_DECK * decks) for rank in NATURAL_RANKS
    ]
    return sorted(((value, count) for value, count in copies if count), reverse=True)


def check_total(limits: HandLimits, points: int, field: str) -> None:
    """Refuse a total no hand can make: below the cheapest card, or above the dearest cards."""
    if 0 < points < limits.lowest_value:
        message = msg(
            N_("No hand is worth %(points)s: the cheapest card counts %(lowest)s."),
            points=points,
            lowest=limits.lowest_value,
        )
        raise RuleError(message, field=field)
    if points > limits.most_points:
        message = nmsg(
            "No hand is worth %(points)s: with %(count)s buy this player holds at most "
            "%(cards)s cards at the end of this round, and the decks' %(cards)s most valuable "
            "cards make %(most)s.",
            "No hand is worth %(points)s: with %(count)s buys this player holds at most "
            "%(cards)s cards at the end of this round, and the decks' %(cards)s most valuable "
            "cards make %(most)s.",
            limits.buys,
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
