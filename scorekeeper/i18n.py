"""Language choice and translation of the rules engine's messages."""

from __future__ import annotations

from babel.lists import format_list
from flask import Flask, current_app, request
from flask_babel import get_locale, gettext, ngettext, npgettext, pgettext

from .extensions import babel
from .rules.messages import Message

LANGUAGE_COOKIE = "lang"


def select_locale() -> str | None:
    """The language from the cookie the switcher sets, else the browser's Accept-Language."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages)


def translate(message: Message) -> str:
    """A rules-engine message in the table's language, in its context's wording if it has one."""
    params = {key: _localized(value) for key, value in message.params.items()}
    plural = message.plural is not None and message.count is not None
    if message.context is not None:
        if plural:
            worded = npgettext(
                message.context, message.template, message.plural, message.count, **params
            )
        else:
            worded = pgettext(message.context, message.template, **params)
        if worded != _untranslated(message, params):
            return worded
        # Untranslated in its context, a message comes back in English: use the plain words.
    if plural:
        return ngettext(message.template, message.plural, message.count, **params)
    return gettext(message.template, **params)


def _untranslated(message: Message, params: dict[str, object]) -> str:
    """What gettext answers for a message missing from the catalog: its English, filled in."""
    if message.plural is not None and message.count is not None:
        chosen = message.template if message.count == 1 else message.plural
        return chosen % {"num": message.count, **params}
    return message.template % params if params else message.template


def _localized(value: object) -> object:
    """A parameter in the table's language: lists joined, nested messages translated."""
    if isinstance(value, tuple):
        return format_list([str(_localized(item)) for item in value], locale=str(get_locale()))
    if isinstance(value, Message):
        return translate(value)
    return value.label(current_locale()) if hasattr(value, "label") else value


def current_locale() -> str:
    """The language code of this request, for <html lang> and the switcher."""
    return str(get_locale())


def init_app(app: Flask) -> None:
    """Register the locale selector and the template helpers."""
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(translate=translate, current_locale=current_locale)
