"""The app in English, German, Dutch, Spanish and French, with the rule documents' own terms."""

from __future__ import annotations

import gettext
import re
from datetime import UTC, datetime
from html import unescape

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from flask import Flask, render_template_string
from flask_babel import force_locale, format_time
from wtforms.i18n import get_translations

from scorekeeper.config import LANGUAGES
from scorekeeper.i18n import short_time
from tests.conftest import Table
from tests.web.test_games import PLAYERS, TIED_GAME, play, text
from tests.web.test_translations import TRANSLATIONS

# The words each language's rule document uses for the game's terms (issue: translations).
TERMS = {
    "de": {"%(count)s book": "Buch", "%(count)s run": "Sequenz", "Stock": "Talon"},
    "nl": {"%(count)s book": "drieling", "%(count)s run": "reeks", "Stock": "trekstapel"},
    "es": {"%(count)s book": "libro", "%(count)s run": "escalera", "Stock": "mazo"},
    "fr": {"%(count)s book": "brelan", "%(count)s run": "suite", "Stock": "talon"},
}
# Rank letters of the card buttons: Jack, Queen, King.
FACES = {"en": "J Q K", "de": "B D K", "nl": "B V H", "es": "J Q K", "fr": "V D R"}
SCREEN_WORDS = ["Score sheet", "Share", "Dealer", "Plays first", "Buy", "The stock ran out"]
SHEET_WORDS = ["Score sheet", "Round", "Total", "History"]


def catalog(language: str) -> Catalog:
    """A language's committed catalog."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=language)


def translated(language: str, msgid: str) -> str:
    """The catalog's translation of a message (the singular form of a plural one)."""
    entry = catalog(language).get(msgid)
    assert entry is not None, msgid
    string = entry.string
    return str(string[0] if isinstance(string, tuple | list) else string)


def plural(language: str, msgid: str, count: int) -> str:
    """The catalog's plural form of a message for this count."""
    entries = catalog(language)
    entry = entries.get(msgid)
    assert entry is not None and isinstance(entry.string, tuple | list), msgid
    return str(entry.string[gettext.c2py(entries.plural_expr)(count)])


@pytest.mark.parametrize("language", sorted(TERMS))
def test_catalogs_use_the_rule_documents_terms(language: str) -> None:
    for msgid, word in TERMS[language].items():
        assert word.lower() in translated(language, msgid).lower(), (msgid, word)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_round_screen_speaks_the_tables_language(table: Table, language: str) -> None:
    table.start(PLAYERS)
    table.client.post("/language", data={"language": language, "next": "/"})
    page = text(table.page())
    assert f'lang="{language}"' in table.page()
    for word in SCREEN_WORDS:
        assert translated(language, word) in page, word


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_the_score_sheet_speaks_the_tables_language(table: Table, language: str) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME[:2])
    sheet = text(
        table.client.get(f"{table.url}/sheet", headers={"Accept-Language": language}).get_data(
            as_text=True
        )
    )
    for word in SHEET_WORDS:
        assert translated(language, word) in sheet, word
    assert "History" not in sheet
    assert "went out" not in sheet


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_buttons_use_the_languages_rank_letters(table: Table, language: str) -> None:
    table.start(PLAYERS)
    form = table.client.get(
        f"{table.url}/rounds/1", headers={"Accept-Language": language}
    ).get_data(as_text=True)
    letters = re.findall(r'class="rank"\s+aria-label="([^",]+)"', form)
    assert " ".join(letters[10:13]) == FACES[language]


def test_form_errors_come_in_the_tables_language(table: Table) -> None:
    table.start(PLAYERS)
    data = {"went_out": "0", "points_1": "zehn", "points_2": "5", "points_3": "5"}
    page = table.client.post(
        f"{table.url}/rounds/1", data=data, headers={"Accept-Language": "de"}
    ).get_data(as_text=True)
    wtforms_german = get_translations(["de"]).gettext("Not a valid integer value.")
    assert wtforms_german != "Not a valid integer value."
    assert wtforms_german in page


def test_rules_engine_sentences_are_translated(table: Table) -> None:
    table.start(PLAYERS)
    for _ in range(3):
        table.buy("Ben")
    page = table.client.post(
        f"{table.url}/buys", data={"seat": "1"}, headers={"Accept-Language": "es"}
    ).get_data(as_text=True)
    spanish = plural("es", "The limit of %(count)s buy per round is reached.", 3)
    assert spanish % {"count": 3} in unescape(page)
    assert "The limit of 3 buys per round is reached." not in page


def test_times_in_the_history_follow_the_locale(table: Table) -> None:
    table.start(PLAYERS)
    english = table.client.get(f"{table.url}/sheet", headers={"Accept-Language": "en"})
    german = table.client.get(f"{table.url}/sheet", headers={"Accept-Language": "de"})
    assert re.search(r"<time[^>]*>\d{1,2}:\d{2}\s?[AP]M</time>", english.get_data(as_text=True))
    assert re.search(r"<time[^>]*>\d{2}:\d{2}</time>", german.get_data(as_text=True))


# A four-digit total as each language groups its thousands.
THOUSANDS = {"en": "1,050", "de": "1.050", "nl": "1.050", "es": "1.050", "fr": "1\u202f050"}


def play_to_a_four_digit_total(table: Table) -> None:
    """Seven rounds of 150 for Ben: no hand of May I? is worth 1,000 (its decks' best 11 make
    165), so a four-digit total takes a game."""
    for number in range(1, 8):
        hands = {"Ben": 150, "Carla": 5 if number == 1 else 0, "Dan": 40 if number == 1 else 0}
        assert table.end_round(number, "Anna", hands, anyway=True).status_code == 303


@pytest.mark.parametrize("language", sorted(THOUSANDS))
def test_a_four_digit_total_is_grouped_as_the_language_does(table: Table, language: str) -> None:
    table.start(PLAYERS)
    play_to_a_four_digit_total(table)
    sheet = table.client.get(f"{table.url}/sheet", headers={"Accept-Language": language})
    totals = re.findall(r'class="total[^"]*">([^<]+)<', sheet.get_data(as_text=True))
    assert totals == ["0", THOUSANDS[language], "5", "40"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_history_times_read_as_flask_babels_short_time(app: Flask, language: str) -> None:
    moments = [
        datetime(2026, 3, 29, hour, minute, tzinfo=UTC)
        for hour in range(24)
        for minute in (0, 7, 59)
    ]
    naive = [moment.replace(tzinfo=None) for moment in moments[::5]]  # SQLite reads them so
    with app.test_request_context(headers={"Accept-Language": language}):
        for moment in [*moments, *naive]:
            assert short_time(moment) == format_time(moment, "short"), moment


def test_templates_follow_a_locale_forced_inside_a_request(app: Flask) -> None:
    page = "{{ _('Save the round') }}"
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert render_template_string(page) == "Save the round"
        with force_locale("de"):
            assert render_template_string(page) == "Runde speichern"
        assert render_template_string(page) == "Save the round"
