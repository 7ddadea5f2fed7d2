"""Rate limits: creating (games, tables, rule sets, restores) and trying links that open nothing,
in memory or on Redis."""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable, Iterator
from functools import partial
from io import BytesIO
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import CardTable
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.databases import apps
from tests.tables.backups import backup_of, empty, encoded, upload
from tests.web.test_house_rules import form_of

REDIS_URL = "redis://127.0.0.1:6379/0"
NEW_GAME = {"ruleset": "may-i", "players-0": "Anna", "players-1": "Ben"}


@pytest.fixture
def limited(database_url: str, tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Makes the app with rate limits on; closes its connections after."""
    with apps(database_url, str(tmp_path)) as make:
        yield partial(make, RATELIMIT_ENABLED=True)


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


@pytest.mark.parametrize("setting", ["RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION"])
def test_an_operators_limit_on_every_route_holds_on_the_api_and_the_pages(
    limited: Callable[..., Flask], setting: str
) -> None:
    """The app sets no such limit and skips Flask-Limiter's check before views (rate_limits.
    finds_nothing_before_views); one set in the instance config is checked there again."""
    app = limited(**{setting: "2 per minute"})  # a route's own count, or one for them all
    client = app.test_client()
    game = client.post("/games/", data=NEW_GAME).headers["Location"]
    game_id, token = game.split("/")[2:4]
    bearer = {"Authorization": f"Bearer {token}"}
    api = [client.get(f"/api/v1/games/{game_id}", headers=bearer).status_code for _ in "abc"]
    pages = [client.get(game).status_code for _ in "abc"]
    assert api[0] == 200 and api[-1] == 429 and pages[-1] == 429


def test_without_an_operators_limit_only_the_limited_routes_count(
    limited: Callable[..., Flask],
) -> None:
    app = limited(RATELIMIT_NEW_GAMES="1 per minute")
    client = app.test_client()
    game = client.post("/games/", data=NEW_GAME).headers["Location"]
    game_id, token = game.split("/")[2:4]
    bearer = {"Authorization": f"Bearer {token}"}
    for _ in range(20):
        assert client.get(f"/api/v1/games/{game_id}", headers=bearer).status_code == 200
        assert client.get(game).status_code == 200
    assert client.post("/games/", data=NEW_GAME).status_code == 429


def test_guessing_rule_set_links_counts_as_guessing_links(limited: Callable[..., Flask]) -> None:
    app = limited(RATELIMIT_LINK_MISSES="5 per minute")
    client = app.test_client()
    guesses = [client.get(f"/house-rules/1/guess{i}/edit").status_code for i in range(3)]
    bearer = {"Authorization": "Bearer guess"}
    guesses += [client.get("/api/v1/rulesets/saved/1", headers=bearer).status_code for _ in "ab"]
    assert guesses == [404] * 3 + [401] * 2
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
    _require_redis()
    settings = {
        "RATELIMIT_STORAGE_URI": REDIS_URL,
        "RATELIMIT_KEY_PREFIX": f"scorekeeper-test-{uuid.uuid4().hex}",
        "RATELIMIT_NEW_GAMES": "2 per minute",
    }
    one, two = limited(**settings).test_client(), limited(**settings).test_client()
    assert one.post("/games/", data=NEW_GAME).status_code == 303
    assert two.post("/games/", data=NEW_GAME).status_code == 303
    assert one.post("/games/", data=NEW_GAME).status_code == 429  # the other process counted


RULES = {**ruleset_to_dict(MAY_I), "name": "Our rules"}
Create = Callable[[FlaskClient, str], TestResponse]


def _table(client: FlaskClient, name: str = "Club") -> str:
    """Open a table; its edit URL."""
    return str(client.post("/tables/", data={"name": name}).headers["Location"])


def _rules_file() -> dict[str, tuple[BytesIO, str]]:
    return {"file": (BytesIO(json.dumps(RULES).encode()), "rules.json")}


# Each creation door: its limit's setting, and one creation through it (given the URL of a
# table the client opened, for the door that needs one).
DOORS: dict[str, tuple[str, Create]] = {
    "table": ("RATELIMIT_NEW_TABLES", lambda c, _t: c.post("/tables/", data={"name": "Club 7"})),
    "game at a table": (
        "RATELIMIT_NEW_GAMES",
        lambda c, t: c.post(f"{t}/games", data={**NEW_GAME, "players-0": "Anna 7"}),
    ),
    "rule set, editor": (
        "RATELIMIT_NEW_RULESETS",
        lambda c, _t: c.post("/house-rules/", data=form_of({**RULES, "name": "Rules 7"})),
    ),
    "rule set, file": (
        "RATELIMIT_NEW_RULESETS",
        lambda c, _t: c.post("/house-rules/import", data=_rules_file()),
    ),
    "rule set, API": (
        "RATELIMIT_NEW_RULESETS",
        lambda c, _t: c.post("/api/v1/rulesets/saved", json={"name": "Rules 7", "rules": RULES}),
    ),
}


@pytest.mark.parametrize("door", DOORS)
def test_a_creation_past_its_limit_is_refused_and_what_was_typed_is_kept(
    limited: Callable[..., Flask], door: str
) -> None:
    setting, create = DOORS[door]
    app = limited(**{"RATELIMIT_NEW_TABLES": "4 per minute", setting: "4 per minute"})
    client = app.test_client()
    table = _table(client)  # counts for the table door: 3 more, then refused
    codes = [create(client, table).status_code for _ in range(3 if door == "table" else 4)]
    refused = create(app.test_client(), table)  # another browser at the same address
    assert 429 not in codes
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    if door.endswith("API"):
        assert refused.mimetype == "application/problem+json"
        assert "too many" in refused.get_json()["detail"].lower()
        return
    page = refused.get_data(as_text=True)
    assert "Too many tries" in page
    if door.endswith("file"):
        return  # a file is chosen again
    again = page[page.index('id="send-again"') : page.index("</form>", page.index("send-again"))]
    kept = re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', again)
    typed = {"table": "Club 7", "game at a table": "Anna 7"}.get(door, "Rules 7")
    assert (("name" if door != "game at a table" else "players-0"), typed) in kept


def test_a_refused_creation_is_said_in_the_browsers_language(
    limited: Callable[..., Flask],
) -> None:
    app = limited(RATELIMIT_NEW_TABLES="1 per minute", RATELIMIT_NEW_RULESETS="1 per minute")
    client = app.test_client()
    _table(client)
    german = {"Accept-Language": "de"}
    refused = client.post("/tables/", data={"name": "Club"}, headers=german)
    assert refused.status_code == 429
    assert "Zu viele Versuche" in refused.get_data(as_text=True)
    rules = {"name": "Ours", "rules": RULES}
    assert client.post("/api/v1/rulesets/saved", json=rules).status_code == 201
    api = client.post("/api/v1/rulesets/saved", json=rules, headers=german)
    assert api.status_code == 429 and "zu viele Anfragen" in api.get_json()["detail"]


def test_restores_past_their_limit_are_refused_and_store_nothing(
    limited: Callable[..., Flask],
) -> None:
    app = limited(RATELIMIT_RESTORES="2 per minute")
    client = app.test_client()
    first, second = _table(client, "Club"), _table(client, "Other club")
    files = [encoded(backup_of(client, url)) for url in (first, second)]
    empty(app)
    assert upload(client, files[0]).status_code == 303
    assert upload(client, files[0]).status_code == 303  # nothing added, and counted
    refused = upload(client, files[1])
    assert refused.status_code == 429 and "Too many tries" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(CardTable)) == 1
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert upload(elsewhere, files[1]).status_code == 303


def _require_redis() -> None:
    """Skip (or fail, when CI requires it) without Redis."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.ConnectionError:
        if os.environ.get("SCOREKEEPER_REQUIRE_REDIS"):
            pytest.fail(f"Redis not reachable at {REDIS_URL}")
        pytest.skip(f"Redis not reachable at {REDIS_URL}")


