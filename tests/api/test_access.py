"""A game opens through the API only with its edit link, or read-only with its view link."""

from __future__ import annotations

import pytest

from .conftest import Api, assert_problem, buys_of


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


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
    assert_problem(response, 404)


def test_the_view_link_reads_but_cannot_change_the_game(api: Api) -> None:
    api.start()
    view = bearer(api.links["view_token"])
    assert api.client.get(f"/api/v1{api.url}", headers=view).status_code == 200
    assert api.client.get(f"/api/v1{api.url}/history", headers=view).status_code == 200
    response = api.client.post(f"/api/v1{api.url}/buys", json={"seat": 1}, headers=view)
    assert assert_problem(response, 403)["detail"] == "A view link cannot change the game."
    call = {"discarder": 0, "callers": [2]}
    assert api.client.post(f"/api/v1{api.url}/arbiter", json=call, headers=view).status_code == 200
    recorded = api.client.post(
        f"/api/v1{api.url}/arbiter", json={**call, "record": True}, headers=view
    )
    assert_problem(recorded, 403)
    assert buys_of(api.state()) == [0, 0, 0, 0]
