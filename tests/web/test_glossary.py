"""Each catalog keeps to its language's glossary (docs/GLOSSARY.md): no forbidden variant, the
required word wherever the English names a term, and no quotes in a template outside gettext."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Message

from scorekeeper.config import LANGUAGES
from tests.web.test_translations import catalog
from tools.glossary import Required, Term, applies, glossary, required
from tools.sheet_context import SHEET, sheet_worded


def breaches(term: Term) -> list[tuple[str, str, str]]:
    """The messages of the term's language and context whose translation uses a forbidden word."""
    return [
        found
        for entry in catalog(term.language)
        if entry.id and applies(term, entry.context)
        for found in term.breaches(entry)
    ]


TEMPLATES = Path(__file__).parents[2] / "templates"
# A gettext call's first argument (and ngettext's second): the catalog's, in each language's quotes.
GETTEXT = re.compile(
    r"""\b(?:_|gettext|ngettext|N_)\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
    r"""(?:\s*,\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))?"""
)
COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)
# Quotes, and a colon or ; ! ? right after a value: French spaces it, so it is the message's.
TYPOGRAPHY = re.compile(r"[“”„‘’«»]|(\}\}|</\w+>)\s?[:;!?](?=[\s<\"]|$)")


def omissions(row: Required) -> list[tuple[str, str, str]]:
    """The messages of the row's language naming its term in English without its word."""
    return [
        found
        for entry in catalog(row.language)
        if entry.id and entry.context is None
        for found in row.breaches(entry)
    ]


def hard_coded_quotes(template: str) -> list[str]:
    """The lines of a template with quotes or typography outside a gettext call and a comment."""
    text = GETTEXT.sub("", COMMENT.sub("", template))
    return [line.strip() for line in text.splitlines() if TYPOGRAPHY.search(line)]


def test_the_glossary_has_a_table_for_each_language() -> None:
    sections = {(term.language, term.context) for term in glossary()}
    assert sections == {
        ("en", None),
        ("de", None),
        ("de", SHEET),
        ("nl", None),
        ("es", None),
        ("fr", None),
        ("fr", SHEET),
    }
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


def test_every_language_has_required_words() -> None:
    assert {row.language for row in required()} == set(LANGUAGES) - {"en"}
    assert len(required()) >= 31


@pytest.mark.parametrize(
    ("english", "wrong", "right"),
    [
        ("Buy it?", "L’acheter ?", "L’acheter\u202f?"),
        ("Buy it?", "L’acheter?", "L’acheter\u202f?"),
        ("Play May I?", "Jouer à May I ?", "Jouer à May I?"),
        ("Note: %(note)s", "Note : %(note)s", "Note\u00a0: %(note)s"),
        ("Sent back; check it", "Renvoyée; vérifie-la", "Renvoyée\u202f; vérifie-la"),
        ("“%(word)s”", "« %(word)s »", "«\u202f%(word)s\u202f»"),
        ("“%(word)s”", "“%(word)s”", "«\u202f%(word)s\u202f»"),
        ("The player's hand", "La main d'Anna", "La main d’Anna"),
        ("Check your hand", "Vérifiez votre main", "Vérifie ta main"),
        (
            "Send the token in an Authorization: Bearer header.",
            "Envoie-le:",
            "Authorization: Bearer",
        ),
    ],
)
def test_french_typography_and_register_are_held(english: str, wrong: str, right: str) -> None:
    terms = [term for term in glossary() if term.language == "fr" and term.context is None]
    assert any(term.breaches(Message(english, wrong)) for term in terms), wrong
    assert not any(term.breaches(Message(english, right)) for term in terms), right


def test_a_term_without_its_word_is_found() -> None:
    row = next(r for r in required() if r.language == "es" and r.term == "calling")
    assert row.breaches(Message("%(name)s has not called.", "%(name)s no ha pedido."))
    assert not row.breaches(Message("%(name)s has not called.", "%(name)s no ha llamado."))
    assert not row.breaches(Message("Cancel", "Cancelar"))  # the English names no call
    seat = next(r for r in required() if r.language == "fr" and r.term == "seat")
    assert seat.breaches(Message("Your seat", "Ton siège"))
    assert not seat.breaches(Message("Your seat", "Ta place"))


@pytest.mark.parametrize("row", required(), ids=lambda r: f"{r.language}-{r.term}")
def test_every_translation_naming_a_term_uses_its_word(row: Required) -> None:
    found = omissions(row)
    assert not found, f"{len(found)} in {row.language} without {row.word.pattern}: {found[:8]}"


def test_a_hard_coded_quote_in_a_template_is_found() -> None:
    assert hard_coded_quotes('{{ _("sent back") }}: “{{ note }}”') == ["{{ ) }}: “{{ note }}”"]
    assert not hard_coded_quotes('{{ _("sent back: “%(note)s”", note=note) }}')
    assert not hard_coded_quotes("{# the note in the language's own quotes, “…” #}")
    assert hard_coded_quotes('<p>{{ _("Players") }}: {{ names }}</p>') == [
        "<p>{{ ) }}: {{ names }}</p>"
    ]
    assert hard_coded_quotes("<li>{{ name }}:</li>") == ["<li>{{ name }}:</li>"]
    assert hard_coded_quotes("<span>{{ name }}</span>: {{ points }}") != []
    assert not hard_coded_quotes('<a href="{{ url }}?players=8">')


def test_no_template_hard_codes_quotes_or_typography() -> None:
    # A quote outside gettext is the same in every language: nl says ‘…’, de „…“, es «…».
    found = {
        str(path.relative_to(TEMPLATES)): lines
        for path in sorted(TEMPLATES.rglob("*.html"))
        if (lines := hard_coded_quotes(path.read_text(encoding="utf-8")))
    }
    assert not found, found
