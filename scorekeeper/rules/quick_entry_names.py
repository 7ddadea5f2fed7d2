"""The words of a round said in one line, and which player's name starts at a word.

A name matches whole or by its first letters where only one player's name starts so (accents
and case aside; "Ana M" for Ana María); a function word or filler is never a name's first
letters, and a name's second word is never points or "out" (unless it is that word whole).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Letters or digits ("35pts" is two words); "’s" a word of its own; punctuation ends a part
# that has its value ("Bob 30, 5": the 5 is nobody's), but not a name ("Bob, 35").
TOKEN = re.compile(r"\d+|[^\W\d_]+|['’][^\W\d_]+|[,;.!?\n]")
STOPS = frozenset(",;.!?\n")


@dataclass(frozen=True)
class Word:
    """A word as typed, where it stands in the line, and what it is in a value."""

    text: str
    key: str  # folded, for names and the language's words
    start: int
    end: int
    kind: str = ""  # in a value: "out", "digits", "number" or "filler"


def fold(text: str) -> str:
    """Lower case without accents: "Concepción" and "concepcion" are one name."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words_of(text: str) -> list[Word]:
    """The line's words and punctuation, each with its place in the line."""
    return [
        Word(match.group(), fold(match.group()), match.start(), match.end())
        for match in TOKEN.finditer(text)
    ]


class NameFinder:
    """The players whose names start at a word of the line."""

    def __init__(
        self,
        words: list[Word],
        names: Sequence[str],
        filler: Callable[[Word], bool],
        value: Callable[[int], bool],
    ) -> None:
        self.words, self.filler, self.value = words, filler, value
        self.keys = [tuple(word.key for word in words_of(name)) for name in names]

    def at(self, index: int) -> tuple[tuple[int, ...], int]:
        """The seats whose names start at this word (most words matched), and how many words."""
        found = [(*self._matched(index, key), seat) for seat, key in enumerate(self.keys)]
        longest = max((length for length, _whole, _seat in found), default=0)
        if not longest:
            return (), 1
        seats = [(whole, seat) for length, whole, seat in found if length == longest]
        whole = [seat for is_whole, seat in seats if is_whole]
        if len(whole) == 1:  # "Jean" is Jean, not Jean Baptiste
            return (whole[0],), longest
        return tuple(seat for _whole, seat in seats), longest

    def _matched(self, index: int, key: tuple[str, ...]) -> tuple[int, bool]:
        """How many words from index start the name's words, and whether they are it whole."""
        count = 0
        for name_word, word in zip(key, self.words[index:], strict=False):
            if word.text in STOPS or not name_word.startswith(word.key):
                break
            # First letters are never a function word; a second word, never points either.
            if word.key != name_word and (
                self.filler(word) or (count and self.value(index + count))
            ):
                break
            count += 1
        whole = count == len(key) and all(
            word.key == name_word for name_word, word in zip(key, self.words[index:], strict=False)
        )
        return count, whole
