"""A table's card parties through the API: the list and one evening, by the table's links."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import CardTable, PartyPerson
from tests.tables.helpers import open_table
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
    names = {person["id"]: person["name"] for person in drawn["people"]}
    assert sorted(names[n] for table in drawn["proposal"] for n in table) == sorted(SEVEN)
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


def test_the_organiser_moves_an_evening_through_the_api(app: Flask, client: FlaskClient) -> None:
    start_party(client, SEVEN)
    token = links(app)
    url = "/api/v1/tables/1/parties/1"

    def post(path: str, body: object, link: str = "edit") -> Any:
        return client.post(url + path, json=body, headers=bearer(token[link]))

    drawn = client.get(url, headers=bearer(token["edit"])).json
    assert_problem(post("/redraw", {"version": drawn["version"]}, "view"), 403)
    assert_problem(post("/redraw", {"version": drawn["version"] + 5}), 409, "version")
    assert_problem(post("/redraw", {}), 422, "version")
    redrawn = post("/redraw", {"version": drawn["version"]})
    assert redrawn.status_code == 200 and redrawn.json["version"] == drawn["version"] + 1
    first, second = redrawn.json["proposal"][0][0], redrawn.json["proposal"][1][0]
    swapped = post("/swap", {"version": redrawn.json["version"], "first": first, "second": second})
    assert swapped.status_code == 200
    assert swapped.json["proposal"][0][0] == second and swapped.json["proposal"][1][0] == first
    shown = swapped.json
    assert_problem(post("/confirm", {"version": shown["version"], "seating": [[1, 2]]}), 409)
    started = post("/confirm", {"version": shown["version"], "seating": shown["proposal"]})
    assert started.status_code == 200 and started.json["round"] == 1
    assert [len(t["players"]) for t in started.json["current"]] == [4, 3]
    waiting = post("/redraw", {"version": started.json["version"]})
    assert_problem(waiting, 422, "seating")
    ended = post("/end", {"version": started.json["version"]})
    assert ended.status_code == 200 and ended.json["ended"] and ended.json["state"] == "ended"
    assert_problem(post("/end", {"version": ended.json["version"]}), 422)
    assert_problem(
        client.post(
            "/api/v1/tables/1/parties/9/end", json={"version": 1}, headers=bearer(token["edit"])
        ),
        404,
    )


def test_the_organiser_starts_an_evening_through_the_api(app: Flask, client: FlaskClient) -> None:
    open_table(client)
    token = links(app)
    url = "/api/v1/tables/1/parties"

    def post(body: object, link: str = "edit") -> Any:
        return client.post(url, json=body, headers=bearer(token[link]))

    assert_problem(post({"ruleset": "may-i", "players": SEVEN}, "view"), 403)
    assert_problem(post({"ruleset": "nope", "players": SEVEN}), 422, "ruleset")
    assert_problem(post({"ruleset": "may-i", "players": ["Anna", "Ben"]}), 422, "people")
    assert_problem(post({"ruleset": "may-i", "people": [999]}), 422, "people")
    assert_problem(post({"ruleset": "may-i", "players": SEVEN, "rotation": "x"}), 422, "rotation")
    assert client.get(url, headers=bearer(token["edit"])).json == []
    started = post({"ruleset": "may-i", "players": SEVEN, "rotation": "progressive"})
    assert started.status_code == 201, started.get_data(as_text=True)
    assert started.headers["Location"].endswith("/api/v1/tables/1/parties/1")
    evening = started.json
    assert sorted(p["name"] for p in evening["people"]) == sorted(SEVEN)
    assert [len(t) for t in evening["proposal"]] == [4, 3] and evening["state"] == "drawing"
    assert evening["rotation"] == "progressive" and evening["tables"] is None
    assert answers_as_documented(client, "/parties/{party_id}", evening)
