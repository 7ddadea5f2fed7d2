"""Several phones at once, against a real threaded server on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import func, select
from werkzeug.serving import WSGIRequestHandler

from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Buy, Change, Game, Round, RoundResult
from scorekeeper.rules.presets import MAY_I
from tests.conftest import make_app, serving

PHONES = 6


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keep a 303 as the answer: it is how a plain form says "done"."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


OPENER = urllib.request.build_opener(_NoRedirect)


@dataclass
class Table:
    """A game served for real, and how to reach it."""

    app: Flask
    base: str
    game_id: int
    token: str

    def post(self, path: str, data: dict[str, str]) -> int:
        """POST a form to the game and return the status code."""
        url = f"{self.base}/g/{self.game_id}/{self.token}{path}"
        request = urllib.request.Request(url, data=urllib.parse.urlencode(data).encode())
        try:
            with OPENER.open(request, timeout=30) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as answer:
            return int(answer.code)

    def count(self, model: type, *where: object) -> int:
        """Rows of a model, read afresh."""
        with self.app.app_context():
            query = select(func.count()).select_from(model).where(*where)
            return db.session.scalar(query) or 0


def at_once(calls: list[tuple[str, dict[str, str]]], table: Table) -> list[int]:
    """Send every call from its own thread, released together; the status codes in order."""
    start = threading.Barrier(len(calls))
    codes = [0] * len(calls)

    def phone(index: int, path: str, data: dict[str, str]) -> None:
        start.wait()
        codes[index] = table.post(path, data)

    threads = [threading.Thread(target=phone, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return codes


@pytest.fixture
def table(database_url: str, tmp_path: Path) -> Iterator[Table]:
    """A four-player game on a live server with request logging on."""
    app = make_app(database_url, str(tmp_path))
    with app.app_context():
        upgrade()
        game = actions.create_game(MAY_I, ["Anna", "Ben", "Carla", "Dan"], 0)
        game_id, token = game.id, game.edit_token
    with serving(app, WSGIRequestHandler) as base:
        yield Table(app, base, game_id, token)
    with app.app_context():
        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


def test_buys_for_different_players_on_one_version_all_land(table: Table) -> None:
    calls = [("/buys", {"seat": str(seat), "version": "1"}) for seat in range(4)]
    assert at_once(calls, table) == [303] * 4
    assert [table.count(Buy, Buy.seat == seat) for seat in range(4)] == [1, 1, 1, 1]


def test_stale_buys_for_one_player_land_once(table: Table) -> None:
    codes = at_once([("/buys", {"seat": "1", "version": "1"})] * PHONES, table)
    assert sorted(codes) == [303] + [409] * (PHONES - 1)
    assert table.count(Buy) == 1
    assert table.count(Change, Change.kind == "buy") == 1


def test_one_run_out_tapped_on_every_phone_is_recorded_once(table: Table) -> None:
    codes = at_once([("/run-outs", {"seen": "0"})] * PHONES, table)
    assert all(code == 303 for code in codes)
    with table.app.app_context():
        assert db.session.scalar(select(Round.run_outs)) == 1
    assert table.count(Change, Change.kind == "run_out") == 1


def test_competing_round_results_keep_exactly_the_acknowledged_one(table: Table) -> None:
    calls = [
        (
            "/rounds/1",
            {"went_out": "0", "points_1": str(p), "points_2": "5", "points_3": "5", "version": "1"},
        )
        for p in range(10, 10 + PHONES)
    ]
    codes = at_once(calls, table)
    assert codes.count(303) == 1
    assert codes.count(409) == PHONES - 1
    winner = calls[codes.index(303)][1]
    with table.app.app_context():
        stored = db.session.scalar(select(RoundResult.points).where(RoundResult.seat == 1))
    assert stored == int(winner["points_1"])
    assert table.count(Change, Change.kind == "result") == 1


def test_every_acknowledged_change_is_stored_and_no_refused_one(table: Table) -> None:
    calls = [("/buys", {"seat": str(i % 4), "version": "1"}) for i in range(PHONES * 2)]
    codes = at_once(calls, table)
    acknowledged = [calls[i][1]["seat"] for i, code in enumerate(codes) if code == 303]
    assert all(code in (303, 409) for code in codes)
    for seat in range(4):
        assert table.count(Buy, Buy.seat == seat) == acknowledged.count(str(seat)) == 1
    with table.app.app_context():
        assert db.session.scalar(select(Game.version)) == 1 + len(acknowledged)


def test_the_request_log_holds_no_link_token(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("INFO", logger="werkzeug"):
        table.post("/buys", {"seat": "0"})
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert f"/g/{table.game_id}/…/buys" in logged
    assert table.token not in logged
