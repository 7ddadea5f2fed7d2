"""docs/GLOSSARY.md as data: each language's terms, the variants a translation never uses and
the words it must use where the English names a term.

The one copy of the glossary is the Markdown page; `tests/web/test_glossary.py` holds the
catalogs to it and `tools/sheet_context.py` reads it to know which messages the German
Contract Rummy sheet words differently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Message

GLOSSARY = Path(__file__).parents[1] / "docs" / "GLOSSARY.md"
SECTION = re.compile(r"^## (\w+)(?:, ([\w-]+))?$")
CELL = re.compile(r"(?<!\\)\|")
CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Term:
    """A glossary row: the word a language uses for a term and the variants it never uses."""

    language: str
    context: str | None
    term: str
    forbidden: tuple[re.Pattern[str], ...]
    only_where: re.Pattern[str] | None

    def breaches(self, entry: Message) -> list[tuple[str, str, str]]:
        """(English, translation, pattern) for each forbidden variant the entry's text uses."""
        english = entry.id if isinstance(entry.id, str) else entry.id[0]
        if self.only_where and not self.only_where.search(english):
            return []
        strings = entry.string if isinstance(entry.string, tuple | list) else [entry.string]
        return [
            (english, text, pattern.pattern)
            for text in filter(None, strings)
            for pattern in self.forbidden
            if pattern.search(text)
        ]


@dataclass(frozen=True)
class Required:
    """A glossary row: where the English names a term, the translation says the language's word."""

    language: str
    term: str
    english: re.Pattern[str]
    word: re.Pattern[str]

    def breaches(self, entry: Message) -> list[tuple[str, str, str]]:
        """(English, translation, word) for each translation naming the term without its word."""
        english = entry.id if isinstance(entry.id, str) else entry.id[0]
        if not self.english.search(english):
            return []
        strings = entry.string if isinstance(entry.string, tuple | list) else [entry.string]
        return [
            (english, text, self.word.pattern)
            for text in filter(None, strings)
            if not self.word.search(text)
        ]


def _cells(line: str) -> list[str]:
    """A table row's cells, the header's and the rule line's included."""
    return [cell.strip().replace(r"\|", "|") for cell in CELL.split(line.strip())[1:-1]]


def _row(language: str, context: str | None, line: str) -> Term | None:
    """A row of a forbidden-variants table as a term; the header and the rule line give none."""
    cells = _cells(line)
    if len(cells) != 5 or cells[0] in {"term", "---"}:
        return None
    forbidden = tuple(re.compile(p, re.IGNORECASE) for p in CODE.findall(cells[3]))
    where = CODE.findall(cells[4])
    return Term(language, context, cells[0], forbidden, re.compile(where[0]) if where else None)


@cache
def glossary() -> tuple[Term, ...]:
    """Every row of every language's table."""
    terms: list[Term] = []
    section: tuple[str, str | None] | None = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if found := SECTION.match(line):
            section = (found[1], found[2])
        elif section and line.startswith("|") and (term := _row(*section, line)):
            terms.append(term)
    return tuple(terms)


@cache
def required() -> tuple[Required, ...]:
    """Every row of every language's table of required words (three cells: term, English, word)."""
    rows: list[Required] = []
    language: str | None = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if found := SECTION.match(line):
            language = found[1] if found[2] is None else None
        elif language and line.startswith("|") and len(cells := _cells(line)) == 3:
            english, word = CODE.findall(cells[1]), CODE.findall(cells[2])
            if cells[0] not in {"term", "---"} and english and word:
                said = re.compile(word[0], re.IGNORECASE)
                rows.append(Required(language, cells[0], re.compile(english[0]), said))
    return tuple(rows)


def section(language: str, context: str | None) -> tuple[Term, ...]:
    """The rows of one section of the glossary."""
    return tuple(t for t in glossary() if (t.language, t.context) == (language, context))


def applies(term: Term, context: str | None) -> bool:
    """Whether a term holds in a context: its own, or any whose section does not redefine it."""
    if term.context is not None or context is None:
        return term.context == context
    return term.term not in {t.term for t in section(term.language, context)}
