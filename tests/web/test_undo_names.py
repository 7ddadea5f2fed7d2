"""Undo names what it took back, and an undone round comes back into its form (issue 21.7)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import Table
from tests.web.test_games import PLAYERS, text

pytestmark = pytest.mark.storage


def _undo(table: Table, **headers: str) -> tuple[str, str]:
    """Press Undo: where it leads and that page's text."""
    response = table.client.post(f"{table.url}/undo", headers=headers)
    assert response.status_code == 303
    where = response.headers["Location"]
    page = table.client.get(where, headers=headers)
    assert page.status_code == 200
    return where, page.get_data(as_text=True)


def _value(html: str, name: str) -> str | None:
    """The value an input of the form holds."""
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert found, name
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else None


def test_undoing_a_saved_round_says_so_and_refills_its_form(table: Table) -> None:
    table.start(PLAYERS)
    saved = table.end_round(1, "Ben", {"Anna": 35, "Carla": "K JK Q", "Dan": 12})
    assert saved.status_code == 303
    where, html = _undo(table)
    assert where.startswith(f"{table.url}/rounds/1?undone=")
    page = text(html)
    assert "Undone: Round 1 saved (Ben went out, Anna 35, Carla 35, and Dan 12)" in page
    assert re.search(r'<input[^>]*checked[^>]*value="1"|<input[^>]*value="1"[^>]*checked', html)
    assert _value(html, "points_0") == "35" and _value(html, "points_3") == "12"
    assert _value(html, "cards_2") == "K JK Q" and _value(html, "points_2") in (None, "")
    # the table fixes one number and saves again
    again = table.end_round(1, "Ben", {"Anna": 30, "Carla": "K JK Q", "Dan": 12})
    assert again.status_code == 303
    assert "30" in text(table.page("/sheet"))


def test_undoing_a_correction_refills_the_form_with_the_correction(table: Table) -> None:
    table.start(PLAYERS)
    table.end_round(1, "Ben", {"Anna": 35, "Carla": 20, "Dan": 12})
    table.end_round(1, "Ben", {"Anna": 35, "Carla": 25, "Dan": 12})
    _where, html = _undo(table)
    assert "Undone: the correction of Round 1 (Ben went out, Anna 35, Carla 25, and Dan 12)" in (
        text(html)
    )
    assert _value(html, "points_2") == "25"
    assert "20" in text(table.page("/sheet"))  # the round is as first saved


def test_undoing_a_buy_names_it(table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Carla")
    where, html = _undo(table)
    assert where == table.url
    assert "Undone: Round 1, a buy by Carla" in text(html)


def test_undo_is_named_in_the_table_language(table: Table) -> None:
    table.start(PLAYERS)
    table.end_round(1, "Ben", {"Anna": 35, "Carla": 20, "Dan": 12})
    _where, html = _undo(table, **{"Accept-Language": "de"})
    assert "Rückgängig gemacht: Runde 1 gespeichert (Ben ist ausgegangen" in text(html)


def test_a_form_ignores_an_undone_mark_that_is_not_its_round(table: Table) -> None:
    table.start(PLAYERS)
    table.end_round(1, "Ben", {"Anna": 35, "Carla": 20, "Dan": 12})
    table.end_round(2, "Anna", {"Ben": 5, "Carla": 20, "Dan": 12})
    where, _html = _undo(table)
    change = where.rsplit("=", 1)[1]
    # the undone round 2 does not fill round 1's form, nor a change that is not undone
    html = table.page(f"/rounds/1?undone={change}")
    assert _value(html, "points_0") == "35" and _value(html, "points_2") == "20"
    assert _value(table.page("/rounds/2?undone=999999"), "points_1") == ""
