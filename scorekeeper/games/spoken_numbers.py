"""Numbers said in words, for a round typed in one line (rules/quick_entry.py)."""

from __future__ import annotations

import re

from text_to_num import text2num  # type: ignore[import-untyped]  # ships no type hints

# text2num knows each number word only with its accents; a keyboard (or a dictation) without
# them writes these. Only these are put back: a word it reads already is never touched.
ACCENTS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "de": (
        (re.compile(r"f(?:ue|u)nf"), "fünf"),
        (re.compile(r"zw(?:oe|o)lf"), "zwölf"),
    ),
    "nl": ((re.compile(r"(?<=[ei]e)en(?=[a-z])"), "ën"),),  # twee-ën-twintig
    "es": (
        (re.compile(r"\bveintidos\b"), "veintidós"),
        (re.compile(r"\bveintitres\b"), "veintitrés"),
        (re.compile(r"\bveintiseis\b"), "veintiséis"),
        (re.compile(r"\bdieciseis\b"), "dieciséis"),
    ),
    "fr": ((re.compile(r"\bzero\b"), "zéro"),),  # its only accented number word
}


def number_words(text: str, language: str) -> int | None:
    """What "thirty-five", "fünfunddreißig", "vijfendertig", "treinta y cinco" or "trente-cinq"
    say; else None.

    Also without accents: "veintidos", "funfunddreissig", "tweeentwintig".
    """
    said = _read(text, language)
    if said is not None:
        return said
    accented = text.lower()
    for unaccented, word in ACCENTS.get(language, ()):
        accented = unaccented.sub(word, accented)
    return _read(accented, language) if accented != text.lower() else None


def _read(text: str, language: str) -> int | None:
    try:
        value = text2num(text, language)
    except ValueError:
        return None
    return value if isinstance(value, int) else None
