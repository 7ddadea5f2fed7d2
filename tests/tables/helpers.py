"""Helpers for table tests: open a table and play games at it through the web forms."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.conftest import Table
from tests.web.test_games import TIED_GAME, play

# Seven rounds where Ben wins outright on 35 (Anna 50, Carla 180, Dan 240); the API tests too.
BEN_WINS: list[tuple[str, dict[str, int]]] = [
    ("Ben", {"Anna": 10, "Carla": 30, "Dan": 40}),
    ("Ben", {"Anna": 10, "Carla": 30, "Dan": 40}),
    ("Anna", {"Ben": 5, "Carla": 30, "Dan": 40}),
    ("Ben", {"Anna": 15, "Carla": 30, "Dan": 40}),
    ("Anna", {"Ben": 10, "Carla": 30, "Dan": 40}),
    ("Carla", {"Anna": 10, "Ben": 5, "Dan": 40}),
    ("Dan", {"Anna": 5, "Ben": 15, "Carla": 30}),
]
# Anna and Ben tie on 60 with one round out each: a tiebreaker round decides (Ben goes out).
TIEBREAKER_GAME: list[tuple[str | None, dict[str, int | str]]] = [
    ("Anna", {"Ben": 10, "Carla": 50, "Dan": 50}),
    ("Ben", {"Anna": 10, "Carla": 50, "Dan": 50}),
    *[("Carla", {"Anna": 10, "Ben": 10, "Dan": 50})] * 5,
]
TIEBREAKER_ROUND = {"went_out": "1", "points_0": "7"}  # round 8: Ben out, Anna holds 7
__all__ = ["BEN_WINS", "TIED_GAME", "open_table", "play", "play_tiebreaker", "start_at"]


def open_table(client: FlaskClient, name: str = "Thursday club") -> str:
    """Open a table; its edit URL."""
    response = client.post("/tables/", data={"name": name})
    assert response.status_code == 303, response.get_data(as_text=True)
    return str(response.headers["Location"])


def start_at(
    client: FlaskClient, table_url: str, players: list[str], ruleset: str = "may-i"
) -> Table:
    """Start a game at a table through its form; a Table helper on the new game."""
    data = {f"players-{i}": name for i, name in enumerate(players)}
    response = client.post(
        f"{table_url}/games", data={"ruleset": ruleset, "first_dealer": "0", **data}
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    game = Table(client)
    game.url, game.names = response.headers["Location"], players
    return game


def play_tiebreaker(client: FlaskClient, table_url: str, players: list[str]) -> Table:
    """Play TIEBREAKER_GAME at a table: Anna and Ben tie on 60 and on rounds out, and the
    tiebreaker round (round 8) goes to Ben while Anna holds 7; the finished game."""
    game = start_at(client, table_url, players)
    play(game, TIEBREAKER_GAME)
    assert client.post(f"{game.url}/rounds/8", data=TIEBREAKER_ROUND).status_code == 303
    return game
