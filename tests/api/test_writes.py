"""A change to the round being played answers, and keeps, the game a fresh read shows, and
writes the same history rows as ever: whether it starts from a kept state or from the facts."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.kept import EXTENSION
from scorekeeper.models import Change

from .conftest import Api

pytestmark = pytest.mark.storage

KEPT = EXTENSION  # the app's one cache (kept.py): its kept states among the rest


def round_changes(number: int, version: int) -> list[tuple[str, dict[str, Any], int]]:
    """Every kind of round change in round `number` of a game at `version`: (path, body, the
    answer's status), starting in a round where nothing happened yet."""
    return [
        ("/down", {"seat": 3, "action_id": f"d{number}"}, 201),  # the round's first fact
        ("/buys", {"seat": 1}, 201),
        ("/buys", {"seat": 2, "action_id": f"b{number}"}, 201),
        ("/buys", {"seat": 2, "action_id": f"b{number}"}, 200),  # a retry records nothing
        ("/buys/remove", {"seat": 1, "version": version + 2}, 200),  # before another's buy
        ("/run-outs", {"seen": 0, "action_id": f"r{number}"}, 201),
        ("/down", {"seat": 3, "down": False}, 201),
        ("/down", {"seat": 3, "down": False}, 200),  # taken back already: nothing to change
    ]


def fresh(api: Api) -> Any:
    """The game as a read of its facts shows it (the API's read keeps no state), but for the
    seat links, which only a read (or the start) through the edit link answers."""
    return {**api.state(), "seat_links": None}


def play_round(api: Api, app: Flask, number: int, forget: bool) -> None:
    """Every round change, each answer compared with a fresh read of the game."""
    for path, body, status in round_changes(number, api.version()):
        if forget:  # as on a server process that did not see the game's last version
            app.extensions.pop(KEPT, None)
        answer = api.ok("post", f"{api.url}{path}", body, status=status)
        game = answer.get("game", answer)
        assert game == fresh(api), path


@pytest.mark.parametrize("forget", [False, True], ids=["kept", "read"])
def test_each_round_change_answers_what_a_fresh_read_shows(
    app: Flask, api: Api, forget: bool
) -> None:
    api.start(ruleset="unlimited-buys")
    play_round(api, app, 1, forget)
    state = fresh(api)
    assert state["current_round"]["buys"][2]["bought"] == 1
    assert state["current_round"]["down"] == [] and state["current_round"]["run_outs"] == 1
    api.end_round(1, "Anna", {"Ben": 5, "Carla": 5, "Dev": 5})
    play_round(api, app, 2, forget)  # round 2: a round after a played one


def test_a_tiebreaker_round_row_names_the_tied_players(app: Flask, api: Api) -> None:
    api.start(players=["Anna", "Ben", "Carla"], ruleset="unlimited-buys")
    for number in range(1, 7):
        out, other = ("Anna", "Carla") if number % 2 else ("Carla", "Anna")
        api.end_round(number, out, {other: 10, "Ben": 50})
    api.end_round(7, "Ben", {"Anna": 5, "Carla": 5})
    answer = api.ok("post", f"{api.url}/buys", {"seat": 2}, status=201)
    assert answer == fresh(api)
    assert answer["current_round"]["seats"] == [0, 2]
    final = api.end_round(8, "Carla", {"Anna": "JK 5S"}).json
    assert final["finished"] is True and final["rounds"][-1]["is_tiebreaker"] is True


def test_round_changes_write_the_history_rows_undo_reads(app: Flask, api: Api) -> None:
    api.start(ruleset="unlimited-buys")
    for path, body, _status in round_changes(1, 1):
        api.call("post", f"{api.url}{path}", body)
    with app.app_context():
        rows = db.session.execute(
            select(
                Change.kind,
                Change.action_id,
                Change.round_number,
                Change.seat,
                Change.before,
                Change.after,
                Change.version,
                Change.before.is_(None),
                Change.after.is_(None),
                Change.undone_at,
            ).order_by(Change.id)
        ).all()
    buys = [row.after["buy_id"] for row in rows if row.kind == "buy"]
    assert [tuple(row[:4]) for row in rows] == [
        ("create", None, None, None),
        ("down", "d1", 1, 3),
        ("buy", None, 1, 1),
        ("buy", "b1", 1, 2),
        ("buy_removed", None, 1, 1),
        ("run_out", "r1", 1, None),
        ("down_removed", None, 1, 3),
    ]
    assert [(row.before, row.after) for row in rows[1:]] == [
        ({"down": []}, {"down": [3]}),
        (None, {"buy_id": buys[0]}),
        (None, {"buy_id": buys[1]}),
        (None, None),
        ({"run_outs": 0}, {"run_outs": 1}),
        ({"down": [3]}, {"down": []}),
    ]
    # Facts not given are SQL NULL, as the ORM wrote them; every change bumped the version.
    assert [tuple(row[7:9]) for row in rows[2:5]] == [(True, False), (True, False), (True, True)]
    assert [row.version for row in rows] == list(range(1, 8)) == [*range(1, 7), api.version()]
    assert all(row.undone_at is None for row in rows)
    for _ in range(3):  # each undone from its row, newest first
        api.ok("post", f"{api.url}/undo", {})
    current = fresh(api)["current_round"]
    assert [seat["bought"] for seat in current["buys"]] == [0, 1, 1, 0]
    assert (current["down"], current["run_outs"]) == ([3], 0)
