"""Tables through the API: open one, read it, replace its links, list and start its games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import CardTable, Game
from scorekeeper.rules.presets import MAY_I
from tests.databases import close, make_app

from .conftest import api_routes, assert_link_refused, assert_problem, bearer, rule_url
from .tables import TableApi

# Tables, people and files written and read back: on both databases.
pytestmark = pytest.mark.storage

# Every route about a table that changes it, with a body it takes: the view link is refused.
TABLE_CHANGES: list[tuple[str, str, Any]] = [
    ("post", "/links/edit", {}),
    ("post", "/links/view", {}),
    ("post", "/games", {"ruleset": "may-i", "players": ["Anna", "Ben"]}),
    ("put", "/people/{anna}/name", {"name": "Annie"}),
    ("post", "/merges", {"merged": "{ann}", "into": "{anna}"}),
    ("delete", "/merges/{ann}", None),
]


def test_a_table_opens_with_its_links_and_reads_back(tables: TableApi) -> None:
    created = tables.open("Thursday club")
    response = tables.client.post("/api/v1/tables", json={"name": "Friday"})
    assert response.headers["Location"].endswith(f"/api/v1/tables/{response.json['id']}")
    links = created["links"]
    assert links["edit_token"] != links["view_token"] and len(links["edit_token"]) >= 32
    assert created["name"] == "Thursday club" and created["role"] == "edit"
    assert created["people"] == [] and created["games"] == {"games": [], "older": None, "total": 0}
    shown = tables.ok("get")
    assert {k: v for k, v in created.items() if k != "links"} == shown
    viewed = tables.call("get", token=links["view_token"]).json
    assert viewed["role"] == "view" and viewed["name"] == "Thursday club"


@pytest.mark.parametrize(
    ("body", "field"),
    [({"name": "   "}, "name"), ({}, "name"), ({"name": "x" * 61}, "name"), ({"name": 7}, "name")],
)
def test_a_table_needs_a_name(tables: TableApi, app: Flask, body: Any, field: str) -> None:
    response = tables.client.post("/api/v1/tables", json=body)
    assert_problem(response, 422, field)
    with app.app_context():
        assert db.session.query(CardTable).count() == 0


def test_a_refusal_is_told_in_the_requests_language(tables: TableApi) -> None:
    response = tables.client.post(
        "/api/v1/tables", json={"name": "Club", "x": 1}, headers={"Accept-Language": "de"}
    )
    assert assert_problem(response, 422, "x")["errors"]["x"] == ["Unbekanntes Feld."]


def test_a_table_without_a_link_is_challenged(tables: TableApi) -> None:
    tables.open()
    response = tables.client.get(tables.url)
    problem = assert_problem(response, 401)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert problem["detail"] == "Send the table's link token in an Authorization: Bearer header."


def test_a_wrong_link_or_another_tables_opens_nothing(tables: TableApi) -> None:
    tables.open()
    first = dict(tables.links)
    assert_link_refused(tables.call("get", token="not-the-link"))
    tables.open("Second")
    first_edit = bearer(first["edit_token"])
    assert_link_refused(tables.client.get(tables.url, headers=first_edit))
    assert_link_refused(tables.client.get("/api/v1/tables/999", headers=first_edit))


def test_a_replaced_link_answers_410_and_the_new_one_opens(tables: TableApi) -> None:
    tables.open()
    old = tables.links["edit_token"]
    replaced = tables.ok("post", "/links/edit", {})
    assert replaced["edit"] != old and replaced["view"] == tables.links["view_token"]
    gone = assert_problem(tables.call("get", token=old), 410)
    assert gone["detail"] == "This link was replaced; ask the table for the new one."
    assert tables.call("get", token=replaced["edit"]).status_code == 200


@pytest.mark.parametrize(("method", "path", "body"), TABLE_CHANGES)
def test_the_view_link_cannot_change_the_table(
    tables: TableApi, method: str, path: str, body: Any
) -> None:
    tables.open()
    tables.start(["Anna", "Ben"])
    tables.start(["Ann", "Carla"])
    ids = {"anna": tables.person("Anna"), "ann": tables.person("Ann")}
    filled = {
        k: int(v.format(**ids)) if isinstance(v, str) and "{" in v else v
        for k, v in (body or {}).items()
    }
    before = tables.ok("get")
    refused = tables.call(
        method,
        path.format(**ids),
        filled if body is not None else None,
        token=tables.links["view_token"],
    )
    assert assert_problem(refused, 403)["detail"] == "A view link cannot change the table."
    assert tables.ok("get") == before


def test_a_game_starts_at_the_table_with_its_people(tables: TableApi, app: Flask) -> None:
    tables.open()
    first = tables.start(["Anna", "Ben", "Carla"])
    assert first.state()["players"][0] == {"seat": 0, "name": "Anna"}
    tables.start(["anna", "Dan"])  # any case: the same person
    table = tables.ok("get")
    assert [p["name"] for p in table["people"]] == ["Anna", "Ben", "Carla", "Dan"]
    listed = table["games"]
    assert listed["total"] == 2 and [g["players"] for g in listed["games"]] == [
        ["Anna", "Dan"],
        ["Anna", "Ben", "Carla"],
    ]
    game = listed["games"][1]
    assert game["token"] == first.links["edit_token"] and game["ruleset"] == "may-i"
    assert not game["finished"] and game["winners"] == []
    viewed = tables.call("get", "/games", token=tables.links["view_token"]).json
    assert viewed["games"][1]["token"] == first.links["view_token"]
    with app.app_context():
        assert {g.table_id for g in db.session.query(Game)} == {tables.id}


def test_a_saved_house_rule_set_starts_a_game_with_its_token(tables: TableApi, app: Flask) -> None:
    with app.app_context():
        saved = house_rules.create("Short rounds", MAY_I)
        key, token = house_rules.key_of(saved), saved.token
    tables.open()
    game = tables.start(["Anna", "Ben"], ruleset=key, ruleset_token=token)
    assert game.state()["rules"]["name"] == "Short rounds"
    assert tables.ok("get", "/games")["games"][0]["ruleset"] == key
    for wrong in ({"ruleset_token": "x" * 32}, {}):
        body = {"ruleset": key, "players": ["Anna", "Ben"], **wrong}
        problem = assert_problem(tables.call("post", "/games", body), 422, "ruleset")
        assert problem["errors"]["ruleset"] == [f"There is no rule set {key}."]
    assert tables.ok("get", "/games")["total"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"ruleset": "nope", "players": ["Anna", "Ben"]}, "ruleset"),
        ({"ruleset": "may-i", "players": ["Anna", "anna"]}, "players.1"),
        ({"ruleset": "may-i", "players": ["Anna", "Ben"], "first_dealer": 2}, "first_dealer"),
        ({"ruleset": "may-i", "players": []}, "players"),
        ({"ruleset": "may-i", "players": ["Anna", "Ben"], "decks": 0}, "decks"),
    ],
)
def test_a_game_the_table_cannot_start_is_refused_at_the_field(
    tables: TableApi, body: Any, field: str
) -> None:
    tables.open()
    assert_problem(tables.call("post", "/games", body), 422, field)
    assert tables.ok("get")["people"] == [] and tables.ok("get", "/games")["total"] == 0


def test_the_games_come_20_a_page_newest_first(tables: TableApi) -> None:
    tables.open()
    for number in range(21):
        tables.start([f"A{number}", f"B{number}"])
    first = tables.ok("get", "/games")
    assert len(first["games"]) == 20 and first["total"] == 21 and first["older"] is not None
    rest = tables.ok("get", f"/games?before={first['older']}")
    assert [g["players"] for g in rest["games"]] == [["A0", "B0"]] and rest["older"] is None
    assert_problem(tables.call("get", "/games?before=x"), 422, "before")
    assert_problem(tables.call("get", f"/games?before={2**31}"), 422, "before")


def test_starting_table_games_and_guessing_table_links_count_towards_the_limits(
    database_url: str, tmp_path: Path
) -> None:
    limits = {"RATELIMIT_NEW_GAMES": "2 per minute", "RATELIMIT_LINK_MISSES": "3 per minute"}
    app = make_app(database_url, str(tmp_path), RATELIMIT_ENABLED=True, **limits)
    try:
        tables = TableApi(app.test_client())
        tables.open()
        start = {"ruleset": "may-i", "players": ["Anna", "Ben"]}
        codes = [tables.call("post", "/games", start).status_code for _ in range(2)]
        refused = tables.client.post("/api/v1/games", json=start)
        assert codes == [201, 201] and refused.status_code == 429
        misses = [tables.call("get", token=f"guess{i}").status_code for i in range(3)]
        assert misses == [401] * 3 and tables.call("get").status_code == 429
    finally:
        close(app)


def test_every_table_route_refuses_no_link_a_wrong_one_and_a_replaced_one(
    app: Flask, tables: TableApi
) -> None:
    tables.open()
    tables.start(["Anna", "Ben"])
    old = tables.links["edit_token"]
    tables.links["edit_token"] = tables.ok("post", "/links/edit", {})["edit"]
    anna = tables.person("Anna")
    routes = [(m, r) for m, r in api_routes(app) if "table_id" in r.arguments]
    assert len(routes) == 18  # 11 of the table's own, 7 of its card parties
    for method, rule in routes:
        url = rule_url(rule, 0, table_id=tables.id, player_id=anna, role="view")
        send = getattr(tables.client, method)
        body = {} if method in ("post", "put") else None
        assert_problem(send(url, json=body), 401)
        assert_link_refused(send(url, json=body, headers=bearer("x" * 32)))
        assert_problem(send(url, json=body, headers=bearer(old)), 410)
        for other in (999, 2**63):  # past the id column's range too: no table, not a 405
            elsewhere = url.replace(f"/tables/{tables.id}", f"/tables/{other}", 1)
            edit = bearer(tables.links["edit_token"])
            assert_link_refused(send(elsewhere, json=body, headers=edit))
