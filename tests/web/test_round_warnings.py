"""Warnings before saving: a hand worth a second look holds the round at its field (issue 21.6)."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.models import Change, RoundResult
from tests.conftest import Table
from tests.web.test_games import HX, PLAYERS, count, text

pytestmark = pytest.mark.storage


def _form(table: Table, hands: dict[str, int | str], **extra: str) -> dict[str, str]:
    """The end-of-round form's values with Anna out."""
    data = {"went_out": "0", **extra}
    for name, hand in hands.items():
        key = "cards" if isinstance(hand, str) else "points"
        data[f"{key}_{table.seat(name)}"] = str(hand)
    return data


def _acknowledgement(html: str) -> str:
    """The value the "Save anyway" button sends."""
    found = re.search(r'name="confirm_warnings" value="([^"]*)"', html)
    assert found, html
    return found.group(1)


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_a_zero_holds_the_round_at_its_field_naming_the_player(
    app: Flask, table: Table, headers: dict[str, str]
) -> None:
    table.start(PLAYERS)
    data = _form(table, {"Ben": 0, "Carla": 7, "Dan": "K JK"})
    response = table.client.post(f"{table.url}/rounds/1", data=data, headers=headers)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Ben: 0 points, but Ben did not go out. Check the hand." in text(html)
    # at Ben's field, linked to it and focused first; everything typed is kept as typed
    assert 'aria-describedby="warning-1"' in html and 'id="warning-1"' in html
    assert re.search(r'<input[^>]*aria-describedby="warning-1"[^>]*autofocus', html)
    assert 'value="7"' in html
    assert 'value="K JK"' in html
    assert "Save anyway" in html
    assert count(app, RoundResult) == 0 and count(app, Change) == 1  # only the game's start


def test_save_anyway_saves_exactly_the_warned_round(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    data = _form(table, {"Ben": 0, "Carla": 7, "Dan": 9})
    held = table.client.post(f"{table.url}/rounds/1", data=data, headers=HX)
    token = _acknowledgement(held.get_data(as_text=True))
    saved = table.client.post(
        f"{table.url}/rounds/1", data={**data, "confirm_warnings": token}, headers=HX
    )
    assert saved.status_code == 204 and saved.headers["HX-Redirect"].endswith(table.url)
    assert count(app, RoundResult) == 4
    assert "did not go out" not in table.page()  # confirmed: no box on the next round


def test_changed_values_are_checked_again(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    data = _form(table, {"Ben": 0, "Carla": 7, "Dan": 9})
    token = _acknowledgement(table.client.post(f"{table.url}/rounds/1", data=data).get_data(True))
    # Another hand turns suspicious after the warning was seen: the old confirmation is not it.
    changed = {**data, "points_3": "0", "confirm_warnings": token}
    again = table.client.post(f"{table.url}/rounds/1", data=changed)
    assert again.status_code == 422
    page = text(again.get_data(as_text=True))
    assert "Ben: 0 points" in page and "Dan: 0 points, but Dan did not go out" in page
    assert count(app, RoundResult) == 0


def test_fixing_the_field_saves_without_confirming(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    data = _form(table, {"Ben": 0, "Carla": 7, "Dan": 9})
    assert table.client.post(f"{table.url}/rounds/1", data=data).status_code == 422
    fixed = table.client.post(f"{table.url}/rounds/1", data={**data, "points_1": "12"})
    assert fixed.status_code == 303
    assert count(app, RoundResult) == 4


def test_an_unusually_high_hand_is_held_too(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    data = _form(table, {"Ben": 150, "Carla": 7, "Dan": 9})
    response = table.client.post(f"{table.url}/rounds/1", data=data)
    assert response.status_code == 422
    assert "Ben: 150 points is unusually high for one hand. Check it." in text(
        response.get_data(as_text=True)
    )
    assert count(app, RoundResult) == 0


def test_the_warning_is_translated(table: Table) -> None:
    table.start(PLAYERS)
    data = _form(table, {"Ben": 0, "Carla": 7, "Dan": 9})
    response = table.client.post(
        f"{table.url}/rounds/1", data=data, headers={"Accept-Language": "de"}
    )
    page = text(response.get_data(as_text=True))
    assert "Ben: 0 Punkte" in page and "Trotzdem speichern" in page
