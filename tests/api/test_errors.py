"""Every API error is problem+json with a 4xx status: bad JSON, wrong media types, bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.rules.presets import MAY_I
from scorekeeper.tables import people

from .conftest import PLAYERS, Api, api_routes, assert_problem, rule_url

NASTY: list[Any] = [
    None,
    [],
    "x",
    0,
    10**100,
    -1,
    1.5,
    True,
    {"seat": -1},
    {"seat": 10**30},
    {"seat": 1.5},
    {"seat": None},
    {"seat": [1]},
    {"seat": {"$gt": 1}},
    {"seat": 1, "action_id": "x" * 10_000},
    {"seat": 1, "action_id": ["x"]},
    {"ruleset": {"rounds": "x", "decks": [None]}, "players": [None, 1, {}]},
    {"ruleset": [], "players": "Anna"},
    {"ruleset": {"key": 1, "scoring": {"values": {"K": 10**30}}}, "players": PLAYERS},
    {"ruleset": "may-i", "players": PLAYERS, "first_dealer": 10**30, "decks": 10**30},
    {"ruleset": "may-i", "players": ["A" * 10_000, "B"]},
    {"ruleset": "may-i", "players": [f"P{n}" for n in range(5_000)], "first_dealer": None},
    {"went_out": 10**30, "hands": {"0": {"points": 10**30}}},
    {"went_out": "x", "hands": []},
    {"went_out": None, "hands": {"9" * 5_000: {}}},
    {"went_out": 0, "hands": {"1": {"counts": {"K": 10**30}}}, "cut_bonus_seat": -7},
    {"went_out": 0, "hands": {"1": {"counts": [1]}, "2": {"cards": [None]}}},
    {"went_out": 0, "hands": {"1": {"counts": {"": 1}}, "2": None}},
    {"cards": ["KC", 1]},
    {"cards": "KC " * 20_000},
    {"counts": {"K": 10**30, "JK": -1}},
    {"counts": {"ZZ": 1}, "players": -3, "decks": "2"},
    {"melds": [[None]], "round": 1},
    {"melds": "x", "round": -5},
    {"melds": [["AS"] * 500, ["2S"] * 500], "round": 3},
    {"meld": "9S", "kind": "set", "round": 10**30},
    {"meld": [], "kind": "run"},
    {"callers": [None], "discarder": "x"},
    {"callers": list(range(-5, 50)), "discarder": 0, "add_buy": True},
    {"callers": [1], "discarder": 0, "record": "yes"},
    {"seen": -1},
    {"seen": 10**30},
    {"version": -1},
    {"version": 10**30},
    {"version": "1"},
    {"seat": 1, "version": 1.0},
    {"a": {"b": {"c": [[[[{}]]]]}}},
]
RAW_BODIES = [b"[" * 100_000, b"1" * 5_000, b'{"seat": NaN}', b'{"seat": 1e999}', b"\xff\xfe", b"{"]


@pytest.fixture
def change_urls(api: Api, app: Flask) -> list[tuple[str, str]]:
    """Every POST and PUT URL of the API, about a game in its first round (saved set 1, table 1)."""
    api.start()
    with app.app_context():  # the set opens with the game's link: one bearer token for all
        house_rules.create("Ours", MAY_I).token = api.links["edit_token"]
        table = people.create_table("Club")  # table 1, and its person 1, open with it too
        table.edit_token = api.links["edit_token"]
        people.seat_people(table, ["Anna"])
        db.session.commit()
    return [
        (method, rule_url(rule, api.game_id))
        for method, rule in api_routes(app)
        if method in ("post", "put")
    ]


def test_no_nasty_payload_gets_a_server_error(api: Api, change_urls: list[tuple[str, str]]) -> None:
    shown = api.client.get(f"/api/v1/games/{api.game_id}", headers=api.headers).get_json()
    seat = {"Authorization": f"Bearer {shown['seat_links'][1]['token']}"}  # a seat's own routes
    for method, url in change_urls:
        send = getattr(api.client, method)
        headers = seat if "/seat/" in url else api.headers
        for payload in NASTY:
            body = json.dumps(payload)
            response = send(url, data=body, content_type="application/json", headers=headers)
            assert response.status_code < 500, (method, url, payload)
            if response.status_code >= 400:
                assert_problem(response, response.status_code)
        for raw in RAW_BODIES:
            response = send(url, data=raw, content_type="application/json", headers=headers)
            assert_problem(response, response.status_code)
            assert response.status_code in (400, 422), (method, url, raw[:20])


FIELDS = st.sampled_from(
    [
        *("seat", "ruleset", "players", "first_dealer", "decks", "cards", "counts", "points"),
        *("melds", "meld", "kind", "round", "hands", "went_out", "cut_bonus_seat"),
        *("discarder", "callers", "turn_player_draws", "add_buy", "record", "seen"),
        *("action_id", "version"),
    ]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=10,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=st.dictionaries(FIELDS, JSON_VALUES, max_size=5))
def test_random_json_bodies_get_no_server_error(
    api: Api, change_urls: list[tuple[str, str]], body: dict[str, Any]
) -> None:
    for method, url in change_urls:
        send = getattr(api.client, method)
        response = send(
            url, data=json.dumps(body), content_type="application/json", headers=api.headers
        )
        assert response.status_code < 500, (method, url, body)


@pytest.mark.parametrize("body", ['{"cards": ', '{"players": NaN}', "[" * 100_000, b"\xff"])
def test_malformed_json_is_a_bad_request(api: Api, body: str | bytes) -> None:
    response = api.client.post("/api/v1/tally", data=body, content_type="application/json")
    assert assert_problem(response, 400)["detail"] == "The body is not valid JSON."


@pytest.mark.parametrize("body", ["null", "[]", '"KC"', "32"])
def test_a_body_that_is_not_an_object_is_a_bad_request(api: Api, body: str) -> None:
    response = api.client.post("/api/v1/tally", data=body, content_type="application/json")
    assert assert_problem(response, 400)["detail"] == "The body must be a JSON object."


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain", None]
)
def test_a_change_not_sent_as_json_is_refused_with_415(api: Api, content_type: str | None) -> None:
    api.start()
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = api.client.post(f"/api/v1{api.url}/buys", data='{"seat": 1}', headers=headers)
    problem = assert_problem(response, 415)
    assert problem["detail"] == "Send the request body as application/json."
    assert api.state()["version"] == 1


def test_json_with_a_charset_is_json(api: Api) -> None:
    response = api.client.post(
        "/api/v1/tally", data='{"cards": "KC"}', content_type="application/json; charset=utf-8"
    )
    assert response.json == {"points": 10}


def test_the_api_needs_no_csrf_token_though_the_forms_do(app: Flask, client: FlaskClient) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    assert client.post("/api/v1/tally", json={"cards": "KC 7H JK"}).json == {"points": 32}
    assert_problem(client.post("/api/v1/tally", data={"cards": "KC"}), 415)
    assert client.post("/language", data={"language": "de", "next": "/"}).status_code == 400


@pytest.mark.parametrize("url", ["/api", "/api/v2/games", "/api/v1/games/abc", "/api/v1/nope/"])
def test_an_unknown_api_url_is_a_404_problem(client: FlaskClient, url: str) -> None:
    assert_problem(client.get(url), 404)
    assert_problem(client.post(url, json={}), 404)


def test_an_unknown_page_outside_the_api_stays_html(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404 and response.mimetype == "text/html"


@pytest.mark.parametrize(
    ("method", "url", "allowed"),
    [
        ("delete", "/api/v1/games/1", "GET, HEAD, OPTIONS"),
        ("get", "/api/v1/tally", "OPTIONS, POST"),
        ("patch", "/api/v1/games/1/rounds/1", "OPTIONS, PUT"),
        # Beside /rulesets/<key>: neither is a preset's key, so neither offers a GET.
        ("get", "/api/v1/rulesets/saved", "OPTIONS, POST"),
        ("get", "/api/v1/rulesets/validate", "OPTIONS, POST"),
    ],
)
def test_a_wrong_method_is_a_405_problem_naming_the_allowed_ones(
    client: FlaskClient, method: str, url: str, allowed: str
) -> None:
    response = getattr(client, method)(url, json={})
    assert_problem(response, 405)
    assert sorted(response.headers["Allow"].split(", ")) == allowed.split(", ")


def test_options_beside_a_presets_key_names_only_the_documented_methods(
    client: FlaskClient,
) -> None:
    for url in ("/api/v1/rulesets/saved", "/api/v1/rulesets/validate"):
        allowed = client.options(url).headers["Allow"]
        assert sorted(allowed.split(", ")) == ["OPTIONS", "POST"]


def test_a_body_over_the_size_limit_is_a_413_problem(client: FlaskClient) -> None:
    body = json.dumps({"cards": "KC " * 100_000})
    response = client.post("/api/v1/tally", data=body, content_type="application/json")
    assert_problem(response, 413)


def test_every_shape_problem_is_reported_at_once(api: Api) -> None:
    body = {"players": "4", "decks": -1, "cards": 7, "shoe": True}
    problem = assert_problem(api.call("post", "/tally", body), 422)
    assert problem["errors"] == {
        "players": ["Must be a whole number."],
        "decks": ["Must be a whole number from 0 to 100000."],
        "cards": ['Give cards as text ("KC 7H JK") or a list of cards.'],
        "shoe": ["Unknown field."],
    }
    assert problem["detail"] == "Must be a whole number."
