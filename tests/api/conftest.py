"""An API client that plays steps of a game through /api/v1, as an app on a phone would."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

PLAYERS = ["Anna", "Ben", "Carla", "Dev"]
SAFE = {"GET", "HEAD", "OPTIONS"}
URL_VALUES: dict[str, Any] = {"number": 1, "role": "view", "key": "may-i", "ruleset_id": 1}
URL_VALUES |= {"table_id": 1, "player_id": 1, "party_id": 1}  # a table, its person, its evening
URL_VALUES["seat"] = 1  # a seat of the game, whose link is replaced
POINTS = {"1": {"points": 5}, "2": {"points": 5}, "3": {"points": 5}}
# One valid change per endpoint that changes a game, to a game where Ben has bought a card:
# (endpoint, URL values, body). Tests check this covers every such route in the URL map.
GAME_CHANGES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("api.rounds.buys_create", {}, {"seat": 2}),
    ("api.rounds.buys_remove", {}, {"seat": 1}),
    ("api.rounds.arbiter_rule", {}, {"discarder": 0, "callers": [2], "add_buy": True}),
    ("api.rounds.down_create", {}, {"seat": 2}),
    ("api.rounds.run_outs_create", {}, {"seen": 0}),
    ("api.rounds.rounds_update", {"number": 1}, {"went_out": 0, "hands": POINTS}),
    ("api.games.undo_create", {}, {}),
    ("api.games.links_create", {"role": "edit"}, {}),
    ("api.games.links_create", {"role": "view"}, {}),
    ("api.seats.seat_links_create", {"seat": 1}, {}),
    ("api.seats.calls_grant", {}, {"seat": 2}),
    ("api.seats.calls_dismiss", {}, {}),
    ("api.seats.pending_send_back", {"number": 1, "seat": 1}, {"note": "Count again"}),
]


def prepare(api: Api, endpoint: str) -> None:
    """What a change needs first beyond Ben's buy: a hand to send back, from Ben's phone."""
    if endpoint == "api.seats.pending_send_back":
        answer = api.with_link(api.seat_link("Ben"), "put", f"{api.url}/seat/hand", FIVE)
        assert answer.status_code == 200, answer.get_data(as_text=True)


FIVE = {"round": 1, "points": 5}


class Api:
    """Calls the JSON API; names stand for seats so tests read like a game."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.game_id = 0
        self.names: list[str] = []
        self.links: dict[str, str] = {}

    @property
    def headers(self) -> dict[str, str]:
        """The game's edit link as a bearer token."""
        return {"Authorization": f"Bearer {self.links['edit_token']}"} if self.links else {}

    def call(self, method: str, path: str, body: Any = None) -> TestResponse:
        """Send JSON to /api/v1 with the game's edit link."""
        url, send = f"/api/v1{path}", getattr(self.client, method)
        if body is None:
            return send(url, headers=self.headers)
        return send(url, json=body, headers=self.headers)

    def ok(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        """Call and insist on the status; the JSON answer."""
        response = self.call(method, path, body)
        assert response.status_code == status, response.get_data(as_text=True)
        return response.json

    def start(self, players: list[str] = PLAYERS, ruleset: Any = "may-i", **extra: Any) -> Any:
        """Start a game with the first player dealing; the game's state."""
        body = {"ruleset": ruleset, "players": players, "first_dealer": 0, **extra}
        state = self.ok("post", "/games", body, status=201)
        self.game_id, self.names, self.links = state["id"], players, state.pop("links")
        return state

    @property
    def url(self) -> str:
        return f"/games/{self.game_id}"

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def state(self) -> Any:
        return self.ok("get", self.url)

    def buy(self, name: str, **extra: Any) -> TestResponse:
        return self.call("post", f"{self.url}/buys", {"seat": self.seat(name), **extra})

    def end_round(self, number: int, out: str | None, hands: dict[str, Any], **extra: Any) -> Any:
        """Record a round: points as ints, cards as "KC JK" strings, counts as dicts."""
        body = {"went_out": None if out is None else self.seat(out), "hands": {}, **extra}
        for name, hand in hands.items():
            kind = {int: "points", str: "cards", dict: "counts"}[type(hand)]
            body["hands"][str(self.seat(name))] = {kind: hand}
        return self.call("put", f"{self.url}/rounds/{number}", body)

    def history(self) -> list[str]:
        return [change["text"] for change in self.ok("get", f"{self.url}/history")]

    def version(self) -> int:
        """The game's version, as a polling client reads it."""
        version: int = self.ok("get", f"{self.url}/version")["version"]
        return version

    def with_link(self, token: str, method: str, path: str, body: Any = None) -> TestResponse:
        """Call about this game with another link than the edit link it started with."""
        return getattr(self.client, method)(f"/api/v1{path}", json=body, headers=bearer(token))

    def seat_link(self, name: str) -> str:
        """A player's own seat link, as the edit link reads it."""
        links = self.state()["seat_links"]
        return str(next(link["token"] for link in links if link["name"] == name))


def bearer(token: str) -> dict[str, str]:
    """A link token as an Authorization header."""
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def api(client: FlaskClient) -> Api:
    """The JSON API of a fresh app, on each database."""
    return Api(client)


@pytest.fixture
def tables(client: FlaskClient) -> Any:
    """The table routes of a fresh app's API, on each database (a tables.TableApi)."""
    from .tables import TableApi  # it builds on this module's Api

    return TableApi(client)


def buys_of(state: Any) -> list[int]:
    """Buys per seat in the current round."""
    return [entry["bought"] for entry in state["current_round"]["buys"]]


def assert_problem(response: TestResponse, status: int, field: str | None = None) -> Any:
    """The answer is problem+json with this status (and an error under this field)."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    problem = response.json
    assert problem["status"] == status and problem["type"] == "about:blank"
    assert problem["title"] and problem["detail"]
    if field is not None:
        assert field in problem["errors"], problem
    return problem


def assert_link_refused(response: TestResponse) -> Any:
    """A token that opens nothing: 401 with RFC 6750's invalid_token, the same answer whether
    the game or table is there or not (api/base.refused), so no one learns which ids exist."""
    problem = assert_problem(response, 401)
    assert 'error="invalid_token"' in response.headers["WWW-Authenticate"]
    return problem


def api_routes(app: Flask) -> list[tuple[str, Rule]]:
    """Every method and rule of the API (HEAD and OPTIONS left out), read from the URL map."""
    return [
        (method.lower(), rule)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    ]


def game_changes(app: Flask) -> set[str]:
    """The endpoints that change a game through its links: any method but GET on a URL naming a
    game, but a seat's own (its seat link's, api/seats.py)."""
    return {
        rule.endpoint
        for method, rule in api_routes(app)
        if method.upper() not in SAFE
        and "game_id" in rule.arguments
        and not rule.endpoint.startswith(("api.seats.seat_calls", "api.seats.seat_hand"))
    }


def rule_url(rule: Rule, game_id: int, **values: Any) -> str:
    """A rule's URL about this game (round 1, the view link, unless told otherwise)."""
    given = {**URL_VALUES, "game_id": game_id, **values}
    built = rule.build({name: given[name] for name in rule.arguments}, append_unknown=False)
    assert built is not None, rule
    return built[1]
