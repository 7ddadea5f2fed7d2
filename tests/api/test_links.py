"""Replacing a game's links through the API: the old link answers 410, the new one works."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from .conftest import Api, assert_problem, bearer, buys_of

pytestmark = pytest.mark.storage

REPLACED = "This link was replaced; ask the table for the new one."


def test_replacing_the_edit_link_retires_the_old_one(api: Api) -> None:
    api.start()
    old = dict(api.links)
    links = api.ok("post", f"{api.url}/links/edit", {})
    assert links["view"] == old["view_token"]
    assert links["edit"] not in (old["edit_token"], old["view_token"])
    for method, path, body in [
        ("get", api.url, None),
        ("get", f"{api.url}/version", None),
        ("post", f"{api.url}/buys", {"seat": 1}),
    ]:
        problem = assert_problem(api.with_link(old["edit_token"], method, path, body), 410)
        assert problem["detail"] == REPLACED
    bought = api.with_link(links["edit"], "post", f"{api.url}/buys", {"seat": 1})
    assert buys_of(bought.json) == [0, 1, 0, 0]
    assert api.with_link(links["view"], "get", api.url).status_code == 200


def test_replacing_the_view_link_keeps_the_edit_link_working(api: Api) -> None:
    api.start()
    old_view = api.links["view_token"]
    links = api.ok("post", f"{api.url}/links/view", {"version": 1})
    assert links["edit"] == api.links["edit_token"]
    assert links["view"] != old_view
    assert assert_problem(api.with_link(old_view, "get", api.url), 410)["detail"] == REPLACED
    assert api.with_link(links["view"], "get", f"{api.url}/version").json == {"version": 2}
    assert api.buy("Ben").status_code == 201
    assert api.history()[1] == "The view link was replaced"


def test_a_link_replaced_twice_stays_retired_and_a_stranger_still_gets_401(api: Api) -> None:
    api.start()
    first = api.links["view_token"]
    api.ok("post", f"{api.url}/links/view", {})
    api.ok("post", f"{api.url}/links/view", {})
    assert_problem(api.with_link(first, "get", api.url), 410)
    assert_problem(api.with_link("never-a-link", "get", api.url), 401)


def test_a_link_retired_on_the_share_page_answers_410_in_the_api(
    api: Api, client: FlaskClient
) -> None:
    api.start()
    edit, view = api.links["edit_token"], api.links["view_token"]
    assert client.post(f"/g/{api.game_id}/{edit}/links/view").status_code == 303
    response = client.get(f"/api/v1{api.url}", headers=bearer(view))
    assert assert_problem(response, 410)["detail"] == REPLACED


def test_only_the_edit_and_view_links_can_be_replaced(api: Api) -> None:
    api.start()
    assert_problem(api.call("post", f"{api.url}/links/admin", {}), 404)
    problem = assert_problem(api.call("post", f"{api.url}/links/edit", {"role": "view"}), 422)
    assert problem["errors"] == {"role": ["Unknown field."]}
    assert api.version() == 1
