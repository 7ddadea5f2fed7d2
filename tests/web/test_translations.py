"""Every message in the app has a translation in each of the app's languages."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from scorekeeper.config import LANGUAGES

ROOT = Path(__file__).parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
# Keep in step with babel.cfg and the Makefile's KEYWORDS.
METHODS = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "N_": None,
    "_l": None,
    "lazy_gettext": None,
    "nmsg": (1, 2),
    "NN_": (1, 2),
    "C_": ((1, "c"), 2),
    "NC_": ((1, "c"), 2, 3),
}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


@cache
def source_messages() -> dict[tuple[str, str | None], str | None]:
    """Every translatable message in the code and templates: (id, context) → plural id."""
    found: dict[tuple[str, str | None], str | None] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), METHODS, keywords=KEYWORDS
    ):
        if isinstance(message, tuple):
            found[message[0], context] = message[1]
        else:
            found.setdefault((message, context), None)
    return found


@cache
def catalog(language: str) -> Catalog:
    """A language's catalog as committed."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=language)


def translations(entry: Message) -> list[str]:
    """The translated strings of an entry (one, or one per plural form)."""
    return list(entry.string) if isinstance(entry.string, tuple | list) else [entry.string]


def test_the_extraction_finds_the_apps_messages() -> None:
    messages = source_messages()
    assert ("Start a game", None) in messages
    assert messages["%(count)s book", None] == "%(count)s books"
    assert len(messages) > 300


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    entries = catalog(language)
    missing = [
        (text, context)
        for text, context in source_messages()
        if (entry := entries.get(text, context=context)) is None
        or "fuzzy" in entry.flags
        or not all(translations(entry))
    ]
    assert not missing, f"{len(missing)} untranslated in {language}: {missing[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_every_placeholder(language: str) -> None:
    broken = []
    for entry in catalog(language):
        if not entry.id or not entry.string:
            continue
        ids = entry.id if isinstance(entry.id, tuple | list) else (entry.id,)
        wanted = {name for text in ids for name in PLACEHOLDER.findall(text)} - {"num", "count"}
        for text in filter(None, translations(entry)):
            if set(PLACEHOLDER.findall(text)) - {"num", "count"} != wanted:
                broken.append((entry.id, text))
    assert not broken, broken[:5]


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_are_complete(language: str) -> None:
    entries = catalog(language)
    for entry in entries:
        if entry.pluralizable and entry.string:
            assert len(translations(entry)) == entries.num_plurals, entry.id
