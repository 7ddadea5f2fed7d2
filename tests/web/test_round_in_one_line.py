"""The round in one line fills the end-of-round form, in the table's language; it never saves."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.conftest import Table, game_links

# Nothing is recorded by a reading: whether the database holds no result is storage's answer.
pytestmark = pytest.mark.storage
FAMILY = ["Anneliese", "Bartholomeus", "Concepción", "Marie-Claire"]
FIVE = ["Bartholomeus", "Concepción", "Marie-Claire", "Oma", "Jo"]


def field_value(page: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    return found.group(1) if found else None


def said_back(page: str) -> str | None:
    """The line as it stands in its box: several lines tall, so a textarea."""
    found = re.search(r'<textarea id="said" name="said" rows="(\d+)"[^>]*>([^<]*)</textarea>', page)
    assert found and int(found.group(1)) >= 3, "the box for the line is not several lines tall"
    return found.group(2)


def read_from(page: str, seat: int) -> str | None:
    """The words the hand in this seat was filled from, as the form shows them at the hand."""
    found = re.search(rf'data-testid="read-from-{seat}">([^<]*)</p>', page)
    return found.group(1) if found else None


def problems(page: str) -> list[str]:
    """What the reading said, above the form."""
    field = page.split('<div class="field said', 1)[1].split("</div>", 1)[0]
    return re.findall(r'<p class="error" role="alert">([^<]*)</p>', field)


def went_out(page: str) -> str | None:
    found = re.search(r'<input[^>]*checked[^>]*name="went_out"[^>]*value="([^"]*)"', page)
    found = found or re.search(r'<input[^>]*name="went_out"[^>]*value="([^"]*)"[^>]*checked', page)
    return found.group(1) if found else None


def read(table: Table, said: str, language: str = "en", **typed: str) -> tuple[int, str]:
    response = table.client.post(
        f"{table.url}/rounds/1/reading",
        data={"said": said, **typed},
        headers={"Accept-Language": language},
    )
    return response.status_code, response.get_data(as_text=True)


def test_a_round_said_in_german_fills_the_form_and_saves_nothing(table: Table) -> None:
    table.start(FAMILY)
    status, page = read(table, "Anne raus, Bart fünfunddreißig, Conce zwölf, Marie 7", "de")
    assert status == 200
    assert went_out(page) == "0"
    assert [field_value(page, f"points_{seat}") for seat in (1, 2, 3)] == ["35", "12", "7"]
    assert said_back(page) == "Anne raus, Bart fünfunddreißig, Conce zwölf, Marie 7"
    # nothing recorded: the round is still the first, with no result
    assert "Round 1 of 7" in table.page()
    assert (
        table.end_round(
            1, "Anneliese", {"Bartholomeus": 35, "Concepción": 12, "Marie-Claire": 7}
        ).status_code
        == 303
    )


def test_spanish_dutch_and_french_number_words(table: Table) -> None:
    table.start(FAMILY)
    _status, page = read(table, "Bart treinta y cinco, Conc fuera", "es")
    assert field_value(page, "points_1") == "35" and went_out(page) == "2"
    _status, page = read(table, "Marie vijfendertig, Anne uit", "nl")
    assert field_value(page, "points_3") == "35" and went_out(page) == "0"
    _status, page = read(table, "Anne est sortie, Bart quatre-vingt-quinze", "fr")
    assert field_value(page, "points_1") == "95" and went_out(page) == "0"


def test_what_it_cannot_read_it_says_and_keeps_what_was_typed(table: Table) -> None:
    table.start(FAMILY)
    status, page = read(table, "Ma 10, Zed 4, Bart 5", points_2="17")
    assert status == 422
    assert problems(page) == [
        "I could not read “Zed”, so “4” is left out.",
        "Nothing for Anneliese and Concepción.",
    ]
    assert field_value(page, "points_3") == "10"  # "Ma": only Marie-Claire's name starts so
    assert field_value(page, "points_1") == "5"
    assert field_value(page, "points_2") == "17"  # typed before, not said: kept
    assert said_back(page) == "Ma 10, Zed 4, Bart 5"


def test_the_form_says_what_it_was_not_sure_of_and_each_hands_words(table: Table) -> None:
    table.start(FIVE)
    status, page = read(table, "B out, O 35, J 12, C 40")
    assert status == 422
    assert problems(page) == ["Nothing for Marie-Claire."]
    assert went_out(page) == "0"
    assert [field_value(page, f"points_{seat}") for seat in (1, 2, 3, 4)] == ["40", "", "35", "12"]
    words = [read_from(page, seat) for seat in range(5)]
    assert words == [
        "Read from “B out”",
        "Read from “C 40”",
        None,
        "Read from “O 35”",
        "Read from “J 12”",
    ]


def test_two_players_said_out_mark_neither_in_the_tables_language(table: Table) -> None:
    table.start(FIVE)
    status, page = read(
        table, "Oma raus, Jo ist fertig, Bart zwölf, Conce 3, Marie 4", "de", points_3="9"
    )
    assert status == 422
    assert problems(page) == [
        "Nur ein Spieler geht aus, aber Oma und Jo wurden als ausgegangen genannt."
    ]
    assert went_out(page) is None
    assert field_value(page, "points_3") == "9"  # typed before; said out, but not for sure
    assert read_from(page, 0) == "Gelesen aus „Bart zwölf“"


@pytest.mark.parametrize(
    ("language", "said", "answer"),
    [
        (
            "nl",
            "Piet heeft er vijfendertig",
            "Ik kon ‘Piet’ niet lezen, dus ‘vijfendertig’ blijft weg.",
        ),
        (
            "es",
            "Bart un 12",
            "Después de Bartholomeus, «un» puede ser puntos o Unai: di el nombre completo.",
        ),
        (
            "fr",
            "Bart un 12",
            "Après Bartholomeus, «\u202fun\u202f» peut être des points ou Unai\u00a0: "
            "dis le nom entier.",
        ),
    ],
)
def test_what_it_cannot_read_is_said_in_the_tables_language(
    table: Table, language: str, said: str, answer: str
) -> None:
    table.start(["Bartholomeus", "Unai", "Erik"])
    status, page = read(table, said, language)
    assert status == 422
    assert problems(page)[0] == answer
    assert [field_value(page, f"points_{seat}") for seat in range(3)] == ["", "", ""]


def test_a_whole_round_said_reads_without_a_word_back(table: Table) -> None:
    table.start(FIVE)
    status, page = read(table, "Bartholomeus out\nConcepción 35\nMarie-Claire 12\nOma 0\nJo 25")
    assert status == 200
    assert problems(page) == []
    assert read_from(page, 2) == "Read from “Marie-Claire 12”"


def test_a_view_link_cannot_use_it(app: Flask, table: Table) -> None:
    table.start(FAMILY)
    _edit, view = game_links(app)
    answer = table.client.post(f"/g/1/{view}/rounds/1/reading", data={"said": "Anne out"})
    assert answer.status_code == 403
