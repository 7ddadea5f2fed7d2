"""Numbers said in words, for a round typed in one line (rules/quick_entry.py)."""

from __future__ import annotations

from text_to_num import text2num  # type: ignore[import-untyped]  # ships no type hints


def number_words(text: str, language: str) -> int | None:
    """What "thirty-five", "fünfunddreißig", "vijfendertig" or "treinta y cinco" say; else None."""
    try:
        value = text2num(text, language)
    except ValueError:
        return None
    return value if isinstance(value, int) else None
