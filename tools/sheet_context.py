"""Give each message the German Contract Rummy sheet words differently its sheet version.

`make extract` runs it twice. `template`, between `pybabel extract` and `update`: every message
whose German translation uses a word that the glossary's "de, contract-rummy" section forbids
("Vertrag", "Talon", "Buch", "Sequenz", the call "May I?") gets an entry in the context
`contract-rummy` in messages.pot, so `pybabel update` keeps (or asks for) its sheet wording.
`copy`, after `update`: in every other language (Dutch, Spanish, French), which words the
sheet's games no differently, that entry reads as the plain one. A new German message gets its
entry on the next `make extract`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).parents[1]))
from scorekeeper.config import LANGUAGES
from tools.glossary import section

SHEET = "contract-rummy"
CALL = "May I?"
TRANSLATIONS = Path("scorekeeper/translations")
TEMPLATE = TRANSLATIONS / "messages.pot"
# English is its own ids (tools/english_catalog.py); German alone has the sheet's words.
PLAIN_LANGUAGES = tuple(language for language in LANGUAGES if language not in ("en", "de"))


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def _catalog_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


def sheet_worded(german: Catalog) -> list[str]:
    """The messages (their English) whose German uses a word the sheet says differently."""
    terms = section("de", SHEET)
    return [
        english
        for entry in german
        if entry.id
        and entry.context is None
        and any(term.breaches(entry) for term in terms)
        # a message naming May I? is about May I? (a preset, the app), never in the sheet's words
        and (
            (english := entry.id if isinstance(entry.id, str) else entry.id[0]) == CALL
            or CALL not in english
        )
    ]


def add_to_template() -> None:
    """Add the sheet's version of each such message to messages.pot."""
    template, german = _read(TEMPLATE), _read(_catalog_path("de"), "de")
    for key in sheet_worded(german):
        plain = template.get(key)
        if plain is not None and template.get(key, context=SHEET) is None:
            template.add(plain.id, context=SHEET, flags=plain.flags)
    with TEMPLATE.open("wb") as target:
        write_po(target, template, width=100, sort_output=True, no_location=True)


def copy_plain_words() -> None:
    """In the languages without sheet words, the sheet's entry says what the plain one does."""
    for language in PLAIN_LANGUAGES:
        catalog = _read(_catalog_path(language), language)
        for entry in catalog:
            key = entry.id if isinstance(entry.id, str) else entry.id[0]
            if entry.context != SHEET or (plain := catalog.get(key)) is None:
                continue
            # The call alone may be the language's own in the sheet's games (French « Puis-je ? »
            # where German says "Darf ich?"): once translated, it is kept.
            if key != CALL or not entry.string:
                entry.string = plain.string
        with _catalog_path(language).open("wb") as target:
            write_po(target, catalog, width=100, sort_output=True)


if __name__ == "__main__":
    {"template": add_to_template, "copy": copy_plain_words}[sys.argv[1]]()
