"""People are listed in the order of the table's language, wherever they are listed."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.collation import by_name
from tests.tables.helpers import open_table, play, start_at

pytestmark = pytest.mark.storage

PLAYERS = ["Otto", "Zoë", "Ömer", "Nzinga", "Fritz", "Ñoño", "Ébo", "Oskar"]
ORDER = {
    # German (DIN 5007) and English: accents are second to the letters, "Ö" sorts among O.
    "de": ["Ébo", "Fritz", "Ñoño", "Nzinga", "Ömer", "Oskar", "Otto", "Zoë"],
    "en": ["Ébo", "Fritz", "Ñoño", "Nzinga", "Ömer", "Oskar", "Otto", "Zoë"],
    "nl": ["Ébo", "Fritz", "Ñoño", "Nzinga", "Ömer", "Oskar", "Otto", "Zoë"],
    # Spanish: "ñ" is a letter of its own, after every n.
    "es": ["Ébo", "Fritz", "Nzinga", "Ñoño", "Ömer", "Oskar", "Otto", "Zoë"],
}


@pytest.mark.parametrize("language", ORDER)
def test_names_sort_by_the_languages_collation(app: Flask, language: str) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        assert by_name(PLAYERS) == ORDER[language]


def test_spanish_puts_n_tilde_after_every_n_and_before_o(app: Flask) -> None:
    names = ["Nuño", "Nunez", "Núñez", "Nuno", "Oscar", "Ñandú", "Nzinga"]
    with app.test_request_context(headers={"Accept-Language": "es"}):
        assert by_name(names) == ["Nunez", "Nuno", "Núñez", "Nuño", "Nzinga", "Ñandú", "Oscar"]


def test_outside_a_request_names_sort_the_english_way() -> None:
    assert by_name(["Zoë", "ébo", "Ébo", "Fritz"]) == ["ébo", "Ébo", "Fritz", "Zoë"]


def names_in(html: str, pattern: str) -> list[str]:
    """The players' names in the order a part of a page lists them."""
    found = re.findall(pattern, html)
    return [name for name in found if name in PLAYERS]


@pytest.mark.parametrize("language", ["de", "es"])
def test_every_list_of_a_tables_people_follows_the_language(
    client: FlaskClient, language: str
) -> None:
    url = open_table(client)
    game = start_at(client, url, PLAYERS)
    play(game, [("Otto", {name: 5 for name in PLAYERS if name != "Otto"})] * 7)
    client.set_cookie("lang", language)
    others = [name for name in ORDER[language] if name != "Otto"]
    page = client.get(url).get_data(as_text=True)
    merge = page.split('id="merge-merged"')[1].split("</select>")[0]
    assert names_in(merge, r">([^<>]+)</option>") == ORDER[language]
    record = client.get(f"{url}/record").get_data(as_text=True)
    # Otto won; the others, level on wins and average, by name
    assert names_in(record, r'<th scope="row"><a [^>]*>([^<]+)</a>') == ["Otto", *others]
    suggested = client.get(f"{url}/games/new").get_data(as_text=True)
    assert names_in(suggested, r'<option value="([^"]+)">') == ORDER[language]
    person = re.search(r'href="([^"]+/people/\d+)">Otto<', record)
    assert person is not None
    versus = client.get(person[1]).get_data(as_text=True)
    assert names_in(versus, r'<th scope="row">([^<]+)</th>') == others
