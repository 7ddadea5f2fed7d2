"""Sentences the rules engine says to the table, kept translatable without Flask.

The engine never formats English for display: it returns a Message holding the
English template (marked with N_ so Babel extracts it) and its parameters. The
web layer translates the template with gettext/ngettext and fills it in.
Parameters may be a tuple of names (joined the way the language joins lists), a
Message (a sentence quoted in another) or a card or rank (anything with a label
method, written with the letters of the table's language).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def N_(template: str) -> str:
    """Mark a template for extraction without translating it here."""
    return template


@dataclass(frozen=True)
class Message:
    """A translatable sentence: template, optional plural form and count, parameters."""

    template: str
    params: dict[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None
    context: str | None = None  # a gettext context: the same words, another game's wording

    def render(self) -> str:
        """The sentence in English, for logs, tests and the CLI."""
        chosen = self.plural if self.plural is not None and self.count != 1 else self.template
        params = {key: _english(value) for key, value in self.params.items()}
        return chosen % params if params else chosen

    def __str__(self) -> str:
        return self.render()


def C_(context: str, template: str) -> str:
    """Mark a template for extraction under a gettext context, without translating it here."""
    return template


def NC_(context: str, singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction under a gettext context."""
    return singular, plural


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction without translating it here."""
    return singular, plural


def verbatim(text: str) -> Message:
    """The table's own words (a name, a call), shown as typed: a parameter, never a template."""
    return Message(VERBATIM, {"text": text})


VERBATIM = "%(text)s"  # no words of ours to translate: the typed text is the only parameter


def msg(template: str, **params: Any) -> Message:
    """A message with parameters: msg(N_("%(name)s is out"), name="Anna")."""
    return Message(template, params)


def nmsg(singular: str, plural: str, count: int, **params: Any) -> Message:
    """A message with a plural form chosen by `count` (also available as %(count)s)."""
    return Message(singular, {"count": count, **params}, plural, count)


def _english(value: Any) -> Any:
    """A parameter as English text: lists joined, nested messages rendered, cards labelled."""
    if isinstance(value, tuple):
        return english_list(value)
    if isinstance(value, Message):
        return value.render()
    return value.label() if hasattr(value, "label") else value


def english_list(items: tuple[str, ...]) -> str:
    """Join names the English way: "Anna, Ben and Carla" (the web layer uses the locale's)."""
    names = [str(item) for item in items]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
