"""Names people type (players, tables): one clean form to show, one key to tell two apart."""

from __future__ import annotations

import unicodedata

from .errors import RuleError
from .messages import N_, msg

NAME_LENGTH = 40  # the player name column
KEY_LENGTH = 160  # case folding may lengthen a name ("ß" → "ss"), never past four times
# Control, format (zero-width, direction marks, BOM), private-use, surrogate and unassigned
# characters: invisible or unprintable, they would make "Bob" and "\u200bBob" two players.
INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
# Separators other than the plain space: line breaks and the like inside a name.
BREAKS = frozenset({"Zl", "Zp"})


def visible(text: str) -> bool:
    """Whether every character of a text shows: none invisible, none a line break."""
    return not any(unicodedata.category(char) in INVISIBLE | BREAKS for char in text)


def clean_name(raw: str, length: int = NAME_LENGTH) -> str:
    """A typed name as shown: composed (NFC), spaces trimmed and single; or a RuleError."""
    composed = unicodedata.normalize("NFC", raw)
    if not visible(composed):
        raise RuleError(msg(N_("Use only visible letters, digits and marks in a name.")))
    name = " ".join(composed.split())
    if not name:
        raise RuleError(msg(N_("Enter a name.")))
    if len(name) > length:
        raise RuleError(msg(N_("A name has at most %(length)s characters."), length=length))
    return name


def name_key(name: str) -> str:
    """What makes two names one player: compatibility forms and case folded (Ömer = ÖMER)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
