"""A round said in one line split into parts: the words naming a player, then what was said.

A word that is a player's name (quick_entry_names.py) and also points or "out" is the name
where a name is due (at the start, after a value or punctuation), the value right after a
name, and unsure when a value follows it too ("Bob elf 20": Bob's eleven, or Elfriede's
twenty?). A letter alone is a name's first letter only where a name is due ("Bob a hundred").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from .messages import N_, Message
from .quick_entry_names import STOPS, NameFinder, Word, words_of
from .spoken_words import FILLERS, out_phrases

# Number words in a language ("treinta y cinco", "es") → 35, or None: the service passes one
# (games/spoken_numbers.py, text2num), so the engine itself imports nothing but Python's own.
NumberWords = Callable[[str, str], int | None]

APOSTROPHES = "'’"
VALUES = ("out", "digits", "number")
EMPTY, NUMBERS, COMPLETE = "empty", "numbers", "complete"  # a part's value so far


@dataclass
class Part:
    """The words naming one player (none: points said before any name), then their value."""

    name: list[Word]
    seat: int | None  # None: the name is no player's, or no name was said
    seats: tuple[int, ...] = ()  # the players its problem names
    problem: Message | None = None
    value: list[Word] = field(default_factory=list)
    state: str = EMPTY
    closed: bool = False  # punctuation after its value: what follows is another part


def split_parts(
    text: str, names: Sequence[str], language: str, number_words: NumberWords
) -> list[Part]:
    """The line's parts in the order said; names[seat] is the player in that seat."""
    return _Splitter(words_of(text), names, language, number_words).split()


class _Splitter:
    """Walks the words once: a name starts a player's part, the words after it are its value."""

    def __init__(
        self,
        words: list[Word],
        names: Sequence[str],
        language: str,
        number_words: NumberWords,
    ) -> None:
        self.words, self.names, self.language = words, names, language
        self.names_at = NameFinder(words, names, self._filler, self._is_value).at
        self.number_words = number_words
        self.fillers = FILLERS[language]
        self.outs = out_phrases(language)
        self.parts: list[Part] = []

    def split(self) -> list[Part]:
        """Every part, each word in one of them (fillers before any name aside)."""
        index = 0
        while index < len(self.words):
            index = self._step(index)
        return self.parts

    def _step(self, index: int) -> int:
        """Take the word at index (and the words a name or phrase goes on with); the next index."""
        part = self.parts[-1] if self.parts else None
        if self.words[index].text in STOPS:
            if part is not None and part.state != EMPTY:
                part.closed = True
            return index + 1
        seats, length = self.names_at(index)
        if len(self.words[index].key) == 1 and not _name_due(part):
            seats, length = (), 1  # a letter is a first letter only where a name is due
        kind, said = self._value_at(index)
        choice = "name" if kind is None else self._name_or_value(part, index, length, kind)
        if len(seats) == 1 and choice == "name":
            self.parts.append(Part(self.words[index : index + length], seats[0]))
            return index + length
        if len(seats) == 1 and choice == "unsure" and part is not None:
            self._unsure(part, self.words[index], seats[0])
        if kind is None:
            self._unread(index, seats, length)
            return index + length
        self._value(part, self.words[index : index + said], kind)
        return index + said

    def _unsure(self, part: Part, word: Word, seat: int) -> None:
        """The part's value could be another player's name: neither is filled."""
        if part.seat is None:
            return  # no one's anyway
        part.problem = Message(
            N_("After %(name)s, “%(word)s” could be points or %(player)s: say the whole name."),
            {"name": self.names[part.seat], "word": word.text, "player": self.names[seat]},
        )
        part.seats = (part.seat, seat)

    def _value_at(self, index: int) -> tuple[str | None, int]:
        """What the word at index is in a value (and how many words it takes), or None."""
        for phrase in self.outs:
            if tuple(word.key for word in self.words[index : index + len(phrase)]) == phrase:
                return "out", len(phrase)
        word = self.words[index]
        if word.text.isdecimal():
            return "digits", 1
        if self._filler(word):
            return "filler", 1
        if len(word.key) > 1 and self._number(word.text) is not None:  # "O" is Oma, not zero
            return "number", 1
        return None, 1

    def _name_or_value(self, part: Part | None, index: int, length: int, kind: str) -> str:
        """A name where a name is due; after a name, its value, unless a value follows it too."""
        if part is None or _name_due(part):
            return "name"
        if kind == "filler":
            return "value"
        if part.state == NUMBERS and (kind != "number" or not self._joins(part, index)):
            return "name"
        return "unsure" if self._value_follows(index + length) else "value"

    def _value_follows(self, index: int) -> bool:
        """Whether points or "out" come next (before any punctuation or other name)."""
        while index < len(self.words) and self.words[index].text not in STOPS:
            kind, _length = self._value_at(index)
            if kind != "filler":
                return kind in VALUES and len(self.names_at(index)[0]) != 1
            index += 1
        return False

    def _joins(self, part: Part, index: int) -> bool:
        """Whether the word goes on with the number words before it ("treinta y" + "cinco")."""
        said = [word for word in part.value if word.kind == "number"]
        words = [*part.value[part.value.index(said[0]) :], self.words[index]]
        return self._number(_text(words)) is not None

    def _value(self, part: Part | None, words: list[Word], kind: str) -> None:
        """Add said words to the part they belong to: points before any name are a part too."""
        if part is None or part.closed:
            if kind == "filler":
                return  # "and", "so" between parts
            part = Part([], None)
            self.parts.append(part)
        part.value.extend(replace(word, kind=kind) for word in words)
        if kind == "number" and part.state != COMPLETE:
            part.state = NUMBERS
        elif kind != "filler":
            part.state = COMPLETE

    def _unread(self, index: int, seats: tuple[int, ...], length: int) -> None:
        """Words no player's name is sure of: one part, whose value is nobody's."""
        words = self.words[index : index + length]
        if seats:
            names = {"word": _text(words), "names": tuple(self.names[seat] for seat in seats)}
            fits = N_("“%(word)s” fits more than one player (%(names)s): say more of the name.")
            self.parts.append(Part(words, None, seats, Message(fits, names)))
            return
        last = self.parts[-1] if self.parts else None
        if last and last.seat is None and last.name and not last.problem and not last.value:
            last.name.extend(words)  # "Zed Zack 4": one run of words that name no one
            return
        self.parts.append(Part(words, None))

    def _is_value(self, index: int) -> bool:
        return self._value_at(index)[0] in VALUES

    def _filler(self, word: Word) -> bool:
        return word.key in self.fillers or word.key[0] in APOSTROPHES

    def _number(self, text: str) -> int | None:
        """The number these words say in the language (never digits: those are read apart)."""
        if not text or any(char.isdecimal() for char in text):
            return None
        value = self.number_words(text, self.language)
        return value if value is not None and value >= 0 else None


def _name_due(part: Part | None) -> bool:
    """At the start, after punctuation or after a part's value, the next word names a player."""
    return part is None or part.closed or part.state == COMPLETE


def _text(words: list[Word]) -> str:
    return " ".join(word.text for word in words)
