"""Each catalog keeps to its language's glossary (docs/GLOSSARY.md): no forbidden variant."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.web.test_translations import catalog, translations

GLOSSARY = Path(__file__).parents[2] / "docs" / "GLOSSARY.md"
SECTION = re.compile(r"^## (\w+)(?:, ([\w-]+))?$")
CELL = re.compile(r"(?<!\\)\|")
CODE = re.compile(r"`([^`]+)`")
LANGUAGES = ["de", "nl", "es"]


@dataclass(frozen=True)
class Term:
    """A glossary row: the word a language uses for a term and the variants it never uses."""

    language: str
    context: str | None
    term: str
    forbidden: tuple[re.Pattern[str], ...]
    only_where: re.Pattern[str] | None


def _row(language: str, context: str | None, line: str) -> Term | None:
    """A table row as a term; the header and the rule line give none."""
    cells = [cell.strip().replace(r"\|", "|") for cell in CELL.split(line.strip())[1:-1]]
    if len(cells) != 5 or cells[0] in {"term", "---"}:
        return None
    forbidden = tuple(re.compile(p, re.IGNORECASE) for p in CODE.findall(cells[3]))
    where = CODE.findall(cells[4])
    return Term(language, context, cells[0], forbidden, re.compile(where[0]) if where else None)


@cache
def glossary() -> tuple[Term, ...]:
    """Every row of every language's table, read from the one copy in docs/."""
    terms: list[Term] = []
    section: tuple[str, str | None] | None = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if found := SECTION.match(line):
            section = (found[1], found[2])
        elif section and line.startswith("|") and (term := _row(*section, line)):
            terms.append(term)
    return tuple(terms)


def applies(term: Term, context: str | None) -> bool:
    """Whether a term holds in a context: its own, or any whose section does not redefine it."""
    if term.context is not None or context is None:
        return term.context == context
    redefined = {t.term for t in glossary() if (t.language, t.context) == (term.language, context)}
    return term.term not in redefined


def breaches(term: Term) -> list[tuple[str, str, str]]:
    """The messages of the term's language and context whose translation uses a forbidden word."""
    found = []
    for entry in catalog(term.language):
        if not entry.id or not applies(term, entry.context):
            continue
        english = entry.id if isinstance(entry.id, str) else entry.id[0]
        if term.only_where and not term.only_where.search(english):
            continue
        for text in filter(None, translations(entry)):
            found += [(english, text, p.pattern) for p in term.forbidden if p.search(text)]
    return found


def test_the_glossary_has_a_table_for_each_language() -> None:
    sections = {(term.language, term.context) for term in glossary()}
    assert sections == {("de", None), ("de", "contract-rummy"), ("nl", None), ("es", None)}
    assert all(term.forbidden for term in glossary())


def test_a_forbidden_variant_is_found() -> None:
    term = next(t for t in glossary() if t.language == "es" and t.term == "meld")
    assert any(p.search("Una melda de tres cartas") for p in term.forbidden)
    assert not any(p.search("Una combinación de tres cartas") for p in term.forbidden)


@pytest.mark.parametrize(
    "term", glossary(), ids=lambda t: f"{t.language}{'-' + t.context if t.context else ''}-{t.term}"
)
def test_no_translation_uses_a_forbidden_variant(term: Term) -> None:
    found = breaches(term)
    assert not found, f"{len(found)} in {term.language}: {found[:8]}"
