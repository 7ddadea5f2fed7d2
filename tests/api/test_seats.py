"""Seats through the API (issue 24.1, 24.3): a seat's own view and "May I?" under its link, the
seat links for the edit link only, the open calls for the scorekeeper."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api

pytestmark = pytest.mark.storage


def seats(api: Api) -> dict[str, str]:
    """Each seat's link by the player's name, as the edit link reads them."""
    return {link["name"]: link["token"] for link in api.state()["seat_links"]}


def test_a_seat_reads_its_own_view_and_nothing_else(api: Api) -> None:
    api.start()
    assert api.buy("Ben").status_code == 201
    links = seats(api)
    view = api.with_link(links["Ben"], "get", f"{api.url}/seat")
    assert view.status_code == 200
    shown: Any = view.json
    assert (shown["seat"], shown["name"], shown["buys"], shown["buys_left"]) == (1, "Ben", 1, 2)
    assert shown["game"]["seat_links"] is None  # a seat never sees the others' links
    assert api.with_link(links["Ben"], "get", api.url).status_code == 401
    assert api.with_link(api.links["view_token"], "get", f"{api.url}/seat").status_code == 401


def test_a_seat_calls_once_and_the_scorekeeper_grants_it(api: Api) -> None:
    api.start()
    ben = seats(api)["Ben"]
    first = api.with_link(ben, "post", f"{api.url}/seat/calls", {})
    again = api.with_link(ben, "post", f"{api.url}/seat/calls", {})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json == again.json and first.json["open"] is True  # type: ignore[index]
    waiting = api.ok("get", f"{api.url}/calls")
    assert [(made["seat"], made["name"]) for made in waiting] == [(1, "Ben")]
    view = api.with_link(api.links["view_token"], "get", f"{api.url}/calls")
    assert view.status_code == 403
    assert api.state()["current_round"]["buys"][1]["bought"] == 0  # a call buys nothing
    after = api.ok("post", f"{api.url}/calls/grant", {"seat": 1}, status=201)
    assert after["current_round"]["buys"][1]["bought"] == 1
    assert api.ok("get", f"{api.url}/calls") == []


def test_a_refused_call_says_why_and_dismissing_closes_the_calls(api: Api) -> None:
    api.start()
    for _ in range(3):
        assert api.buy("Carla").status_code == 201
    links = seats(api)
    refused = api.with_link(links["Carla"], "post", f"{api.url}/seat/calls", {})
    assert refused.status_code == 422
    assert "The limit of 3 buys per round is reached." in refused.get_data(as_text=True)
    assert api.with_link(links["Dev"], "post", f"{api.url}/seat/calls", {}).status_code == 201
    assert api.ok("post", f"{api.url}/calls/dismiss", {}) == []
    assert sum(row["bought"] for row in api.state()["current_round"]["buys"]) == 3
