"""A change sent with the version it was made on: refused with 409 when it raced another phone."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from scorekeeper.kept import EXTENSION
from tests.web.test_queries import reads_seats, statements

from .conftest import Api, assert_problem, buys_of
from .documented import problems

pytestmark = pytest.mark.storage

HANDS = {"Ben": 10, "Carla": 20, "Dev": 30}


def conflict(api: Api, response: TestResponse, field: str) -> Any:
    """A 409 problem naming the field, the game now under "game", all as documented."""
    problem = assert_problem(response, 409, field)
    assert problem["errors"][field] == [problem["detail"]]
    document = api.client.get("/api/openapi.json").json
    assert problems(problem, {"$ref": "#/components/schemas/Conflict"}, document) == []
    return problem


def test_a_stale_buy_for_the_same_player_is_refused_and_changes_nothing(api: Api) -> None:
    seen = api.start()["version"]
    assert api.buy("Ben", version=seen).status_code == 201  # the first phone
    problem = conflict(api, api.buy("Ben", version=seen), "seat")
    assert (
        problem["detail"] == "Meanwhile Ben's buys changed: now 1. Tap again if you still mean it."
    )
    assert buys_of(problem["game"]) == [0, 1, 0, 0]
    assert problem["game"]["version"] == 2
    assert buys_of(api.state()) == [0, 1, 0, 0]
    assert api.version() == 2


def test_a_stale_take_back_of_the_same_players_buy_is_refused(api: Api) -> None:
    api.start()
    seen = api.buy("Ben").json["version"]
    remove = {"seat": 1, "version": seen}
    assert api.call("post", f"{api.url}/buys/remove", remove).status_code == 200
    problem = conflict(api, api.call("post", f"{api.url}/buys/remove", remove), "seat")
    assert (
        problem["detail"] == "Meanwhile Ben's buys changed: now 0. Tap again if you still mean it."
    )
    assert api.version() == 3


def test_buys_for_different_players_on_one_stale_version_both_land(api: Api) -> None:
    seen = api.start()["version"]
    assert api.buy("Ben", version=seen).status_code == 201
    assert api.buy("Carla", version=seen).status_code == 201
    assert buys_of(api.state()) == [0, 1, 1, 0]


def test_a_buy_on_the_current_version_or_on_none_goes_through(api: Api) -> None:
    api.start()
    seen = api.buy("Ben").json["version"]
    assert api.buy("Ben", version=seen).status_code == 201
    assert api.buy("Ben", version=None).status_code == 201
    assert buys_of(api.state()) == [0, 3, 0, 0]


def test_the_arbiter_adds_no_buy_on_a_stale_version(api: Api) -> None:
    seen = api.start()["version"]
    api.buy("Carla")
    api.call("post", f"{api.url}/buys/remove", {"seat": 2})
    call = {"discarder": 0, "callers": [2], "add_buy": True, "version": seen}
    problem = conflict(api, api.call("post", f"{api.url}/arbiter", call), "seat")
    assert problem["detail"].startswith("Meanwhile Carla's buys changed")
    assert buys_of(api.state()) == [0, 0, 0, 0]


def test_a_stale_round_result_is_refused_and_the_stored_one_stays(api: Api) -> None:
    seen = api.start()["version"]
    assert api.end_round(1, "Anna", HANDS, version=seen).status_code == 200
    stale = api.end_round(1, "Anna", {"Ben": 50, "Carla": 50, "Dev": 50}, version=seen)
    problem = conflict(api, stale, "round")
    assert problem["detail"] == (
        "Round 1 was changed on another phone meanwhile. The form shows its values now: "
        "check them and save again."
    )
    shown = problem["game"]["rounds"][0]
    assert shown["scores"] == [0, 10, 20, 30]
    assert problem["game"]["totals"] == [0, 10, 20, 30]
    state = api.state()
    assert state["rounds"][0]["scores"] == [0, 10, 20, 30]
    assert state["version"] == problem["game"]["version"] == 2


def test_a_correction_on_the_version_it_was_read_at_is_saved(api: Api) -> None:
    api.start()
    seen = api.end_round(1, "Anna", HANDS).json["version"]
    corrected = api.end_round(1, "Anna", {"Ben": 15, "Carla": 20, "Dev": 30}, version=seen)
    assert corrected.status_code == 200
    assert corrected.json["rounds"][0]["scores"] == [0, 15, 20, 30]


def test_undo_on_a_stale_version_is_refused_until_the_phone_has_seen_the_change(api: Api) -> None:
    api.start()
    seen = api.buy("Ben").json["version"]
    api.buy("Carla")  # another phone
    problem = conflict(api, api.call("post", f"{api.url}/undo", {"version": seen}), "undo")
    assert problem["detail"] == (
        "Another change came in meanwhile: Round 1: Carla bought a card. "
        "Undo again if you still want to."
    )
    assert buys_of(problem["game"]) == [0, 1, 1, 0]
    assert api.version() == 3
    undone = api.ok("post", f"{api.url}/undo", {"version": problem["game"]["version"]})
    assert buys_of(undone) == [0, 1, 0, 0]


def test_a_version_that_is_no_whole_number_is_refused(api: Api) -> None:
    api.start()
    problem = assert_problem(api.buy("Ben", version="1"), 422, "version")
    assert problem["errors"]["version"] == ["Must be a whole number."]
    assert api.version() == 1


def test_the_version_route_answers_the_version_alone(api: Api) -> None:
    api.start()
    assert api.ok("get", f"{api.url}/version") == {"version": 1}
    api.buy("Ben")
    assert api.version() == 2 == api.state()["version"]
    assert_problem(api.call("get", "/games/999/version"), 401)
    assert_problem(api.client.get(f"/api/v1{api.url}/version"), 401)


def stale_changes(api: Api, seen: int) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """A change of each kind sent on version `seen`, after a buy by Ben and a round's end."""
    return {
        "buy": ("post", "/buys", {"seat": 1, "version": seen}),
        "take back": ("post", "/buys/remove", {"seat": 1, "version": seen}),
        "arbiter": ("post", "/arbiter", {"discarder": 0, "callers": [1], "add_buy": True}
                    | {"version": seen}),
        "round": ("put", "/rounds/1", {"went_out": 0, "hands": {"1": {"points": 5},
                  "2": {"points": 5}, "3": {"points": 5}}, "version": seen}),
        "undo": ("post", "/undo", {"version": seen}),
    }  # fmt: skip


def test_each_409_carries_the_game_a_fresh_read_shows_read_once(app: Flask, api: Api) -> None:
    seen = api.start(ruleset="unlimited-buys")["version"]
    api.buy("Ben")
    api.end_round(1, "Anna", HANDS)
    api.buy("Ben")
    fresh = {**api.state(), "seat_links": None}  # the edit link's read adds the seat links
    for kind, (method, path, body) in stale_changes(api, seen).items():
        with statements(app) as sent:
            kept = api.call(method, f"{api.url}{path}", body)
        assert assert_problem(kept, 409)["game"] == fresh, kind
        # The state the request opened with the lock was kept: the answer reads no facts.
        assert not [statement for statement, _ in sent if reads_seats(statement)], kind
        app.extensions.pop(EXTENSION)  # as on a process that kept no state of this version
        read = api.call(method, f"{api.url}{path}", body)
        assert read.get_data() == kept.get_data(), kind