def test_the_creation_limits_are_shared_on_redis_when_configured(
    limited: Callable[..., Flask],
) -> None:
    _require_redis()
    settings = {
        "RATELIMIT_STORAGE_URI": REDIS_URL,
        "RATELIMIT_KEY_PREFIX": f"scorekeeper-test-{uuid.uuid4().hex}",
        "RATELIMIT_NEW_TABLES": "2 per minute",
        "RATELIMIT_NEW_RULESETS": "1 per minute",
        "RATELIMIT_RESTORES": "1 per minute",
        "RATELIMIT_NEW_GAMES": "1 per minute",
    }
    one, two = limited(**settings).test_client(), limited(**settings).test_client()
    table = _table(one)
    assert two.post("/tables/", data={"name": "Other"}).status_code == 303
    assert one.post("/tables/", data={"name": "Third"}).status_code == 429
    rules = {"name": "Ours", "rules": RULES}
    assert one.post("/api/v1/rulesets/saved", json=rules).status_code == 201
    assert two.post("/house-rules/", data=form_of(RULES)).status_code == 429
    assert one.post(f"{table}/games", data=NEW_GAME).status_code == 303
    assert two.post("/games/", data=NEW_GAME).status_code == 429
    file = encoded(backup_of(one, table))
    assert upload(two, file).status_code == 303
    assert upload(one, file).status_code == 429
