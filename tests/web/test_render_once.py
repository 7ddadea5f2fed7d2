"""A page finds its language's catalog once, however many words it translates."""

from __future__ import annotations

import flask_babel
import pytest
from flask_babel import Domain

from scorekeeper import i18n
from tests.conftest import Table

EIGHT = ["Anna", "Ben", "Carla", "Dan", "Eva", "Finn", "Greta", "Hugo"]


@pytest.mark.parametrize("language", ["en", "de", "nl", "es"])
def test_the_round_screen_finds_its_catalog_once(
    table: Table, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.start(EIGHT, ruleset="unlimited-buys")
    hands = {name: 10 for name in EIGHT[1:]}
    assert table.end_round(1, "Anna", hands, anyway=True).status_code == 303
    assert table.buy("Ben").status_code in (200, 303)
    found = Domain.get_translations
    lookups: list[str] = []

    def counted(domain: Domain) -> object:
        lookups.append(language)
        return found(domain)

    monkeypatch.setattr(Domain, "get_translations", counted)
    chosen = flask_babel.get_locale
    asked: list[str] = []

    def asked_for(*args: object) -> object:
        asked.append(language)
        return chosen()

    monkeypatch.setattr(flask_babel, "get_locale", asked_for)
    monkeypatch.setattr(i18n, "get_locale", asked_for)
    page = table.client.get(table.url, headers={"Accept-Language": language})
    assert page.status_code == 200
    assert len(lookups) == 1
    # The locale is read where Flask-Babel keeps it, not asked for again for each word.
    assert len(asked) <= 2, len(asked)
    text = page.get_data(as_text=True)
    # The words are still the language's (the contract, the reminders, the buttons).
    assert {"en": ">Buy<", "de": ">Kaufen<", "nl": ">Kopen<", "es": ">Comprar<"}[language] in text
