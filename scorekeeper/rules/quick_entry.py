"""A round in one line: read what the table says ("Anna out, Bob 35, Carl twelve") into hands.

The reading only fills the end-of-round form for the scorekeeper to check; it never saves,
and every check of a hand stays with the form. It fills a hand only when it is sure whose it
is and what it holds, and names everything else (docs/GUIDE.md, "The round in one line"):
a word it cannot read, a name that fits two players, two players said out, a player said
twice, a player it heard nothing for. Names match whole or by their first letters
(quick_entry_parts.py); numbers are digits or words (text2num, in English, German, Dutch,
Spanish and French); the sources' words for going out mark who went out (spoken_words.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .messages import N_, Message
from .quick_entry_names import Word
from .quick_entry_parts import NumberWords, Part, split_parts
from .spoken_words import language_of

__all__ = ["MAX_TEXT", "NumberWords", "Reading", "SaidHand", "read_round"]

MAX_TEXT = 500  # a round of eight players said aloud fits in far less
MAX_DIGITS = 6  # more than any hand is worth; longer digit strings are not points


@dataclass(frozen=True)
class SaidHand:
    """What the table said of one player: out, or a number of points, and the words it was."""

    seat: int
    went_out: bool
    points: int | None
    words: str = ""  # as said ("O 35"): shown at the hand, so the keeper sees what was read


@dataclass(frozen=True)
class Reading:
    """The hands the line names, and what could not be read (each said to the scorekeeper)."""

    hands: tuple[SaidHand, ...]
    problems: tuple[Message, ...]


def read_round(
    text: str, names: Sequence[str], language: str, number_words: NumberWords
) -> Reading:
    """Read one line about a round's hands; names[seat] is the player in that seat."""
    if len(text) > MAX_TEXT:
        return Reading(
            (),
            (Message(N_("Say the round in at most %(count)d characters."), {"count": MAX_TEXT}),),
        )
    language = language_of(language)
    parts = split_parts(text, names, language, number_words)
    return _Hands(text, names, language, number_words).read(parts)


class _Hands:
    """Each part's hand, kept only where nothing else said of that player disagrees."""

    def __init__(
        self, text: str, names: Sequence[str], language: str, number_words: NumberWords
    ) -> None:
        self.text, self.names, self.language = text, names, language
        self.number_words = number_words
        self.problems: list[Message] = []
        self.told: set[int] = set()  # seats a problem already names

    def read(self, parts: list[Part]) -> Reading:
        """The hands in the order said, then who the line said nothing for."""
        said: dict[int, list[SaidHand]] = {}
        for part in parts:
            hand = self._hand(part)
            if hand is not None:
                said.setdefault(hand.seat, []).append(hand)
        hands = [hand for seat, found in said.items() if (hand := self._once(seat, found))]
        out = [hand for hand in hands if hand.went_out]
        if len(out) > 1:
            self._say(
                N_("Only one player goes out, but %(names)s were said out."),
                [hand.seat for hand in out],
                names=self._names([hand.seat for hand in out]),
            )
            hands = [hand for hand in hands if not hand.went_out]
        filled = {hand.seat for hand in hands}
        nothing = [seat for seat in range(len(self.names)) if seat not in filled | self.told]
        if nothing:
            self._say(N_("Nothing for %(names)s."), (), names=self._names(nothing))
        return Reading(tuple(hands), tuple(self.problems))

    def _hand(self, part: Part) -> SaidHand | None:
        """One part's hand, or None (and why, unless it is only a name without a value)."""
        if part.problem is not None:
            self.problems.append(part.problem)
            self.told.update(part.seats)
            return None
        said = [word for word in part.value if word.kind != "filler"]
        if not part.name:
            self._say(
                N_("“%(words)s” does not follow a player's name."), (), words=self._span(said)
            )
            return None
        if part.seat is None:
            self._unread(part, said)
            return None
        if not said:
            return None  # "Nothing for …" names them, unless a later part fills the hand
        words = self.text[part.name[0].start : said[-1].end]
        if all(word.kind == "out" for word in said):
            return SaidHand(part.seat, went_out=True, points=None, words=words)
        points = self._points(part.value, said)
        if points is None:
            self._say(
                N_("“%(words)s” is not a number of points for %(name)s."),
                [part.seat],
                words=self._span(said),
                name=self.names[part.seat],
            )
            return None
        return SaidHand(part.seat, went_out=False, points=points, words=words)

    def _points(self, value: list[Word], said: list[Word]) -> int | None:
        """Digits alone, or number words ("treinta y cinco" with the "y" inside it)."""
        if len(said) == 1 and said[0].kind == "digits":
            return int(said[0].text) if len(said[0].text) <= MAX_DIGITS else None
        if any(word.kind != "number" for word in said):
            return None
        inside = value[value.index(said[0]) : value.index(said[-1]) + 1]
        for words in (inside, said):
            points = self.number_words(" ".join(word.text for word in words), self.language)
            if points is not None and 0 <= points < 10**MAX_DIGITS:
                return points
        return None

    def _once(self, seat: int, found: list[SaidHand]) -> SaidHand | None:
        """A player said twice alike counts once; said two ways, neither is sure."""
        first = (found[0].went_out, found[0].points)
        differing = [hand for hand in found if (hand.went_out, hand.points) != first]
        if not differing:
            return found[0]
        self._say(
            N_("%(name)s was said twice: “%(first)s” and “%(second)s”."),
            [seat],
            name=self.names[seat],
            first=found[0].words,
            second=differing[0].words,
        )
        return None

    def _unread(self, part: Part, said: list[Word]) -> None:
        """Words that name no player; the points said after them are nobody's."""
        unread = self._span(part.name)
        if said:
            self._say(
                N_("I could not read “%(words)s”, so “%(value)s” is left out."),
                (),
                words=unread,
                value=self._span(said),
            )
        else:
            self._say(N_("I could not read “%(words)s”."), (), words=unread)

    def _names(self, seats: list[int]) -> tuple[str, ...]:
        return tuple(self.names[seat] for seat in seats)

    def _span(self, words: list[Word]) -> str:
        """The words as typed, from the first to the last (with what stood between them)."""
        return self.text[words[0].start : words[-1].end]

    def _say(self, template: str, seats: Sequence[int], **params: object) -> None:
        self.problems.append(Message(template, dict(params)))
        self.told.update(seats)
