"""Player names: one clean form to show, one key to tell two names apart in any script."""

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


def clean_name(raw: str) -> str:
    """A typed name as shown: composed (NFC), spaces trimmed and single; or a RuleError."""
    composed = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(char) in INVISIBLE | BREAKS for char in composed):
        raise RuleError(msg(N_("Use only visible letters, digits and marks in a name.")))
    name = " ".join(composed.split())
    if not name:
        raise RuleError(msg(N_("Enter a name.")))
    if len(name) > NAME_LENGTH:
        raise RuleError(msg(N_("A name has at most %(length)s characters."), length=NAME_LENGTH))
    return name


def name_key(name: str) -> str:
    """What makes two names one player: compatibility forms and case folded (Ömer = ÖMER)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
