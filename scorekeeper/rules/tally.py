"""Counting the cards left in a hand, within the cards in play (docs/RULES.md 1, 2 and 6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .playing_cards import RANKS_BY_CODE, Card, Rank, by_rank
from .ruleset import RuleSet

RANKS_PER_DECK = 4  # one card of each rank per suit


def card_points(card: Card, rules: RuleSet) -> int:
    """Penalty points of a card left in hand: Joker 15, Ace 15, K/Q/J 10, 2-10 face value."""
    return rules.scoring.value_of(card.rank)


def cards_points(cards: Mapping[Card, int], rules: RuleSet, decks: int, jokers: int) -> int:
    """Penalty points of the cards left in a hand, each with its copies: no card more often
    than there are decks (a card tapped by its rank alone counts towards its rank's 4 × decks)."""
    for card, copies in cards.items():
        if card.suit is not None and copies > decks:
            raise RuleError(_copies_refusal(card, decks), field="cards")
    return points_from_counts(by_rank(cards), rules, decks, jokers)


def in_play_refusal(cards: Sequence[Card], decks: int, jokers: int) -> Message | None:
    """Why the decks cannot hold these cards: one card more often than there are decks (two
    decks hold two 7♥), or more jokers than are in play. A hand's tally and the meld checker
    count alike (docs/RULES.md 2)."""
    for card, copies in Counter(card for card in cards if not card.is_joker).items():
        if copies > decks:
            return _copies_refusal(card, decks)
    if sum(card.is_joker for card in cards) > jokers:
        return _joker_limit(jokers)
    return None


def _copies_refusal(card: Card, decks: int) -> Message:
    """A card held more often than the decks hold it (two decks hold two 7♥)."""
    return nmsg(
        "Only %(count)s copy of %(card)s is in play.",
        "Only %(count)s copies of %(card)s are in play.",
        decks,
        card=card,
    )


def points_from_counts(counts: Mapping[str, int], rules: RuleSet, decks: int, jokers: int) -> int:
    """Penalty points of cards counted by rank code; at most 4 × decks of a rank, jokers in play."""
    total = 0
    for code, count in counts.items():
        _check_count(code, count, decks, jokers)
        total += rules.scoring.value_of(RANKS_BY_CODE[code]) * count
    return total


def _check_count(code: str, count: int, decks: int, jokers: int) -> None:
    """A count names a rank, is not negative, and fits the cards in play."""
    if code not in RANKS_BY_CODE:
        raise RuleError(msg(N_("Not a rank: %(rank)s"), rank=code), field="cards")
    if count < 0:
        message = msg(N_("The count of %(rank)s cannot be negative."), rank=RANKS_BY_CODE[code])
        raise RuleError(message, field="cards")
    if code == Rank.JOKER.code and count > jokers:
        raise RuleError(_joker_limit(jokers), field="cards")
    if code != Rank.JOKER.code and count > RANKS_PER_DECK * decks:
        message = msg(
            N_("Only %(limit)s cards of rank %(rank)s are in play."),
            limit=RANKS_PER_DECK * decks,
            rank=RANKS_BY_CODE[code],
        )
        raise RuleError(message, field="cards")


def _joker_limit(jokers: int) -> Message:
    """Jokers beyond those in play (none in the no-joker variant) are an input error."""
    if jokers == 0:
        return msg(N_("No jokers are in play."))
    return nmsg("Only %(count)s joker is in play.", "Only %(count)s jokers are in play.", jokers)
