"""Books and runs: which cards make a legal meld (docs/RULES.md sections 3, 7, 8 and 9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .messages import N_, NN_, Message, msg, nmsg
from .playing_cards import Card, Rank
from .ruleset import RuleSet
from .run_placement import RunPlacement, placement_refusal, placements, too_long_refusal

BOOK = "book"
RUN = "run"

RunVerdict = tuple[Message | None, tuple[RunPlacement, ...]]

_LENGTH_TEMPLATES: dict[tuple[str, bool], tuple[str, str]] = {
    (BOOK, False): NN_(
        "A book needs at least %(count)s card.",
        "A book needs at least %(count)s cards.",
    ),
    (BOOK, True): NN_(
        "A book must have exactly %(count)s card.",
        "A book must have exactly %(count)s cards.",
    ),
    (RUN, False): NN_(
        "A run needs at least %(count)s card.",
        "A run needs at least %(count)s cards.",
    ),
    (RUN, True): NN_(
        "A run must have exactly %(count)s card.",
        "A run must have exactly %(count)s cards.",
    ),
}


@dataclass(frozen=True)
class MeldCheck:
    """A verdict on a meld or a laydown: ok, or refused with a reason for the table."""

    ok: bool
    reason: Message | None = None
    kind: str | None = None  # BOOK or RUN: what the cards make, or were checked as when refused
    meld: int | None = None  # in a laydown, which meld (0-based) the reason is about


def is_wild(card: Card, rules: RuleSet) -> bool:
    """Jokers are wild unless the table plays without them; all 2s too when twos are wild."""
    if card.is_joker:
        return rules.melds.jokers_wild
    return rules.melds.wild_twos and card.rank is Rank.TWO


def check_book(
    cards: Sequence[Card], rules: RuleSet, min_length: int = 3, exact: bool = False
) -> MeldCheck:
    """A book is min_length or more cards of one rank, any suits, wilds standing in."""
    refusal = _book_refusal(_in_order(cards), rules, min_length, exact)
    return MeldCheck(refusal is None, refusal, BOOK)


def _book_refusal(
    cards: Sequence[Card], rules: RuleSet, min_length: int, exact: bool
) -> Message | None:
    """Why these cards are no book: jokers banned, too few, no natural card, mixed ranks, wilds."""
    refusal = _joker_refusal(cards, rules) or _length_refusal(BOOK, len(cards), min_length, exact)
    if refusal is not None:
        return refusal
    # With wild 2s, a book made only of 2s (and jokers) is a book of 2s.
    naturals = [card for card in cards if not is_wild(card, rules)] or [
        card for card in cards if not card.is_joker
    ]
    if not naturals:
        return msg(N_("A book needs at least one card that is not wild."))
    odd = next((card for card in naturals if card.rank is not naturals[0].rank), None)
    if odd is not None:
        reason = N_("%(card)s and %(other)s are not of the same rank, so they cannot make a book.")
        return msg(reason, card=naturals[0], other=odd)
    return _wild_refusal(len(naturals), len(cards) - len(naturals), rules)


def check_run(
    cards: Sequence[Card], rules: RuleSet, min_length: int = 4, exact: bool = False
) -> MeldCheck:
    """A run is min_length+ cards of one suit in sequence; wilds fill gaps; aces per the rules."""
    refusal, _ = run_verdict(cards, rules, min_length, exact)
    return MeldCheck(refusal is None, refusal, RUN)


def run_verdict(
    cards: Sequence[Card], rules: RuleSet, min_length: int = 4, exact: bool = False
) -> RunVerdict:
    """Check a run and list every way its wilds can be placed (needed for abutting runs)."""
    cards = _in_order(cards)
    refusal = (
        _joker_refusal(cards, rules)
        or _length_refusal(RUN, len(cards), min_length, exact)
        or too_long_refusal(len(cards))
    )
    if refusal is not None:
        return refusal, ()
    verdicts = [
        _read_run(naturals, wilds, rules) for naturals, wilds in _run_readings(cards, rules)
    ]
    spots = tuple(dict.fromkeys(spot for _, found in verdicts for spot in found))
    return (None, spots) if spots else (verdicts[0][0], ())


def _run_readings(cards: Sequence[Card], rules: RuleSet) -> list[tuple[list[Card], int]]:
    """Ways to read a run: every wild as wild, and with wild 2s, one 2 of the run's suit as a 2."""
    naturals = [card for card in cards if not is_wild(card, rules)]
    everything_wild = (naturals, len(cards) - len(naturals))
    suit = naturals[0].suit if naturals else None
    two = next(
        (c for c in cards if is_wild(c, rules) and not c.is_joker and suit in (None, c.suit)),
        None,
    )
    if two is None:
        return [everything_wild]
    return [(_in_order([*naturals, two]), everything_wild[1] - 1), everything_wild]


def _read_run(naturals: list[Card], wilds: int, rules: RuleSet) -> RunVerdict:
    """One reading of a run: one suit, no rank twice, wilds within limits, a stretch that fits."""
    if not naturals:
        return msg(N_("A run needs at least one card that is not wild.")), ()
    first = naturals[0]
    odd = next((card for card in naturals if card.suit is not first.suit), None)
    if odd is not None:
        reason = N_("%(card)s and %(other)s are not of the same suit, so they cannot share a run.")
        return msg(reason, card=first, other=odd), ()
    twice = next((a for a, b in pairwise(naturals) if a == b), None)
    if twice is not None:
        return msg(N_("%(card)s is in this run twice."), card=twice), ()
    refusal = _wild_refusal(len(naturals), wilds, rules)
    if refusal is not None:
        return refusal, ()
    spots = placements(naturals, len(naturals) + wilds, rules.melds.aces)
    if not spots:
        return placement_refusal(naturals, wilds), ()
    return None, spots


def _in_order(cards: Sequence[Card]) -> list[Card]:
    """Sort by rank, then suit, so no verdict or reason depends on the order cards were given."""
    return sorted(cards, key=lambda card: (card.rank, card.suit.value if card.suit else ""))


def _joker_refusal(cards: Sequence[Card], rules: RuleSet) -> Message | None:
    """Without jokers in the game (the no-jokers variant), any joker spoils a meld."""
    if rules.melds.jokers_wild or not any(card.is_joker for card in cards):
        return None
    return msg(N_("This game is played without jokers, so a meld cannot hold one."))


def _length_refusal(kind: str, size: int, min_length: int, exact: bool) -> Message | None:
    """Books and runs need min_length or more cards; exactly min_length when `exact`."""
    wrong = size != min_length if exact else size < min_length
    return nmsg(*_LENGTH_TEMPLATES[kind, exact], min_length) if wrong else None


def _wild_refusal(naturals: int, wilds: int, rules: RuleSet) -> Message | None:
    """House rules: at most so many wilds per meld, and never more wilds than natural cards."""
    most = rules.melds.max_wilds_per_meld
    if most is not None and wilds > most:
        return nmsg(
            "A meld may hold at most %(count)s wild card.",
            "A meld may hold at most %(count)s wild cards.",
            most,
        )
    if rules.melds.wilds_never_outnumber_naturals and wilds > naturals:
        return msg(N_("A meld may not hold more wild cards than natural cards."))
    return None
