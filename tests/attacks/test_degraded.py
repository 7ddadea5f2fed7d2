"""A database that cannot write: a clear 503 in the table's language, and reads keep working."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.models import Buy
from tests.conftest import Table

pytestmark = pytest.mark.storage


@contextmanager
def read_only(app: Flask) -> Iterator[None]:
    """Every new connection refuses writes, as a read-only or full disk would."""
    with app.app_context():
        engine = db.engine
        sqlite = engine.dialect.name == "sqlite"

        def refuse_writes(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            if sqlite:
                cursor.execute("PRAGMA query_only = ON")
            else:
                cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
                connection.commit()  # a SET inside a rolled-back transaction is undone
            cursor.close()

        event.listen(engine, "connect", refuse_writes)
        db.session.remove()
        engine.dispose()
    try:
        yield
    finally:
        with app.app_context():
            event.remove(engine, "connect", refuse_writes)
            db.session.remove()
            engine.dispose()


def test_a_read_only_database_answers_503_in_the_tables_language(app: Flask, table: Table) -> None:
    url = table.start(["Anna", "Ben", "Carla"])
    german = {"Accept-Language": "de"}
    with read_only(app):
        for path in ("", "/sheet", "/share"):
            assert table.client.get(url + path).status_code == 200
        page = table.client.post(url + "/buys", data={"seat": "1"}, headers=german)
        api = table.client.post(
            "/api/v1/games", json={"ruleset": "may-i", "players": ["A", "B"]}, headers=german
        )
        new_game = table.client.post(
            "/games/", data={"ruleset": "may-i", "players-0": "X", "players-1": "Y"}
        )
    assert page.status_code == 503 and page.headers["Retry-After"] == "5"
    assert "Konnte nicht speichern" in page.get_data(as_text=True)
    assert api.status_code == 503 and api.mimetype == "application/problem+json"
    assert "Konnte nicht speichern" in api.json["detail"]
    assert new_game.status_code == 503
    assert table.client.post(url + "/buys", data={"seat": "1"}).status_code == 303
    with app.app_context():
        assert db.session.query(Buy).count() == 1
