"""A table's card parties through the API: the list and one evening, by the table's links."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import CardTable, PartyPerson
from tests.tables.party_helpers import confirm, finish, games_of, start_party

from .conftest import assert_link_refused, assert_problem, bearer
from .documented import problems

pytestmark = pytest.mark.storage

SEVEN = ["Anna", "Ben", "Carla", "Dan", "Eva", "Fritz", "Gina"]


def links(app: Flask) -> dict[str, str]:
    """The table's edit and view link tokens."""
    with app.app_context():
        table = db.session.get_one(CardTable, 1)
        return {"edit": table.edit_token, "view": table.view_token}


def test_a_table_lists_its_evenings_and_shows_one_to_both_links(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, SEVEN)
    token = links(app)
    drawn = client.get("/api/v1/tables/1/parties/1", headers=bearer(token["edit"])).json
    assert drawn["state"] == "drawing" and drawn["round"] == 0 and drawn["current"] == []
    assert sorted(n for table in drawn["proposal"] for n in table) == sorted(SEVEN)
    assert [len(table) for table in drawn["proposal"]] == [4, 3]
    confirm(client, party_url)
    four, three = games_of(app, client, 1)
    finish(four, four.names)
    playing = client.get("/api/v1/tables/1/parties/1", headers=bearer(token["edit"])).json
    assert playing["round"] == 1 and playing["waiting_for"] == [2]
    assert [t["players"] for t in playing["current"]] == [four.names, three.names]
    assert playing["proposal"] is None
    first = playing["standings"][0]
    assert first["name"] == four.names[0] and first["points"] == 10.0 and first["place"] == 1
    assert playing["ruleset"] == "may-i" and playing["rotation"] == "mix"
    assert answers_as_documented(client, "/parties/{party_id}", playing)
    viewed = client.get("/api/v1/tables/1/parties/1", headers=bearer(token["view"]))
    assert viewed.status_code == 200 and viewed.json == playing
    with app.app_context():
        secrets = [p.token for p in db.session.query(PartyPerson)]
    assert not any(secret in viewed.get_data(as_text=True) for secret in secrets)
    listed = client.get("/api/v1/tables/1/parties", headers=bearer(token["view"])).json
    assert answers_as_documented(client, "/parties", listed)
    assert listed == [
        {
            "id": 1,
            "started_on": listed[0]["started_on"],
            "tables": 2,
            "players": 7,
            "winners": [four.names[0]],
            "ended": False,
        }
    ]


def answers_as_documented(client: FlaskClient, path: str, value: object) -> bool:
    """Whether an answer fits the OpenAPI document's schema for this table route's 200."""
    document = client.get("/api/openapi.json").json
    operation = document["paths"]["/api/v1/tables/{table_id}" + path]["get"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    return problems(value, schema, document) == []


def test_an_evening_opens_only_with_its_tables_links(app: Flask, client: FlaskClient) -> None:
    start_party(client, SEVEN)
    token = links(app)
    assert_link_refused(client.get("/api/v1/tables/1/parties/1", headers=bearer("x" * 32)))
    assert_problem(client.get("/api/v1/tables/1/parties"), 401)
    missing = client.get("/api/v1/tables/1/parties/2", headers=bearer(token["edit"]))
    assert_problem(missing, 404)
    huge = client.get(f"/api/v1/tables/1/parties/{2**70}", headers=bearer(token["edit"]))
    assert_problem(huge, 404)
