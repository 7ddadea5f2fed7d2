"""API changes to one game are made one at a time: the lock comes first, then the version check."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.models import Buy, Change, RoundResult
from tests.conftest import LiveGame, at_once, status_of

from .conftest import GAME_CHANGES, SAFE, Api, prepare, rule_url

pytestmark = pytest.mark.storage

PHONES = 6


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app sends while the block runs."""
    sent: list[str] = []

    def keep(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(" ".join(statement.split()))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", keep)


def is_lock(statement: str) -> bool:
    """SQLite's write lock taken at BEGIN, or PostgreSQL's lock on the game's row."""
    return statement == "BEGIN IMMEDIATE" or (
        statement.startswith("SELECT game.id") and statement.endswith("FOR UPDATE")
    )


@pytest.mark.parametrize(("endpoint", "values", "body"), GAME_CHANGES)
def test_every_change_locks_the_game_before_reading_it(
    app: Flask, api: Api, endpoint: str, values: dict[str, Any], body: dict[str, Any]
) -> None:
    api.start()
    api.buy("Ben")
    prepare(api, endpoint)
    rule = next(rule for rule in app.url_map.iter_rules() if rule.endpoint == endpoint)
    method = next(iter((rule.methods or set()) - SAFE)).lower()
    with statements(app) as sent:
        response = getattr(api.client, method)(
            rule_url(rule, api.game_id, **values), json=body, headers=api.headers
        )
    assert response.status_code in (200, 201), response.get_data(as_text=True)
    assert is_lock(sent[0]), sent[:2]
    assert sum(map(is_lock, sent)) == 1


def test_reading_takes_no_lock_and_the_version_takes_one_query(app: Flask, api: Api) -> None:
    api.start()
    with statements(app) as sent:
        assert api.version() == 1
    assert [s for s in sent if not s.startswith("BEGIN")] == [sent[-1]]
    assert sent[-1].startswith("SELECT game.id") and "FOR UPDATE" not in sent[-1]
    with statements(app) as sent:
        api.state()
    assert not any(map(is_lock, sent))


JsonCall = tuple[str, str, dict[str, Any]]


def send_json(live: LiveGame) -> Callable[[JsonCall], int]:
    """A sender of one JSON call to the game with its edit link; answers the status code."""

    def send(call: JsonCall) -> int:
        method, path, body = call
        request = urllib.request.Request(
            f"{live.base}/api/v1/games/{live.game_id}{path}",
            data=json.dumps(body).encode(),
            method=method,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {live.token}"},
        )
        return status_of(request)

    return send


def test_stale_buys_for_one_player_at_once_land_once(live_game: LiveGame) -> None:
    codes = at_once(send_json(live_game), [("POST", "/buys", {"seat": 1, "version": 1})] * PHONES)
    assert sorted(codes) == [201] + [409] * (PHONES - 1)
    assert live_game.count(Buy) == 1
    assert live_game.count(Change, Change.kind == "buy") == 1


def test_buys_for_every_player_on_one_version_at_once_all_land(live_game: LiveGame) -> None:
    codes = at_once(
        send_json(live_game), [("POST", "/buys", {"seat": seat, "version": 1}) for seat in range(4)]
    )
    assert codes == [201] * 4
    assert [live_game.count(Buy, Buy.seat == seat) for seat in range(4)] == [1, 1, 1, 1]


def test_competing_round_results_keep_exactly_the_acknowledged_one(live_game: LiveGame) -> None:
    calls = [
        (
            "PUT",
            "/rounds/1",
            {"went_out": 0, "hands": {str(s): {"points": p} for s in (1, 2, 3)}, "version": 1},
        )
        for p in range(10, 10 + PHONES)
    ]
    codes = at_once(send_json(live_game), calls)
    assert sorted(codes) == [200] + [409] * (PHONES - 1)
    kept = calls[codes.index(200)][2]["hands"]["1"]["points"]
    assert live_game.count(RoundResult, RoundResult.points == kept) == 3
    assert live_game.count(RoundResult) == 4


def test_an_api_buy_and_its_take_back_send_the_lock_the_row_the_entry_and_the_bump(
    app: Flask, api: Api
) -> None:
    api.start()
    api.buy("Ben")  # the round's first fact inserts its row too
    with app.app_context():
        sqlite = db.engine.dialect.name == "sqlite"
    lock = ["BEGIN IMMEDIATE", "SELECT game.id"] if sqlite else ["SELECT game.id"]
    for path, row in (("/buys", "INSERT INTO buy"), ("/buys/remove", "DELETE FROM buy")):
        body = {"seat": 1, "version": api.version()}
        with statements(app) as sent:
            response = api.call("post", f"{api.url}{path}", body)
        assert response.status_code in (200, 201)
        # Nothing read beyond the lock's row: the state was kept, the answer made in memory.
        expected = [*lock, row, "INSERT INTO change", "UPDATE game SET version="]
        assert [s[: len(e)] for s, e in zip(sent, expected, strict=True)] == expected, sent
        assert is_lock(sent[0])
