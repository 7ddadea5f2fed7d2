"""Rate limits: starting games and trying links that open nothing, in memory or on Redis."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask

from scorekeeper.extensions import db
from tests.databases import make_app

REDIS_URL = "redis://127.0.0.1:6379/0"
NEW_GAME = {"ruleset": "may-i", "players-0": "Anna", "players-1": "Ben"}


@pytest.fixture
def limited(database_url: str, tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Makes the app with rate limits on; closes its connections after."""
    made: list[Flask] = []

    def make(**settings: object) -> Flask:
        made.append(make_app(database_url, str(tmp_path), RATELIMIT_ENABLED=True, **settings))
        return made[-1]

    yield make
    for app in made:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_one_client_starting_games_fast_is_refused_with_429(
    limited: Callable[..., Flask],
) -> None:
    app = limited(RATELIMIT_NEW_GAMES="3 per minute")
    client = app.test_client()
    codes = [client.post("/games/", data=NEW_GAME).status_code for _ in range(4)]
    api = client.post("/api/v1/games", json={"ruleset": "may-i", "players": ["A", "B"]})
    assert codes == [303, 303, 303, 429]
    assert api.status_code == 429 and api.mimetype == "application/problem+json"
    page = client.post("/games/", data=NEW_GAME, headers={"Accept-Language": "de"})
    assert "Zu viele Versuche" in page.get_data(as_text=True)
    other = client.post("/games/", data=NEW_GAME, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 303


def test_guessing_links_is_stopped_but_playing_is_not(limited: Callable[..., Flask]) -> None:
    app = limited(RATELIMIT_LINK_MISSES="5 per minute")
    client = app.test_client()
    game = client.post("/games/", data=NEW_GAME).headers["Location"]
    for _ in range(20):
        assert client.get(game).status_code == 200  # a table reloading its game counts nothing
    game_id = game.split("/")[2]
    guesses = [client.get(f"/g/{game_id}/guess{i}").status_code for i in range(6)]
    assert guesses == [404] * 5 + [429]
    blocked = client.get(game)
    assert blocked.status_code == 429 and blocked.headers["Retry-After"] == "60"
    bearer = {"Authorization": "Bearer guess"}
    api = client.get(f"/api/v1/games/{game_id}", headers=bearer)
    assert api.status_code == 429


def test_guessing_rule_set_links_counts_as_guessing_links(limited: Callable[..., Flask]) -> None:
    app = limited(RATELIMIT_LINK_MISSES="5 per minute")
    client = app.test_client()
    guesses = [client.get(f"/house-rules/1/guess{i}/edit").status_code for i in range(3)]
    bearer = {"Authorization": "Bearer guess"}
    guesses += [client.get("/api/v1/rulesets/saved/1", headers=bearer).status_code for _ in "ab"]
    assert guesses == [404] * 5
    assert client.get("/house-rules/1/guess/edit").status_code == 429
    assert client.get("/g/1/guess").status_code == 429


def test_guessing_table_links_counts_as_guessing_links(limited: Callable[..., Flask]) -> None:
    app = limited(RATELIMIT_LINK_MISSES="5 per minute")
    client = app.test_client()
    table = client.post("/tables/", data={"name": "Thursday club"}).headers["Location"]
    for _ in range(10):
        assert client.get(table).status_code == 200  # a table reloading its page counts nothing
    guesses = [client.get(f"/t/1/guess{i}").status_code for i in range(5)]
    assert guesses == [404] * 5
    assert client.get(table).status_code == 429
    assert client.get("/g/1/guess").status_code == 429


def test_limits_are_shared_on_redis_when_configured(limited: Callable[..., Flask]) -> None:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.ConnectionError:
        if os.environ.get("SCOREKEEPER_REQUIRE_REDIS"):
            pytest.fail(f"Redis not reachable at {REDIS_URL}")
        pytest.skip(f"Redis not reachable at {REDIS_URL}")
    settings = {
        "RATELIMIT_STORAGE_URI": REDIS_URL,
        "RATELIMIT_KEY_PREFIX": f"scorekeeper-test-{uuid.uuid4().hex}",
        "RATELIMIT_NEW_GAMES": "2 per minute",
    }
    one, two = limited(**settings).test_client(), limited(**settings).test_client()
    assert one.post("/games/", data=NEW_GAME).status_code == 303
    assert two.post("/games/", data=NEW_GAME).status_code == 303
    assert one.post("/games/", data=NEW_GAME).status_code == 429  # the other process counted
