"""Each catalog keeps to its language's glossary (docs/GLOSSARY.md): no forbidden variant."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Message

from tests.web.test_translations import catalog
from tools.glossary import Term, applies, glossary
from tools.sheet_context import SHEET, sheet_worded


def breaches(term: Term) -> list[tuple[str, str, str]]:
    """The messages of the term's language and context whose translation uses a forbidden word."""
    return [
        found
        for entry in catalog(term.language)
        if entry.id and applies(term, entry.context)
        for found in term.breaches(entry)
    ]


def test_the_glossary_has_a_table_for_each_language() -> None:
    sections = {(term.language, term.context) for term in glossary()}
    assert sections == {("en", None), ("de", None), ("de", SHEET), ("nl", None), ("es", None)}
    assert all(term.forbidden for term in glossary())


def test_a_forbidden_variant_is_found() -> None:
    term = next(t for t in glossary() if t.language == "es" and t.term == "meld")
    assert term.breaches(Message("A meld", "Una melda de tres cartas"))
    assert not term.breaches(Message("A meld", "Una combinación de tres cartas"))


@pytest.mark.parametrize(
    "term", glossary(), ids=lambda t: f"{t.language}{'-' + t.context if t.context else ''}-{t.term}"
)
def test_no_translation_uses_a_forbidden_variant(term: Term) -> None:
    found = breaches(term)
    assert not found, f"{len(found)} in {term.language}: {found[:8]}"


def test_every_message_the_sheet_words_differently_has_its_sheet_wording() -> None:
    # A German message with "Vertrag", "Talon", "Buch" or "Sequenz" reads in a game of the
    # Contract Rummy sheet with "Vorgabe", "Ziehstapel", "Satz" and "Folge" instead.
    german = catalog("de")
    wanted = sheet_worded(german)
    assert len(wanted) > 50
    missing = [
        key for key in wanted if not (entry := german.get(key, context=SHEET)) or not entry.string
    ]
    assert not missing, f"{len(missing)} without the sheet's words: {missing[:8]}"
