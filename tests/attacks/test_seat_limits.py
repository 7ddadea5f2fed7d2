"""Seat writes and link replacements under their limits: one seat link cannot flood every phone
of its game with entries and calls, the edit link cannot pile up replaced links, and a seat link
check reads a bounded number of rows however often links were replaced. The link-miss limit's
own key and answers."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.games import seat_links
from scorekeeper.models import Game, RetiredLink, SeatLink
from tests.attacks.test_rate_limits import (  # noqa: F401 (a fixture)
    NEW_GAME,
    REDIS_URL,
    _require_redis,
    limited,
)

pytestmark = pytest.mark.storage

GAME = {**NEW_GAME, "players-2": "Carla"}


def started(app: Flask) -> tuple[FlaskClient, str, dict[int, str]]:
    """A client that started a three-seat game: the client, the edit token, each seat's token."""
    client = app.test_client()
    assert client.post("/games/", data=GAME).status_code == 303
    with app.app_context():
        game = db.session.get_one(Game, 1)
        edit, seats = game.edit_token, seat_links.links_of(1)
        db.session.remove()
    return client, edit, seats


def rows(app: Flask, model: type[SeatLink] | type[RetiredLink]) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(model)) or 0
        db.session.remove()
    return count


def test_one_seat_link_sending_fast_is_refused_and_its_neighbours_are_not(
    limited: Callable[..., Flask],  # noqa: F811
) -> None:
    app = limited(RATELIMIT_SEAT_WRITES="3 per minute")
    client, _edit, seats = started(app)
    ben, carla = (f"/s/1/{seats[seat]}" for seat in (1, 2))
    too_many = {"number": "1", "points_2": "900"}
    refused = [client.post(f"{carla}/hand", data=too_many) for _ in "abcd"]
    assert [answer.status_code for answer in refused] == [422] * 4  # nothing done, nothing counted
    bearer = {"Authorization": f"Bearer {seats[1]}"}
    hand = {"round": 1, "points": 5, "action_id": "ben-1"}
    done = [
        client.post(f"{ben}/hand", data={"number": "1", "points_1": "5"}).status_code,
        client.post(f"{ben}/calls").status_code,
        client.put("/api/v1/games/1/seat/hand", json=hand, headers=bearer).status_code,
    ]
    assert done == [303, 303, 200]
    with app.app_context():
        version = db.session.get_one(Game, 1).version
        db.session.remove()
    page = client.post(f"{ben}/hand", data={"number": "1", "points_1": "6"})
    api = client.post("/api/v1/games/1/seat/calls", json={"action_id": "c2"}, headers=bearer)
    assert page.status_code == 429 and "Too many tries" in page.get_data(as_text=True)
    assert api.status_code == 429 and api.mimetype == "application/problem+json"
    assert page.headers["Retry-After"] and api.headers["Retry-After"]
    with app.app_context():
        assert db.session.get_one(Game, 1).version == version  # no phone redrawn
    codes = [client.post(f"{carla}/hand", data={"number": "1", "points_2": "7"}) for _ in "abc"]
    assert [answer.status_code for answer in codes] == [303] * 3  # the same address, its own count


def test_replacing_links_fast_is_refused_per_game_and_piles_up_nothing(
    limited: Callable[..., Flask],  # noqa: F811
) -> None:
    app = limited(RATELIMIT_LINK_REPLACEMENTS="3 per minute")
    client, edit, _seats = started(app)
    stranger = {"Authorization": "Bearer not-a-link"}
    for _ in range(4):  # a stranger's wrong token uses up none of the game's replacements
        assert client.post("/api/v1/games/1/seat-links/0", json={}, headers=stranger).status_code
    owner = {"Authorization": f"Bearer {edit}"}
    done = [
        client.post(f"/g/1/{edit}/seat-links?seat=0").status_code,
        client.post("/api/v1/games/1/seat-links/1", json={}, headers=owner).status_code,
        client.post(f"/g/1/{edit}/links/view").status_code,
    ]
    assert done == [303, 200, 303]
    refused = [
        client.post(f"/g/1/{edit}/seat-links?seat=2"),
        client.post("/api/v1/games/1/links/view", json={}, headers=owner),
    ]
    assert [answer.status_code for answer in refused] == [429, 429]
    assert rows(app, SeatLink) == 3 + 2 and rows(app, RetiredLink) == 1
    other = app.test_client()  # another game at the same address keeps its own count
    assert other.post("/games/", data=GAME).status_code == 303
    with app.app_context():
        second = db.session.get_one(Game, 2).edit_token
        db.session.remove()
    assert other.post(f"/g/2/{second}/seat-links?seat=0").status_code == 303


def test_replacing_a_tables_links_fast_is_refused(limited: Callable[..., Flask]) -> None:  # noqa: F811
    app = limited(RATELIMIT_LINK_REPLACEMENTS="2 per minute")
    client = app.test_client()
    table = client.post("/tables/", data={"name": "Club"}).headers["Location"]
    codes = [client.post(f"{table}/links/view").status_code for _ in "abc"]
    assert codes == [303, 303, 429]


def test_a_seat_link_check_reads_the_live_links_and_the_newest_replaced_ones(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _edit, seats = started(app)
    replaced = [seats[1]]
    with app.app_context():
        for _ in range(150):  # what the limit now spreads over days
            replaced.append(seat_links.rotate(1, 1))
        db.session.remove()
    compared: list[int] = []
    match = seat_links.matching_seat

    def counted(token: str, found: Collection[tuple[int, str]]) -> object:
        compared.append(len(found))
        return match(token, found)

    monkeypatch.setattr(seat_links, "matching_seat", counted)
    assert client.get(f"/s/1/{replaced[-1]}").status_code == 200
    assert compared == [3]  # the live link of each seat, not 153 rows
    assert client.get(f"/s/1/{replaced[-2]}").status_code == 410
    assert client.get(f"/s/1/{replaced[-100]}").status_code == 410
    assert client.get(f"/s/1/{replaced[0]}").status_code == 404  # past the newest 100
    assert max(compared) <= seat_links.RETIRED_CHECKED


def test_the_link_miss_count_keeps_the_prefixs_separator_on_redis(
    limited: Callable[..., Flask],  # noqa: F811
) -> None:
    _require_redis()
    prefix = f"scorekeeper-test-{uuid.uuid4().hex}"
    app = limited(RATELIMIT_STORAGE_URI=REDIS_URL, RATELIMIT_KEY_PREFIX=prefix)
    assert app.test_client().get("/g/1/guess").status_code == 404
    keys = redis.Redis.from_url(REDIS_URL).keys(f"*{prefix}*")
    assert keys and all(f"/{prefix}/link-misses/".encode() in key for key in keys)


def test_past_the_link_miss_limit_the_api_still_answers_problems(
    limited: Callable[..., Flask],  # noqa: F811
) -> None:
    app = limited(RATELIMIT_LINK_MISSES="1 per minute")
    client = app.test_client()
    assert client.get("/api/v1/games/1", headers={"Authorization": "Bearer x"}).status_code == 401
    blocked = client.delete("/api/v1/rulesets/saved/0")
    unrouted = client.delete("/api/v1/rulesets/saved/false")  # no route: its own 404
    assert blocked.status_code == 429 and blocked.mimetype == "application/problem+json"
    assert unrouted.status_code == 404 and unrouted.mimetype == "application/problem+json"
