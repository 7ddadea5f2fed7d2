"""The round in one line fills the end-of-round form, in the table's language; it never saves."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from tests.conftest import Table
from tests.web.test_sharing import links_of

# Nothing is recorded by a reading: whether the database holds no result is storage's answer.
pytestmark = pytest.mark.storage
FAMILY = ["Anneliese", "Bartholomeus", "Concepción", "Marie-Claire"]


def field_value(page: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    return found.group(1) if found else None


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
    assert field_value(page, "said") == "Anne raus, Bart fünfunddreißig, Conce zwölf, Marie 7"
    # nothing recorded: the round is still the first, with no result
    assert "Round 1 of 7" in table.page()
    assert (
        table.end_round(
            1, "Anneliese", {"Bartholomeus": 35, "Concepción": 12, "Marie-Claire": 7}
        ).status_code
        == 303
    )


def test_spanish_and_dutch_number_words(table: Table) -> None:
    table.start(FAMILY)
    _status, page = read(table, "Bart treinta y cinco, Conc fuera", "es")
    assert field_value(page, "points_1") == "35" and went_out(page) == "2"
    _status, page = read(table, "Marie vijfendertig, Anne uit", "nl")
    assert field_value(page, "points_3") == "35" and went_out(page) == "0"


def test_what_it_cannot_read_it_says_and_keeps_what_was_typed(table: Table) -> None:
    table.start(FAMILY)
    status, page = read(table, "Ma 10, Zed 4, Bart 5", points_2="17")
    assert status == 422
    assert "Zed" in page and "is not a player" in page
    assert field_value(page, "points_1") == "5"
    assert field_value(page, "points_2") == "17"  # typed before, not said: kept
    assert field_value(page, "said") == "Ma 10, Zed 4, Bart 5"


def test_a_view_link_cannot_use_it(app: Flask, table: Table) -> None:
    table.start(FAMILY)
    _edit, view = links_of(app)
    answer = table.client.post(f"/g/1/{view}/rounds/1/reading", data={"said": "Anne out"})
    assert answer.status_code == 403
