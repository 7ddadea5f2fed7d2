"""Player names: one player per name in any script and case within a game, each game's own
spelling kept, invisible names refused, races safe."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Seat
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.player_names import clean_name, name_key
from tests.conftest import LiveGame, at_once, status_of

pytestmark = pytest.mark.storage

PHONES = 8


def form(names: list[str]) -> dict[str, str]:
    """The new-game form with these names in seat order."""
    return {"ruleset": "may-i", **{f"players-{i}": name for i, name in enumerate(names)}}


def seat_names(client: FlaskClient) -> list[list[str]]:
    """Each game's seat names, oldest game first."""
    with client.application.app_context():
        games = db.session.scalars(select(Game).order_by(Game.id))
        return [[seat.name for seat in game.seats] for game in games]


@pytest.mark.parametrize("name", ["Ömer", "Øyvind", "ÇAĞLA", "Straße"])
def test_each_game_keeps_the_spelling_it_was_started_with(client: FlaskClient, name: str) -> None:
    first = client.post("/games/", data=form([name, "Ben"]))
    again = client.post("/games/", data=form([name.lower(), "Ben"]))
    api = client.post(
        "/api/v1/games", json={"ruleset": "may-i", "players": [name.upper(), "Carla"]}
    )
    assert (first.status_code, again.status_code, api.status_code) == (303, 303, 201)
    replay = client.post(first.headers["Location"] + "/again")
    assert replay.status_code == 303
    assert seat_names(client) == [
        [name, "Ben"],
        [name.lower(), "Ben"],
        [name.upper(), "Carla"],
        [name, "Ben"],
    ]


def test_a_strangers_spelling_is_never_shown_in_another_game(app: Flask) -> None:
    """Issue 18.4: typing "Annax" showed the "𝔄𝔫𝔫𝔞x" another browser had typed."""
    stranger, mine = app.test_client(), app.test_client()
    theirs = stranger.post("/games/", data=form(["𝔄𝔫𝔫𝔞x", "Ben"])).headers["Location"]
    ours = mine.post("/games/", data=form(["Annax", "Carla"])).headers["Location"]
    api = mine.post("/api/v1/games", json={"ruleset": "may-i", "players": ["ANNAX", "Dev"]}).json
    page = mine.get(ours).get_data(as_text=True)
    assert "Annax" in page and "𝔄𝔫𝔫𝔞x" not in page
    assert [p["name"] for p in api["players"]] == ["ANNAX", "Dev"]
    assert "𝔄𝔫𝔫𝔞x" in stranger.get(theirs).get_data(as_text=True)
    offered = mine.get("/games/new").get_data(as_text=True)
    assert "𝔄𝔫𝔫𝔞x" not in offered and '<option value="Annax">' in offered
    assert seat_names(mine) == [["𝔄𝔫𝔫𝔞x", "Ben"], ["Annax", "Carla"], ["ANNAX", "Dev"]]


@pytest.mark.parametrize("bad", ["\u200bBob", "Bob\ufeff", "Bo\u202eb", "B\x00ob", "Bo\u2028b"])
def test_invisible_characters_in_a_name_are_refused_at_the_field(
    client: FlaskClient, bad: str
) -> None:
    page = client.post("/games/", data=form(["Bob", bad]))
    api = client.post("/api/v1/games", json={"ruleset": "may-i", "players": ["Bob", bad]})
    assert page.status_code == 422 and "visible letters" in page.get_data(as_text=True)
    assert api.status_code == 422 and "players.1" in api.json["errors"]
    with client.application.app_context():
        from scorekeeper.extensions import db

        assert db.session.query(Game).count() == 0


def test_look_alike_names_are_one_player() -> None:
    assert name_key("Ｂｏｂ") == name_key("bob") == name_key(clean_name("  BOB "))
    assert clean_name("Anna   Lena") == "Anna Lena"
    with pytest.raises(RuleError):
        clean_name("x" * 41)


def _start(base: str, names: list[str]) -> int:
    """Start a game through the form on a live server; the status code."""
    data = urllib.parse.urlencode(form(names)).encode()
    request = urllib.request.Request(f"{base}/games/", data=data)
    return status_of(request, timeout=60)


def _start_api(base: str, names: list[str]) -> int:
    """Start a game through the API on a live server; the status code."""
    body = json.dumps({"ruleset": "may-i", "players": names}).encode()
    request = urllib.request.Request(
        f"{base}/api/v1/games", data=body, headers={"Content-Type": "application/json"}
    )
    return status_of(request, timeout=60)


def test_phones_starting_games_at_once_all_start_one(live_game: LiveGame) -> None:
    calls = [[f"Anna{i}", f"Ben{i}", "Carla"] for i in range(PHONES)]
    codes = at_once(lambda names: _start(live_game.base, names), calls)
    assert codes == [200] * PHONES  # each followed its 303 to its new game
    assert live_game.count(Game) == PHONES + 1


def test_the_same_new_name_from_phones_at_once_starts_every_game(live_game: LiveGame) -> None:
    calls = [["Zoë", f"Other{i}"] for i in range(PHONES)]
    codes = at_once(lambda names: _start_api(live_game.base, names), calls)
    assert codes == [201] * PHONES
    assert live_game.count(Seat, Seat.player_name == "Zoë") == PHONES


def test_starting_games_while_others_write_never_fails(live_game: LiveGame) -> None:
    game = f"{live_game.base}/g/{live_game.game_id}/{live_game.token}"

    def phone(index: int) -> int:
        if index % 2:
            return _start(live_game.base, [f"P{index}", "Q"])
        request = urllib.request.Request(f"{game}/buys", data=b"seat=1")
        return status_of(request, timeout=60)

    codes = at_once(phone, list(range(PHONES)))
    assert all(code < 500 for code in codes), codes
    assert live_game.count(Game) == PHONES // 2 + 1


def test_twelve_names_posted_are_refused_not_cut_to_eight(client: FlaskClient) -> None:
    response = client.post("/games/", data=form([f"P{i}" for i in range(12)]))
    assert response.status_code == 422
    assert "At most 8 players" in response.get_data(as_text=True)
    with client.application.app_context():
        from scorekeeper.extensions import db

        assert db.session.query(Game).count() == 0
