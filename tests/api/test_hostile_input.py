"""Hostile values get a 4xx naming their field, never a 500, and nothing is stored (issue 10)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict

from .conftest import PLAYERS, Api, assert_problem, bearer
from .test_games import games_stored

pytestmark = pytest.mark.storage

SURROGATE = "\ud800"
ESCAPED = "\\ud800"  # how a field's name holding one is told
LONE = "Not valid text: it holds a lone surrogate."
CONTROL = "Must not contain control characters."


def send(api: Api, method: str, path: str, body: Any) -> Any:
    """Send a body as JSON text with \\u escapes, as a client in any language can."""
    return getattr(api.client, method)(f"/api/v1{path}", json=body, headers=api.headers)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Anna", f"B{SURROGATE}n"]}, "players.1"),
        (
            {"players": PLAYERS, "ruleset": ruleset_to_dict(MAY_I) | {"name": SURROGATE}},
            "ruleset.name",
        ),
        ({"players": PLAYERS, SURROGATE: 1}, ESCAPED),
    ],
)
def test_a_lone_surrogate_in_a_new_game_is_refused_at_its_field(
    app: Flask, api: Api, body: dict[str, Any], field: str
) -> None:
    problem = assert_problem(send(api, "post", "/games", {"ruleset": "may-i"} | body), 422, field)
    assert problem["errors"][field] == [LONE]
    assert games_stored(app) == 0


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/buys", {"seat": 1, "action_id": f"tap{SURROGATE}"}, "action_id"),
        (
            "/rounds/1",
            {"went_out": 0, "hands": {"1": {"cards": f"KC {SURROGATE}"}}},
            "hands.1.cards",
        ),
        (
            "/rounds/1",
            {"went_out": 0, "hands": {f"1{SURROGATE}": {"points": 1}}},
            f"hands.1{ESCAPED}",
        ),
        (
            "/rounds/1",
            {"went_out": 0, "hands": {"1": {"counts": {SURROGATE: 1}}}},
            f"hands.1.counts.{ESCAPED}",
        ),
        ("/arbiter", {"discarder": 0, "callers": [1], "action_id": [SURROGATE]}, "action_id.0"),
    ],
)
def test_a_lone_surrogate_in_a_change_is_refused_at_its_field(
    api: Api, path: str, body: dict[str, Any], field: str
) -> None:
    api.start()
    method = "put" if path.startswith("/rounds") else "post"
    problem = assert_problem(send(api, method, f"{api.url}{path}", body), 422, field)
    assert problem["errors"][field] == [LONE]
    assert api.version() == 1


def test_a_lone_surrogate_in_a_check_is_refused_at_its_field(api: Api) -> None:
    problem = assert_problem(send(api, "post", "/tally", {"cards": ["KC", SURROGATE]}), 422)
    assert problem["errors"] == {"cards.1": [LONE]}


@pytest.mark.parametrize("name", ["An\x00na", "\x00", "Ben\n", "Carla\x7f", "Dev\x9b"])
def test_a_control_character_in_a_name_is_refused_and_no_game_is_stored(
    app: Flask, api: Api, name: str
) -> None:
    body = {"ruleset": "may-i", "players": ["Eve", name]}
    problem = assert_problem(send(api, "post", "/games", body), 422, "players.1")
    assert problem["errors"]["players.1"] == [CONTROL]
    assert games_stored(app) == 0


@pytest.mark.parametrize(
    ("action_id", "message"),
    [
        ("tap\x00", CONTROL),
        ("x" * 65, "Must be 1 to 64 characters."),
        ("x" * 10_000, "Must be 1 to 64 characters."),
        ("   ", "Must be 1 to 64 characters."),
    ],
)
def test_a_bad_action_id_is_refused_and_nothing_is_recorded(
    api: Api, action_id: str, message: str
) -> None:
    api.start()
    problem = assert_problem(api.buy("Ben", action_id=action_id), 422, "action_id")
    assert problem["errors"]["action_id"] == [message]
    assert api.version() == 1


def test_spaces_around_a_name_are_trimmed_and_other_spaces_count(api: Api) -> None:
    state = api.start(players=["  Anna\u3000", "Ben", "Carla Dev"])
    assert [player["name"] for player in state["players"]] == ["Anna", "Ben", "Carla Dev"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/buys", {"seat": 10**30}, "seat"),
        ("/buys", {"seat": 1, "version": 10**30}, "version"),
        ("/buys", {"seat": 1, "version": 2**31}, "version"),
        ("/run-outs", {"seen": 10**30}, "seen"),
        ("/rounds/1", {"went_out": 10**30, "hands": {}}, "went_out"),
        ("/rounds/1", {"went_out": 0, "hands": {"1": {"points": 10**30}}}, "hands.1.points"),
        (
            "/rounds/1",
            {"went_out": 0, "hands": {"1": {"counts": {"K": 10**30}}}},
            "hands.1.counts.K",
        ),
        ("/arbiter", {"discarder": 0, "callers": [10**30]}, "callers.0"),
    ],
)
def test_a_huge_number_is_refused_at_its_field(
    api: Api, path: str, body: dict[str, Any], field: str
) -> None:
    api.start()
    method = "put" if path.startswith("/rounds") else "post"
    assert_problem(send(api, method, f"{api.url}{path}", body), 422, field)
    assert api.version() == 1


@pytest.mark.parametrize(
    "path",
    [
        f"/games/{10**20}",
        f"/games/{2**31}",
        f"/games/{2**31}/version",
        "/games/1/rounds/99999999999",
    ],
)
def test_a_huge_number_in_the_url_is_not_found(api: Api, path: str) -> None:
    api.start()
    method = "put" if "/rounds/" in path else "get"
    assert_problem(send(api, method, path, {"went_out": 0, "hands": {}}), 404)


@pytest.mark.parametrize("field", ["name", "key", "buy_call"])
def test_a_house_rule_set_with_a_nul_in_its_text_stores_nothing_broken(
    app: Flask, api: Api, field: str
) -> None:
    house = ruleset_to_dict(MAY_I) | {field: "House\x00rules"}
    response = send(api, "post", "/games", {"ruleset": house, "players": PLAYERS})
    if response.status_code == 201:  # then it reads back as it was sent, on either database
        view = bearer(response.json["links"]["view_token"])
        state = api.client.get(f"/api/v1/games/{response.json['id']}", headers=view).json
        assert state["rules"][field] == "House\x00rules"
    else:
        assert_problem(response, 422, f"ruleset.{field}")
        assert games_stored(app) == 0
