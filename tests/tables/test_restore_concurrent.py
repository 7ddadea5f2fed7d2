"""Restores at once take their turn and succeed; a restore keeps no phone's buy waiting.

Before, on SQLite, two different restores at once failed with "database is locked" reported
as "The backup holds a fact twice or out of range" (a lock is no bad data), and a restore
held the write lock while the rules read its games, so a buy elsewhere waited out SQLite's
busy timeout (5 s) and failed with 503.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.database import IMMEDIATE
from scorekeeper.extensions import db
from scorekeeper.models import CardTable, Game
from scorekeeper.rules import game_state as game_states
from tests.conftest import at_once, count
from tests.tables.backups import backup_of, empty, encoded, stored_facts, upload
from tests.tables.helpers import BEN_WINS, open_table, play, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


def tables_played(client: FlaskClient, count: int) -> list[bytes]:
    """Backups of `count` different tables, each with a finished game."""
    files = []
    for number in range(count):
        url = open_table(client, f"Club {number}")
        play(start_at(client, url, PLAYERS), BEN_WINS[: 1 + number % 7])
        files.append(encoded(backup_of(client, url)))
    return files


def test_different_restores_at_once_wait_their_turn_and_succeed(
    app: Flask, client: FlaskClient
) -> None:
    files = tables_played(client, 8)
    empty(app)
    pages: list[str] = [""] * len(files)

    def restore(index: int) -> int:
        response = upload(app.test_client(), files[index])
        pages[index] = text(response.get_data(as_text=True))
        return response.status_code

    assert at_once(restore, list(range(len(files)))) == [303] * len(files), pages
    assert count(app, CardTable) == 8 and count(app, Game) == 8


def test_the_same_file_restored_twice_at_once_is_stored_once(
    app: Flask, client: FlaskClient
) -> None:
    file = tables_played(client, 1)[0]
    empty(app)
    browsers = [app.test_client() for _ in range(4)]
    assert at_once(lambda b: upload(b, file).status_code, browsers) == [303] * 4
    assert count(app, CardTable) == 1 and count(app, Game) == 1
    said = [text(b.get("/").get_data(as_text=True)) for b in browsers]
    assert sum("New games: 1." in page for page in said) == 1
    assert sum("nothing was added" in page for page in said) == 3


def test_a_restore_keeps_no_buy_waiting_while_the_rules_read_its_games(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tables_played(client, 1)[0]
    empty(app)
    other = start_at(client, open_table(client, "Another table"), PLAYERS)
    answered: dict[str, Any] = {}
    score_round = game_states.score_round

    def buy_meanwhile() -> None:
        answered["buy"] = other.buy("Ben").status_code

    def scoring(*args: Any, **kwargs: Any) -> Any:
        # While the restore scores its games, another phone buys at another table.
        if "buy" not in answered and threading.current_thread().name != "phone":
            answered["buy"] = None
            phone = threading.Thread(target=buy_meanwhile, name="phone")
            phone.start()
            phone.join(timeout=30)
        return score_round(*args, **kwargs)

    monkeypatch.setattr(game_states, "score_round", scoring)
    restored = upload(app.test_client(), file)
    assert restored.status_code == 303
    assert answered["buy"] == 303  # before: 503 after waiting out the lock
    assert len(stored_facts(app)["buy"]) == 1 and count(app, Game) == 2


def test_a_lock_is_never_reported_as_bad_data(
    app: Flask, client: FlaskClient, database_url: str
) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("SQLite's database lock: PostgreSQL locks rows, and restores wait on theirs")
    file = tables_played(client, 1)[0]
    empty(app)
    with app.app_context():
        db.engine.dispose()  # new connections wait a moment for the write lock, not 5 s
        event.listen(db.engine, "connect", _short_busy_timeout)
        holder = db.engine.connect().execution_options(**{IMMEDIATE: True})
        writing = holder.begin()  # another process holds the write lock, and goes on
    try:
        response = upload(app.test_client(), file)
    finally:
        writing.rollback()
        holder.close()
    assert response.status_code == 503
    assert "twice" not in text(response.get_data(as_text=True))
    assert upload(app.test_client(), file).status_code == 303  # once it is free, it restores


def _short_busy_timeout(dbapi_connection: Any, _record: Any) -> None:
    """Wait 200 ms for SQLite's write lock (after the app's own settings)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=200")
    cursor.close()
