"""Table names are cleaned as player names are (issue 18.9): invisible characters refused."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import CardTable
from tests.web.test_games import text


@pytest.mark.parametrize(
    "bad", ["Club\x00", "\x1b[31mClub", "Club\u202eevil", "\u200bClub", "Cl\u2028ub", "Club\ufeff"]
)
def test_a_table_name_with_invisible_characters_is_refused_at_its_field(
    app: Flask, client: FlaskClient, bad: str
) -> None:
    response = client.post("/tables/", data={"name": bad})
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert "Use only visible letters, digits and marks in a name." in page
    assert 'aria-invalid="true"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalars(select(CardTable)).all() == []


def test_a_table_name_is_kept_in_its_clean_form(app: Flask, client: FlaskClient) -> None:
    composed = "Caf\u0065\u0301   Thursday  "  # e + combining accent, runs of spaces
    assert client.post("/tables/", data={"name": composed}).status_code == 303
    with app.app_context():
        assert db.session.scalars(select(CardTable.name)).one() == "Café Thursday"


@pytest.mark.parametrize(("name", "status"), [("x" * 60, 303), ("x" * 61, 422), (" ", 422)])
def test_a_table_name_has_one_to_sixty_characters(
    client: FlaskClient, name: str, status: int
) -> None:
    assert client.post("/tables/", data={"name": name}).status_code == status
