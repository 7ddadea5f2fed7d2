"""A round in one line: read what the table says ("Anna out, Bob 35, Carl twelve") into hands.

The reading only fills the end-of-round form for the scorekeeper to check; it never saves,
and every check of a hand stays with the form. Names match whole, or by their first letters
where only one player's name starts so; numbers are digits or words (text2num reads them in
English, German, Dutch and Spanish); each language's word for "out" marks who went out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .messages import N_, Message

# Number words in a language ("treinta y cinco", "es") → 35, or None: the service passes one
# (games/spoken_numbers.py, text2num), so the engine itself imports nothing but Python's own.
NumberWords = Callable[[str, str], int | None]

MAX_TEXT = 500  # a round of eight players said aloud fits in far less
MAX_DIGITS = 6  # more than any hand is worth; longer digit strings are not points
LANGUAGES = ("en", "de", "nl", "es")

# Folded (lower case, no accents) so a keyboard without "ó" or "ß" reads the same.
OUT_WORDS = {
    "en": {"out"},
    "de": {"raus", "aus", "draussen"},
    "nl": {"uit"},
    "es": {"fuera", "salio"},
}
# Words a sentence carries around the points ("Bob has 35 points"); never taken for a name.
FILLERS = {
    "en": {"and", "has", "had", "is", "went", "with", "points", "point", "pts"},
    "de": {"und", "hat", "ist", "mit", "punkte", "punkt", "pkt"},
    "nl": {"en", "heeft", "is", "met", "punten", "punt"},
    "es": {"y", "tiene", "con", "esta", "puntos", "punto", "pts"},
}

WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class SaidHand:
    """What the table said of one player: out, or a number of points."""

    seat: int
    went_out: bool
    points: int | None


@dataclass(frozen=True)
class Reading:
    """The hands the line names, and what could not be read (each said to the scorekeeper)."""

    hands: tuple[SaidHand, ...]
    problems: tuple[Message, ...]


@dataclass(frozen=True)
class _Word:
    text: str  # as typed, for numbers and for telling the table what was not read
    key: str  # folded, for names and the language's words


def fold(text: str) -> str:
    """Lower case without accents: "Concepción" and "concepcion" are one name."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def read_round(
    text: str, names: Sequence[str], language: str, number_words: NumberWords
) -> Reading:
    """Read one line about a round's hands; names[seat] is the player in that seat."""
    if len(text) > MAX_TEXT:
        return Reading(
            (),
            (Message(N_("Say the round in at most %(count)d characters."), {"count": MAX_TEXT}),),
        )
    language = language.replace("-", "_").split("_")[0]  # "es_ES" reads Spanish
    language = language if language in LANGUAGES else "en"
    words = [_Word(match.group(), fold(match.group())) for match in WORD.finditer(text)]
    keys = [tuple(WORD.findall(fold(name))) for name in names]
    return _Reader(words, keys, names, language, number_words).read()


class _Reader:
    """Walks the words once: a name starts a player's part, the words after it are its value."""

    def __init__(
        self,
        words: list[_Word],
        keys: list[tuple[str, ...]],
        names: Sequence[str],
        language: str,
        number_words: NumberWords,
    ) -> None:
        self.words, self.keys, self.names, self.language = words, keys, names, language
        self.number_words = number_words
        self.out_words = OUT_WORDS[language] | OUT_WORDS["en"]
        self.fillers = FILLERS[language]
        self.problems: list[Message] = []

    def read(self) -> Reading:
        """Every player's part in the order said; a player said twice keeps the first."""
        parts: list[tuple[int | None, list[_Word]]] = [(None, [])]  # words before any name
        index = 0
        while index < len(self.words):
            word = self.words[index]
            seat, length = self._whole_name_at(index)
            if seat is None and not self._is_value(word, parts[-1][1]):
                seat, length = self._first_letters(word), 1
                parts.append((seat, []))  # an unknown name's value is dropped with it
            elif seat is not None:
                parts.append((seat, []))
            else:
                parts[-1][1].append(word)
            index += length
        stray = [word for word in parts[0][1] if word.key not in self.fillers]
        if stray:
            self._say(N_("“%(words)s” does not follow a player's name."), words=_text(stray))
        hands: dict[int, SaidHand] = {}
        for seat, value in parts[1:]:
            if seat is None:
                continue
            if seat in hands:
                self._say(N_("%(name)s was said twice: the first is kept."), name=self.names[seat])
                continue
            hand = self._hand(seat, value)
            if hand is not None:
                hands[seat] = hand
        return Reading(tuple(hands.values()), tuple(self.problems))

    def _whole_name_at(self, index: int) -> tuple[int | None, int]:
        """The seat whose whole name starts at this word, and how many words it takes."""
        found = [
            (len(key), seat)
            for seat, key in enumerate(self.keys)
            if key and tuple(word.key for word in self.words[index : index + len(key)]) == key
        ]
        if not found:
            return None, 1
        length, seat = max(found)  # "Jean Baptiste" before a player called "Jean"
        return seat, length

    def _first_letters(self, word: _Word) -> int | None:
        """The one seat whose name starts with this word; None (and why) otherwise."""
        seats = [seat for seat, key in enumerate(self.keys) if key and key[0].startswith(word.key)]
        if len(seats) == 1:
            return seats[0]
        if seats:
            names = tuple(self.names[seat] for seat in seats)
            self._say(
                N_("“%(word)s” fits more than one player (%(names)s): say more of the name."),
                word=word.text,
                names=names,
            )
        else:
            self._say(N_("“%(word)s” is not a player's name."), word=word.text)
        return None

    def _is_value(self, word: _Word, before: list[_Word]) -> bool:
        """A word that belongs to a player's value (alone or after the words before it)."""
        return (
            word.text.isdecimal()
            or word.key in self.out_words
            or word.key in self.fillers
            or self._number(word.text) is not None
            or (bool(before) and self._number(_text([*before, word])) is not None)
        )

    def _hand(self, seat: int, value: list[_Word]) -> SaidHand | None:
        """One player's part: out, digits, or number words."""
        name = self.names[seat]
        if any(word.key in self.out_words for word in value):
            return SaidHand(seat, went_out=True, points=None)
        said = [word for word in value if word.key not in self.fillers]
        if not said:
            self._say(N_("No points were said for %(name)s."), name=name)
            return None
        if len(said) == 1 and said[0].text.isdecimal() and len(said[0].text) <= MAX_DIGITS:
            return SaidHand(seat, went_out=False, points=int(said[0].text))
        # "treinta y cinco", "fünf und dreißig": a connecting word inside belongs to the number.
        start = next(index for index, word in enumerate(value) if word in said)
        end = max(index for index, word in enumerate(value) if word in said) + 1
        points = self._number(_text(value[start:end]))
        if points is None:
            points = self._number(_text(said))
        if points is None or points >= 10**MAX_DIGITS:
            self._say(
                N_("“%(words)s” is not a number of points for %(name)s."),
                words=_text(value),
                name=name,
            )
            return None
        return SaidHand(seat, went_out=False, points=points)

    def _number(self, text: str) -> int | None:
        """The number these words say in the language (never digits: those are read apart)."""
        if not text or any(char.isdecimal() for char in text):
            return None
        value = self.number_words(text, self.language)
        return value if value is not None and value >= 0 else None

    def _say(self, template: str, **params: object) -> None:
        self.problems.append(Message(template, dict(params)))


def _text(words: list[_Word]) -> str:
    return " ".join(word.text for word in words)
