"""A game opens through the API only with its edit link, or read-only with its view link."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from .conftest import (
    GAME_CHANGES,
    SAFE,
    Api,
    assert_link_refused,
    assert_problem,
    bearer,
    buys_of,
    game_changes,
    prepare,
    rule_url,
)


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", ""), ("get", "/history"), ("post", "/buys"), ("put", "/rounds/1"), ("post", "/undo")],
)
def test_a_request_without_a_link_token_is_challenged(api: Api, method: str, path: str) -> None:
    api.start()
    response = getattr(api.client, method)(f"/api/v1{api.url}{path}", json={})
    problem = assert_problem(response, 401)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert problem["detail"] == "Send the game's link token in an Authorization: Bearer header."


@pytest.mark.parametrize(
    "authorization", ["Bearer not-the-link", "Bearer ", "Basic QW5uYTpzZWNyZXQ=", "the-link"]
)
def test_a_wrong_link_opens_nothing(api: Api, authorization: str) -> None:
    api.start()
    response = api.client.get(f"/api/v1{api.url}", headers={"Authorization": authorization})
    assert response.status_code in (401, 404)
    assert_problem(response, response.status_code)


def test_one_games_link_does_not_open_another_game(api: Api) -> None:
    api.start()
    first = dict(api.links)
    api.start(players=["Eve", "Fay"])
    response = api.client.get(f"/api/v1{api.url}", headers=bearer(first["edit_token"]))
    assert_link_refused(response)


def test_the_view_link_reads_and_asks_the_arbiter(api: Api) -> None:
    api.start()
    view = api.links["view_token"]
    assert api.with_link(view, "get", api.url).status_code == 200
    assert api.with_link(view, "get", f"{api.url}/history").status_code == 200
    assert api.with_link(view, "get", f"{api.url}/version").json == {"version": 1}
    call = {"discarder": 0, "callers": [2]}
    assert api.with_link(view, "post", f"{api.url}/arbiter", call).status_code == 200


def test_the_view_link_table_names_every_route_that_changes_a_game(app: Flask) -> None:
    assert game_changes(app) == {endpoint for endpoint, _values, _body in GAME_CHANGES}


@pytest.mark.parametrize(("endpoint", "values", "body"), GAME_CHANGES)
def test_the_view_link_cannot_change_the_game(
    app: Flask, api: Api, endpoint: str, values: dict[str, Any], body: dict[str, Any]
) -> None:
    api.start()
    assert api.buy("Ben").status_code == 201
    prepare(api, endpoint)
    before = api.version()
    rule = next(rule for rule in app.url_map.iter_rules() if rule.endpoint == endpoint)
    method = next(iter((rule.methods or set()) - SAFE)).lower()
    url = rule_url(rule, api.game_id, **values)
    refused = getattr(api.client, method)(url, json=body, headers=bearer(api.links["view_token"]))
    assert assert_problem(refused, 403)["detail"] == "A view link cannot change the game."
    assert api.version() == before
    assert buys_of(api.state()) == [0, 1, 0, 0]
    # The same call through the edit link is a change that goes through.
    made = getattr(api.client, method)(url, json=body, headers=api.headers)
    assert made.status_code in (200, 201), made.get_data(as_text=True)
