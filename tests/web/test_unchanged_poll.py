"""The unchanged poll read in front of Flask: right answers, and the pool left as it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select, text

from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I
from scorekeeper.unchanged_poll import Links, LinksReader
from tests.databases import make_app
from tests.web.test_games import HX, PLAYERS


@pytest.fixture
def one_connection(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The app with a pool of one connection: the poll's and the next request's are the same."""
    app = make_app(
        database_url, str(tmp_path), SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0}
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def links_of(game: Game) -> Links:
    """What the reader should answer for a game."""
    return Links(game.version, game.edit_token, game.view_token)


def test_the_reader_answers_a_games_version_and_links(one_connection: Flask) -> None:
    with one_connection.app_context():
        game = actions.create_game(MAY_I, PLAYERS, 0)
        reader = LinksReader(db.engine)
        assert reader.read(game.id) == links_of(game)
        assert reader.read(game.id + 1) is None


def test_a_poll_leaves_its_pooled_connection_transactional(one_connection: Flask) -> None:
    """On PostgreSQL the read runs in autocommit; the next request's transaction must not."""
    with one_connection.app_context():
        game = actions.create_game(MAY_I, PLAYERS, 0)
        url = f"/g/{game.id}/{game.edit_token}/version?v={game.version}"
        db.session.remove()
    assert one_connection.test_client().get(url, headers=HX).data == b""
    with one_connection.app_context():
        db.session.execute(text("UPDATE game SET version = version + 100"))
        db.session.rollback()  # in a transaction, so nothing is kept
        assert db.session.scalar(select(Game.version)) == 1


def test_a_failed_read_goes_on_to_flask_and_spoils_no_connection(one_connection: Flask) -> None:
    with one_connection.app_context():
        game = actions.create_game(MAY_I, PLAYERS, 0)
        reader = LinksReader(db.engine)
        good, reader.sql = reader.sql, reader.sql.replace("FROM game", "FROM no_such_table")
        assert reader.read(game.id) is None  # the driver's error: Flask answers this poll
        reader.sql = good
        assert reader.read(game.id) == links_of(game)
