"""Where a run can lie among the ranks under the ace rule (docs/RULES.md sections 3, 7, 8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product

from .messages import N_, Message, msg, nmsg
from .playing_cards import Card, Rank, Suit
from .ruleset import AceRule

MAX_RUN_LENGTH = 13  # every rank once; an ace may not be both low and high in one run
ACE_HIGH = 14  # the position of an ace above the king


@dataclass(frozen=True)
class RunPlacement:
    """One way a run lies on the ranks: suit, lowest position (ace low 1, ace high 14), length."""

    suit: Suit
    start: int
    length: int

    @property
    def end(self) -> int:
        """The position of the top card (past 13 only for a run round the corner or to ace high)."""
        return self.start + self.length - 1


def placements(naturals: Sequence[Card], length: int, aces: AceRule) -> tuple[RunPlacement, ...]:
    """Every stretch of `length` ranks that holds all the natural cards; wilds fill the rest."""
    suit = naturals[0].suit
    assert suit is not None
    return tuple(
        RunPlacement(suit, start, length)
        for start in _starts(aces, length)
        if all(_covers(aces, start, length, card.rank) for card in naturals)
    )


def _starts(aces: AceRule, length: int) -> range:
    """Where a run of `length` may begin: within A..K, A..A-high, or anywhere on the circle."""
    if aces is AceRule.AROUND:
        return range(1, 14)
    top = ACE_HIGH if aces is AceRule.HIGH_OR_LOW else Rank.KING.value
    return range(1, top - length + 2)


def _covers(aces: AceRule, start: int, length: int, rank: Rank) -> bool:
    """Whether a stretch holds this rank; an ace sits at 1 or, when aces may be high, at 14."""
    if aces is AceRule.AROUND:
        return (rank.value - start) % 13 < length
    end = start + length - 1
    # Only a stretch under aces-high reaches position 14.
    return start <= rank.value <= end or (rank is Rank.ACE and end >= ACE_HIGH)


def too_long_refusal(length: int) -> Message | None:
    """A run holds each rank once: 13 cards at most, never with an ace both low and high."""
    if length <= MAX_RUN_LENGTH:
        return None
    return nmsg(
        "A run can have at most %(count)s card.",
        "A run can have at most %(count)s cards.",
        MAX_RUN_LENGTH,
    )


def placement_refusal(naturals: Sequence[Card], wilds: int) -> Message:
    """Say why no stretch fits: the ace rule when a looser one would allow it, else the gaps."""
    # Called only when nothing fits under the table's own ace rule, so whatever a
    # looser rule lets fit is refused because of where the ace stands.
    length = len(naturals) + wilds
    if placements(naturals, length, AceRule.HIGH_OR_LOW):
        return msg(N_("Q-K-A is not allowed: aces are low in this game."))
    if placements(naturals, length, AceRule.AROUND):
        return msg(N_("K-A-2 is not allowed: runs do not go round the corner in this game."))
    if wilds == 0:
        return msg(N_("The cards of a run must follow each other in rank, without a gap."))
    return nmsg(
        "The gaps in this run need more than the %(count)s wild card it holds.",
        "The gaps in this run need more than the %(count)s wild cards it holds.",
        wilds,
    )


def continue_each_other(first: RunPlacement, second: RunPlacement, aces: AceRule) -> bool:
    """Two runs of a suit continue each other when one starts right above the other's top card."""
    if first.suit is not second.suit:
        return False
    if aces is AceRule.AROUND:
        if first.length + second.length > MAX_RUN_LENGTH:
            return False  # on the circle they share a rank, so they overlap
        return first.end % 13 + 1 == second.start or second.end % 13 + 1 == first.start
    return first.end + 1 == second.start or second.end + 1 == first.start


def continuing_suit(runs: Sequence[Sequence[RunPlacement]], aces: AceRule) -> Suit | None:
    """The suit of two runs that continue each other however their wilds are placed, else None."""
    clash: Suit | None = None
    for chosen in product(*runs):
        pair = next(
            ((a, b) for a, b in combinations(chosen, 2) if continue_each_other(a, b, aces)), None
        )
        if pair is None:
            return None  # the player can place the wilds so that no two runs continue
        clash = clash or pair[0].suit
    return clash
