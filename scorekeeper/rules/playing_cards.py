"""Cards, ranks and suits, and the text notation used by the API and tests."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import CardParseError


class Suit(enum.Enum):
    """The four suits; the value is the notation letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit symbol (♣ ♦ ♥ ♠)."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """Ranks low to high in runs (Ace low); JOKER sits outside the order."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        """The rank's key in rule-set value tables and counts: A, 2..10, J, Q, K, JK."""
        return RANK_CODES[self]

    def label(self, locale: str = "en") -> str:
        """The rank as the table's language writes it (German B D K, Dutch B V H)."""
        return rank_letter(self, locale)


RANK_CODES: dict[Rank, str] = {
    Rank.JOKER: "JK",
    Rank.ACE: "A",
    **{Rank(n): str(n) for n in range(2, 11)},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
RANKS_BY_CODE: dict[str, Rank] = {code: rank for rank, code in RANK_CODES.items()}
NATURAL_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)

# Face-card letters as the rule documents print them (docs/RULES.md section 1).
LOCAL_FACE_LETTERS: dict[str, dict[Rank, str]] = {
    "en": {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"},
    "es": {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"},
    "de": {Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K"},
    "nl": {Rank.JACK: "B", Rank.QUEEN: "V", Rank.KING: "H"},
    "fr": {Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"},  # valet, dame, roi (as: A)
}


def rank_letter(rank: Rank, locale: str = "en") -> str:
    """Name a rank with the letter the table's language uses (German B D K, French V D R)."""
    faces = LOCAL_FACE_LETTERS.get(locale.split("_")[0].split("-")[0], LOCAL_FACE_LETTERS["en"])
    return faces.get(rank, RANK_CODES[rank])


@dataclass(frozen=True, order=True)
class Card:
    """One card; a joker has no suit, nor has a card tapped by its rank alone ("K")."""

    rank: Rank
    suit: Suit | None = None

    @property
    def is_joker(self) -> bool:
        """Jokers are wild."""
        return self.rank is Rank.JOKER

    def __str__(self) -> str:
        return self.rank.code if self.suit is None else f"{self.rank.code}{self.suit.value}"

    def label(self, locale: str = "en") -> str:
        """The card as the table reads it, with the local rank letter and suit symbol.

        A joker reads as its letters, as on the card buttons: the 🃏 glyph looked like the
        sheet's ★ "went out" mark.
        """
        letter = rank_letter(self.rank, locale)
        return letter if self.suit is None else f"{letter}{self.suit.symbol}"


JOKER = Card(Rank.JOKER)


def by_rank(cards: Mapping[Card, int]) -> dict[str, int]:
    """Cards with their copies, counted per rank code as the score sheet stores them."""
    counts: dict[str, int] = {}
    for card, copies in cards.items():
        counts[card.rank.code] = counts.get(card.rank.code, 0) + copies
    return counts


_SYMBOL_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
_TOKEN = re.compile(r"^(10|[2-9TJQKA])([CDHS])$")


def parse_card(token: str) -> Card:
    """Read one card: 7H, 10S, TS, QD, AC, JK, 7♥; case-insensitive."""
    text = token.strip().upper().replace("\ufe0f", "")
    for symbol, letter in _SYMBOL_SUITS.items():
        text = text.replace(symbol, letter)
    if text in ("JK", "JOKER", "🃏"):
        return JOKER
    match = _TOKEN.match(text)
    if not match:
        raise CardParseError(token)
    rank_text, suit_text = match.groups()
    rank = Rank.TEN if rank_text in ("10", "T") else RANKS_BY_CODE[rank_text]
    return Card(rank, Suit(suit_text))


def parse_cards(text: str | list[str]) -> list[Card]:
    """Read a list of cards from space- or comma-separated tokens, naming the first bad one."""
    tokens = text if isinstance(text, list) else re.split(r"[\s,]+", text.strip())
    return [parse_card(token) for token in tokens if token.strip()]
