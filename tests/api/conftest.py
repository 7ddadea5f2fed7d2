"""An API client that plays steps of a game through /api/v1, as an app on a phone would."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

PLAYERS = ["Anna", "Ben", "Carla", "Dev"]


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


@pytest.fixture
def api(client: FlaskClient) -> Api:
    """The JSON API of a fresh app, on each database."""
    return Api(client)


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
