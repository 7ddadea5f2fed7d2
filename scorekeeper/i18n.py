"""Language choice and translation of the rules engine's messages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, time
from functools import lru_cache
from typing import Any

from babel import dates
from babel.core import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations
from flask import Flask, current_app, request
from flask.globals import _cv_app, _cv_request
from flask_babel import (
    format_number,
    format_time,
    get_locale,
    get_translations,
    to_user_timezone,
)
from jinja2.runtime import Context
from jinja2.utils import pass_context
from markupsafe import Markup, escape

from .extensions import babel
from .rules.messages import Message
from .rules.ruleset import RuleSet
from .rules.sheet_words import wording

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
    """The message in its context's wording if it has one, each value quoted for its place.

    From the request's kept catalog(), not Flask-Babel's gettext, which finds the catalog again
    for every message (8 times a round screen: contract words, reminders, history). Issue 37
    step 3 (`bench/request_costs.py --before main --requests 10 --databases sqlite`): the
    round screen 22,924 -> 21,499 function calls a request (-6.2 %), the score sheet after a
    change 32,143 -> 29,503 (-8.2 %).
    """
    params = {
        key: _localized(value, quote, message.context) for key, value in message.params.items()
    }
    plural = message.plural is not None and message.count is not None
    words = catalog()
    if plural:
        params.setdefault("num", message.count)
    if message.context is not None:
        if plural:
            worded = words.unpgettext(
                message.context, message.template, message.plural, message.count
            )
        else:
            worded = words.upgettext(message.context, message.template)
        filled = _filled(worded, params)
        if filled != _untranslated(message, params):
            return filled
        # Untranslated in its context, a message comes back in English: use the plain words.
    if plural:
        return _filled(words.ungettext(message.template, message.plural, message.count), params)
    return _filled(words.ugettext(message.template), params)


def _filled(words: str, params: dict[str, object]) -> str:
    """Translated words with their values, as Flask-Babel's gettext fills them in."""
    return str(words % params if params else words)


def _untranslated(message: Message, params: dict[str, object]) -> str:
    """What gettext answers for a message missing from the catalog: its English, filled in."""
    if message.plural is not None and message.count is not None:
        chosen = message.template if message.count == 1 else message.plural
        return chosen % {"num": message.count, **params}
    return message.template % params if params else message.template


def _localized(value: object, quote: Quote, context: str | None = None) -> object:
    """A parameter in the table's language: lists joined, nested messages translated in the
    wording (gettext context) of the sentence they are part of, unless they have their own."""
    if isinstance(value, tuple):
        items = [str(_localized(item, quote, context)) for item in value]
        return format_list(items, locale=current_locale())
    if isinstance(value, Message):
        nested = replace(value, context=context) if context and not value.context else value
        return _render(nested, quote)
    if hasattr(value, "label"):
        return quote(value.label(current_locale()))
    return quote(value) if isinstance(value, str) else value


def current_locale() -> str:
    """The language code of this request, for <html lang> and the switcher."""
    return _code(request_locale())


# Not game data: one code per language (four, and a few more asked for).
@lru_cache(maxsize=16)
def _code(locale: Locale | None) -> str:
    return str(locale)


def request_locale() -> Locale | None:
    """Flask-Babel's get_locale(), read where it keeps the locale once it has chosen it.

    get_locale() reaches that place through three context lookups on every call, and a round
    screen asks about 145 times (each word, number, card letter and time). Issue 37 step 3
    (`bench/request_costs.py --requests 10 --databases sqlite`, against _render's catalog()
    alone): the round screen 21,499 -> 20,137 function calls a request (-6.3 %), the score
    sheet after a change 29,503 -> 27,584 (-6.5 %), a poll after a change 11,347 -> 10,684.
    """
    app_context = _cv_app.get(None)
    kept = getattr(app_context.g, "_flask_babel", None) if app_context is not None else None
    locale: Locale | None = getattr(kept, "babel_locale", None)
    return locale if locale is not None else get_locale()


def number_text(value: object) -> str:
    """A number in the table's language ("2.828" in German): Flask-Babel's `numberformat`,
    with each whole number formatted once per language (a sheet shows a hundred of them)."""
    if type(value) is int:
        return _whole_number(value, current_locale())
    return str(format_number(value))


# Not game data: a number as a language writes it, the same in every game; a few hundred KB.
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


