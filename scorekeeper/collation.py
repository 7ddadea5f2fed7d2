"""Lists of people in the order of the table's language: "Ébo" before "Fritz", "Ömer" among O.

The Unicode Collation Algorithm with its default table (pyuca, pure Python: no system locale),
which is already German's (DIN 5007: "Ö" sorts as "O", "ß" as "ss"), Dutch's and English's.
Spanish tailors it in CLDR (`&N<ñ<<<Ñ`): "ñ" is a letter of its own after "n", so "Ñoño"
comes after "Nzinga". The key spells "ñ" as "n" followed by a private-use character, whose
implicit weight is above every letter's: after all of n, before "o".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TypeVar

from flask import has_request_context
from pyuca import Collator

from .i18n import current_locale

Item = TypeVar("Item")
AFTER_EVERY_LETTER = "\U000f0000"
TAILORINGS = {"es": str.maketrans({"ñ": "n" + AFTER_EVERY_LETTER, "Ñ": "N" + AFTER_EVERY_LETTER})}


# Not game data: the one collation table of the process.
@lru_cache(maxsize=1)
def _collator() -> Collator:
    """The default collation table, read once per process (about 0.2 s)."""
    return Collator()


def collation_key(name: str) -> tuple[int, ...]:
    """A name's sort key in this request's language (English outside a request): the one
    place the order of people is decided."""
    return _key(name, current_locale() if has_request_context() else "en")


# Not game data: a name's sort key per language, whoever's name it is; a few hundred KB.
@lru_cache(maxsize=4096)
def _key(name: str, locale: str) -> tuple[int, ...]:
    tailoring = TAILORINGS.get(locale.split("_")[0])
    return tuple(_collator().sort_key(name.translate(tailoring) if tailoring else name))


def by_name(items: Iterable[Item], name: Callable[[Item], str] = str) -> list[Item]:
    """Items (people, names) sorted by name in this request's language."""
    return sorted(items, key=lambda item: collation_key(name(item)))
