"""An API client for a table: open it, start and play its games, ask for its record and files."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.tables.helpers import BEN_WINS

from .conftest import Api, bearer

# BEN_WINS is the web tests' game (tests/tables/helpers.py), played here through the API.
__all__ = ["BEN_WINS", "TableApi", "play"]


class TableApi:
    """Calls the table routes of /api/v1 with the table's edit link unless told another."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.id = 0
        self.links: dict[str, str] = {}

    @property
    def url(self) -> str:
        return f"/api/v1/tables/{self.id}"

    def open(self, name: str = "Thursday club") -> Any:
        """Open a table; its answer."""
        response = self.client.post("/api/v1/tables", json={"name": name})
        assert response.status_code == 201, response.get_data(as_text=True)
        self.id, self.links = response.json["id"], response.json["links"]
        return response.json

    def call(
        self,
        method: str,
        path: str = "",
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        **kw: Any,
    ) -> TestResponse:
        """Send a request about the table, with its edit link (or `token`) and `headers`."""
        headers = {
            **bearer(self.links["edit_token"] if token is None else token),
            **(headers or {}),
        }
        send = getattr(self.client, method)
        if body is None:
            return send(self.url + path, headers=headers, **kw)  # type: ignore[no-any-return]
        return send(self.url + path, json=body, headers=headers, **kw)  # type: ignore[no-any-return]

    def ok(self, method: str, path: str = "", body: Any = None, status: int = 200) -> Any:
        """Call and insist on the status; the JSON answer."""
        response = self.call(method, path, body)
        assert response.status_code == status, response.get_data(as_text=True)
        return response.json

    def start(self, players: list[str], ruleset: str = "may-i", **extra: Any) -> Api:
        """Start a game at the table (first player dealing); an Api client on that game."""
        body = {"ruleset": ruleset, "players": players, "first_dealer": 0, **extra}
        state = self.ok("post", "/games", body, status=201)
        game = Api(self.client)
        game.game_id, game.names, game.links = state["id"], players, state.pop("links")
        return game

    def person(self, name: str) -> int:
        """A person's id by name, merged spellings too."""
        table = self.ok("get")
        everyone = table["people"] + table["merged"]
        return int(next(p["id"] for p in everyone if p["name"] == name))

    def figures(self, path: str = "/record") -> dict[str, Any]:
        """The record's figures by name."""
        return {row["person"]["name"]: row for row in self.ok("get", path)["people"]}


def play(game: Api, rounds: list[tuple[str, dict[str, int]]], **seated: str) -> None:
    """End each round of a game through the game API, in turn; `Anna="Ann"` plays Anna's
    hands as Ann's."""
    for number, (out, hands) in enumerate(rounds, start=1):
        named = {seated.get(name, name): hand for name, hand in hands.items()}
        response = game.end_round(number, seated.get(out, out), named)
        assert response.status_code == 200, response.get_data(as_text=True)