# Not game data: one answer per language (four, and a few more asked for).
@lru_cache(maxsize=8)
def _reads_the_clock_alone(locale: str) -> bool:
    """Whether the language's short time shows only hour and minute (no seconds, no zone)."""
    tokens = dates.tokenize_pattern(dates.get_time_format("short", locale).pattern)
    return all(kind != "field" or value[0] in CLOCK_FIELDS for kind, value in tokens)


# Not game data: each minute of the clock per language, the four languages at most.
@lru_cache(maxsize=4 * 24 * 60)
def _clock(locale: str, hour: int, minute: int) -> str:
    return dates.format_time(time(hour, minute), "short", locale=locale)


def catalog() -> NullTranslations:
    """This request's translations, looked up once per request.

    Flask-Babel's template gettext looks them up anew on every call, through several context
    lookups: on the round screen that was a third of the render (about 70 strings a page).
    """
    ctx = _cv_request.get(None)
    if ctx is None:
        return get_translations()
    # Kept with the locale it is for: inside Flask-Babel's force_locale (or after refresh())
    # the locale is another object, and the catalog must follow it.
    locale = request_locale()
    kept: tuple[object, NullTranslations] | None = getattr(ctx, "scorekeeper_catalog", None)
    if kept is None or kept[0] is not locale:
        kept = (locale, get_translations())
        ctx.scorekeeper_catalog = kept
    return kept[1]


def page_wording(context: Context) -> str | None:
    """The gettext context of the game a page shows (the Contract Rummy sheet's), if any."""
    rules = getattr(context.get("state"), "rules", None) or context.get("rules")
    return wording(rules) if isinstance(rules, RuleSet) else None


@pass_context
def template_gettext(context: Context, string: str, **variables: Any) -> str:
    """`_()` in a template as Jinja's newstyle gettext does it, in one call instead of three,
    in the words of the game the page shows (rules/sheet_words.py).

    Jinja's `_` resolves `gettext` and calls it through the context, which calls the catalog
    through the context again; a page calls `_` dozens of times (the round screen ~70).

    Measured with catalog() (issue 19 step 6, 2026-12-04, `.venv/bin/python bench/run.py
    --before nogettext --routes "round screen,score sheet" --table-minutes 0`, 20 pairs of 60
    twice and 60 pairs of 20 four times; nogettext = Jinja's own `_` and newstyle gettext, with
    Flask-Babel's catalog looked up per call, in the same wording): the round screen is 1.13x
    as fast with it (median of 12 ratios with/without, SQLite and PostgreSQL; 0.83-1.38x, 11 of
    12 at 1.07x or more, where the same tree against itself gave 1.00-1.03x) and makes 23.1k
    function calls instead of 28.6k (the score sheet 7.6k instead of 8.6k, its time within the
    noise). Today's calls a request: docs/PERFORMANCE.md, "Function calls a request".
    """
    words, sheet = catalog(), page_wording(context)
    found = words.upgettext(sheet, string) if sheet else string
    if found == string:  # no version in the game's wording: the plain words
        found = words.ugettext(string)
    if context.eval_ctx.autoescape:
        found = Markup(found)
    return found % variables  # always a format string, as Jinja's: "%%" is "%"


@pass_context
def template_ngettext(
    context: Context, singular: str, plural: str, num: int, **variables: Any
) -> str:
    """`ngettext()` in a template as Jinja's newstyle one, in one call instead of two."""
    variables.setdefault("num", num)
    words, sheet = catalog(), page_wording(context)
    found = words.unpgettext(sheet, singular, plural, num) if sheet else singular
    if found in (singular, plural):
        found = words.ungettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


@pass_context
def template_translate(context: Context, message: Message) -> Markup:
    """`translate()` in a template: a rules-engine message in the words of the page's game."""
    sheet = page_wording(context)
    return translate(replace(message, context=sheet) if sheet and not message.context else message)


def init_app(app: Flask) -> None:
    """Register the locale selector and the template helpers."""
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(
        translate=template_translate, current_locale=current_locale, short_time=short_time
    )
    app.jinja_env.filters["numberformat"] = number_text
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: catalog().ugettext(s),
        ngettext=lambda s, p, n: catalog().ungettext(s, p, n),
        pgettext=lambda c, s: catalog().upgettext(c, s),
        npgettext=lambda c, s, p, n: catalog().unpgettext(c, s, p, n),
        newstyle=True,
    )
    app.jinja_env.globals.update(_=template_gettext, ngettext=template_ngettext)
