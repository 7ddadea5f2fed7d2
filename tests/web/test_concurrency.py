"""Several phones at once, against a real threaded server on SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable

import pytest
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Buy, Change, Game, Round, RoundResult
from tests.conftest import OPENER, LiveGame, at_once, status_of

pytestmark = pytest.mark.storage

PHONES = 6


Form = tuple[str, dict[str, str]]


def post(live_game: LiveGame) -> Callable[[Form], int]:
    """A sender of one form to the game through its edit link; answers the status code."""

    def send(call: Form) -> int:
        path, data = call
        url = f"{live_game.base}/g/{live_game.game_id}/{live_game.token}{path}"
        request = urllib.request.Request(url, data=urllib.parse.urlencode(data).encode())
        return status_of(request, opener=OPENER.open)

    return send


def test_buys_for_different_players_on_one_version_all_land(live_game: LiveGame) -> None:
    calls = [("/buys", {"seat": str(seat), "version": "1"}) for seat in range(4)]
    assert at_once(post(live_game), calls) == [303] * 4
    assert [live_game.count(Buy, Buy.seat == seat) for seat in range(4)] == [1, 1, 1, 1]


def test_stale_buys_for_one_player_land_once(live_game: LiveGame) -> None:
    codes = at_once(post(live_game), [("/buys", {"seat": "1", "version": "1"})] * PHONES)
    assert sorted(codes) == [303] + [409] * (PHONES - 1)
    assert live_game.count(Buy) == 1
    assert live_game.count(Change, Change.kind == "buy") == 1


def test_one_run_out_tapped_on_every_phone_is_recorded_once(live_game: LiveGame) -> None:
    codes = at_once(post(live_game), [("/run-outs", {"seen": "0"})] * PHONES)
    assert all(code == 303 for code in codes)
    with live_game.app.app_context():
        assert db.session.scalar(select(Round.run_outs)) == 1
    assert live_game.count(Change, Change.kind == "run_out") == 1


def test_competing_round_results_keep_exactly_the_acknowledged_one(live_game: LiveGame) -> None:
    calls = [
        (
            "/rounds/1",
            {"went_out": "0", "points_1": str(p), "points_2": "5", "points_3": "5", "version": "1"},
        )
        for p in range(10, 10 + PHONES)
    ]
    codes = at_once(post(live_game), calls)
    assert codes.count(303) == 1
    assert codes.count(409) == PHONES - 1
    winner = calls[codes.index(303)][1]
    with live_game.app.app_context():
        stored = db.session.scalar(select(RoundResult.points).where(RoundResult.seat == 1))
    assert stored == int(winner["points_1"])
    assert live_game.count(Change, Change.kind == "result") == 1


def test_every_acknowledged_change_is_stored_and_no_refused_one(live_game: LiveGame) -> None:
    calls = [("/buys", {"seat": str(i % 4), "version": "1"}) for i in range(PHONES * 2)]
    codes = at_once(post(live_game), calls)
    acknowledged = [calls[i][1]["seat"] for i, code in enumerate(codes) if code == 303]
    assert all(code in (303, 409) for code in codes)
    for seat in range(4):
        assert live_game.count(Buy, Buy.seat == seat) == acknowledged.count(str(seat)) == 1
    with live_game.app.app_context():
        assert db.session.scalar(select(Game.version)) == 1 + len(acknowledged)


def test_the_request_log_holds_no_link_token(
    live_game: LiveGame, caplog: pytest.LogCaptureFixture
) -> None:
    # The served request's line is the access log's (werkzeug's own is left out, one a line),
    # read at its logger: an app that logs to stderr itself stops its lines there.
    access = logging.getLogger("scorekeeper.access")
    access.addHandler(caplog.handler)
    expected = f"/g/{live_game.game_id}/…/buys"
    try:
        with caplog.at_level("INFO", logger="werkzeug"):
            post(live_game)(("/buys", {"seat": "0"}))
            # The line is written once the answer is sent, so it may come just after the phone
            # has it.
            for _ in range(50):
                if any(expected in record.getMessage() for record in caplog.records):
                    break
                time.sleep(0.05)
    finally:
        access.removeHandler(caplog.handler)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert f"/g/{live_game.game_id}/…/buys" in logged
    assert live_game.token not in logged
