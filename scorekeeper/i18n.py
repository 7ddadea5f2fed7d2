"""Language choice and translation of the rules engine's messages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, time
from functools import lru_cache

from babel import dates
from babel.lists import format_list
from babel.numbers import format_decimal
from flask import Flask, current_app, request
from flask_babel import (
    format_number,
    format_time,
    get_locale,
    gettext,
    ngettext,
    npgettext,
    pgettext,
    to_user_timezone,
)
from markupsafe import Markup, escape

from .extensions import babel
from .rules.messages import Message

LANGUAGE_COOKIE = "lang"
# Time pattern letters that read nothing but the hour and minute (and AM/PM or the day period).
CLOCK_FIELDS = frozenset("hHkKmaBb")


def select_locale() -> str | None:
    """The language from the cookie the switcher sets, else the browser's Accept-Language."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages)


Quote = Callable[[str], str]


def translate(message: Message) -> Markup:
    """A rules-engine message in the table's language, as HTML: every value in it escaped.

    The sentence is ours; its values (names, card tokens) may be anyone's, so "Not a card:
    <script>" reaches a page as text. A plain str would be escaped by Jinja too, but a
    translated string can be marked safe on its way (a lazy string is), so escape here.
    """
    return Markup(_render(message, _escaped))


def translate_text(message: Message) -> str:
    """A rules-engine message in the table's language, as plain text (JSON, logs)."""
    return _render(message, str)


def _escaped(value: str) -> str:
    return escape(value)


def _render(message: Message, quote: Quote) -> str:
    """The message in its context's wording if it has one, each value quoted for its place."""
    params = {key: _localized(value, quote) for key, value in message.params.items()}
    plural = message.plural is not None and message.count is not None
    if message.context is not None:
        if plural:
            worded = npgettext(
                message.context, message.template, message.plural, message.count, **params
            )
        else:
            worded = pgettext(message.context, message.template, **params)
        if worded != _untranslated(message, params):
            return str(worded)
        # Untranslated in its context, a message comes back in English: use the plain words.
    if plural:
        return str(ngettext(message.template, message.plural, message.count, **params))
    return str(gettext(message.template, **params))


def _untranslated(message: Message, params: dict[str, object]) -> str:
    """What gettext answers for a message missing from the catalog: its English, filled in."""
    if message.plural is not None and message.count is not None:
        chosen = message.template if message.count == 1 else message.plural
        return chosen % {"num": message.count, **params}
    return message.template % params if params else message.template


def _localized(value: object, quote: Quote) -> object:
    """A parameter in the table's language: lists joined, nested messages translated."""
    if isinstance(value, tuple):
        items = [str(_localized(item, quote)) for item in value]
        return format_list(items, locale=str(get_locale()))
    if isinstance(value, Message):
        return _render(value, quote)
    if hasattr(value, "label"):
        return quote(value.label(current_locale()))
    return quote(value) if isinstance(value, str) else value


def current_locale() -> str:
    """The language code of this request, for <html lang> and the switcher."""
    return str(get_locale())


def number_text(value: object) -> str:
    """A number in the table's language ("2.828" in German): Flask-Babel's `numberformat`,
    with each whole number formatted once per language (a sheet shows a hundred of them)."""
    if type(value) is int:
        return _whole_number(value, current_locale())
    return str(format_number(value))


@lru_cache(maxsize=4096)
def _whole_number(value: int, locale: str) -> str:
    return format_decimal(value, locale=locale)


def short_time(moment: datetime) -> str:
    """A moment's time of day in the table's language and time zone, as Flask-Babel's
    format_time(moment, "short") says it, each minute of the clock formatted once."""
    locale = current_locale()
    if not _reads_the_clock_alone(locale):
        return str(format_time(moment, "short"))
    local = to_user_timezone(moment)
    return _clock(locale, local.hour, local.minute)


@lru_cache(maxsize=8)
def _reads_the_clock_alone(locale: str) -> bool:
    """Whether the language's short time shows only hour and minute (no seconds, no zone)."""
    tokens = dates.tokenize_pattern(dates.get_time_format("short", locale).pattern)
    return all(kind != "field" or value[0] in CLOCK_FIELDS for kind, value in tokens)


@lru_cache(maxsize=4 * 24 * 60)
def _clock(locale: str, hour: int, minute: int) -> str:
    return dates.format_time(time(hour, minute), "short", locale=locale)


def init_app(app: Flask) -> None:
    """Register the locale selector and the template helpers."""
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(
        translate=translate, current_locale=current_locale, short_time=short_time
    )
    app.jinja_env.filters["numberformat"] = number_text
