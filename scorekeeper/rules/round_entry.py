"""A round's end as entered, one value whichever door it came by: the end-of-round form, a
seat's pad, the hands pending from the phones, the one-line reading, the API, the history and
a restore. Who went out, each hand as points or as cards, the exact cut, and the seats whose
own phones entered their hands. The rules check it (rules/round_end.py); the history and a
table's backup keep it in the shape they always had, cards counted per rank (`from_stored`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RuleError
from .game_facts import EnteredHand
from .messages import N_, msg
from .playing_cards import RANKS_BY_CODE, Card, by_rank, parse_card
from .quick_entry import SaidHand


@dataclass(frozen=True)
class Hand:
    """One player's hand: went out, typed points, or the cards left, each with its copies (a
    card tapped by its rank alone has no suit)."""

    went_out: bool = False
    points: int | None = None
    cards: Mapping[Card, int] | None = None

    def counts(self) -> dict[str, int] | None:
        """Its cards counted per rank code, as the sheet stores them; None when none were
        tapped."""
        return by_rank(self.cards) if self.cards else None

    def said(self) -> tuple[bool, int | None, dict[str, int] | None]:
        """What the hand says, as two entries of it compare: out, its cards per rank, or its
        typed points."""
        if self.went_out:
            return True, None, None
        return (False, None, self.counts()) if self.cards else (False, self.points, None)


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended, as entered: each hand by seat, whether the stock ended it, who made
    the exact cut, and the seats whose hands came from their own phones."""

    hands: Mapping[int, Hand]
    ended_by_stock: bool = False
    cut_bonus_seat: int | None = None
    phones: tuple[int, ...] = ()

    @property
    def went_out(self) -> int | None:
        """The seat that went out, or None."""
        return next((seat for seat, hand in self.hands.items() if hand.went_out), None)


def cards_of(given: Sequence[Card] | Mapping[str, int]) -> dict[Card, int]:
    """Cards as a door gives them, each with its copies: a list of cards, or counts per rank
    code (cards of that rank without a suit; a code that names no rank is refused)."""
    if not isinstance(given, Mapping):
        return dict(Counter(given))
    cards: dict[Card, int] = {}
    for code, copies in given.items():
        if code not in RANKS_BY_CODE:
            raise RuleError(msg(N_("Not a rank: %(rank)s"), rank=code), field="cards")
        cards[Card(RANKS_BY_CODE[code])] = copies
    return cards


def card_of(token: str) -> Card:
    """One card as a hand's field writes it: its rank alone ("K", "JK") or a card ("KH", "7♥")."""
    rank = RANKS_BY_CODE.get(token)
    return parse_card(token) if rank is None else Card(rank)


def from_reading(said: Iterable[SaidHand], seats: Sequence[int]) -> RoundEnd:
    """The hands a round said in one line names (rules/quick_entry.py), by seat."""
    return RoundEnd({seats[hand.seat]: Hand(hand.went_out, hand.points) for hand in said})


def from_stored(end: Mapping[str, Any]) -> RoundEnd:
    """A round's end as the history and a backup store it (history.snapshot's shape)."""
    hands = {
        result["seat"]: Hand(
            result["went_out"], result["points"], cards_of(result["cards"] or {}) or None
        )
        for result in end["results"]
    }
    phones = tuple(end.get("from_phones", ()))
    return RoundEnd(hands, end["ended_by_stock"], end["cut_bonus_seat"], phones)


def entered_hand(entry: EnteredHand) -> Hand:
    """A hand entered on a seat's own phone."""
    return Hand(entry.went_out, entry.points, cards_of(entry.cards or {}) or None)


def from_phones(entries: Mapping[int, EnteredHand]) -> RoundEnd:
    """The hands waiting from the phones, as much of the round's end as they say."""
    waiting = {seat: entry for seat, entry in entries.items() if entry.waiting}
    cut = next((seat for seat, entry in waiting.items() if entry.cut_bonus), None)
    hands = {seat: entered_hand(entry) for seat, entry in waiting.items()}
    return RoundEnd(hands, cut_bonus_seat=cut, phones=tuple(waiting))


def unchanged_from_phones(end: RoundEnd, entries: Mapping[int, EnteredHand]) -> tuple[int, ...]:
    """The seats whose saved hand is exactly what their phone sent, waiting: went out, the
    same cards, or the same typed points, and the exact cut claimed or not as the end has it."""
    sent = from_phones(entries)
    return tuple(
        seat
        for seat, hand in sent.hands.items()
        if seat in end.hands
        and (sent.cut_bonus_seat == seat) == (end.cut_bonus_seat == seat)
        and hand.said() == end.hands[seat].said()
    )
