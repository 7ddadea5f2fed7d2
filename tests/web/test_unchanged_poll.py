"""The game's version as polls and pages read it: right answers, one moment, the pool intact."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import create_engine, func, insert, select, text, update

from scorekeeper.config import with_psycopg
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Buy, Game, Round
from scorekeeper.rules.presets import MAY_I
from scorekeeper.unchanged_poll import Links, LinksReader
from tests.databases import make_app
from tests.web.test_games import HX, PLAYERS
from tools.nginx_proxy import free_port

pytestmark = pytest.mark.storage


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


def test_a_database_out_of_reach_leaves_the_poll_to_flask(
    database_url: str, tmp_path: Path
) -> None:
    """A new connection that fails raises the driver's own error, which SQLAlchemy's pool does
    not wrap: the poll goes on to Flask (503), never to the server's 500."""
    if database_url.startswith("sqlite"):
        unreachable = f"sqlite:///{tmp_path / 'no-such-folder' / 'scorekeeper.db'}"
    else:
        unreachable = with_psycopg(database_url).replace(":5432/", f":{free_port()}/")
    engine = create_engine(unreachable)
    try:
        assert LinksReader(engine).read(1) is None
    finally:
        engine.dispose()


def test_a_page_reads_the_version_and_the_facts_of_one_moment(one_connection: Flask) -> None:
    """A change committed after a page read the version stays out of the facts it reads then."""
    with one_connection.app_context():
        game = actions.create_game(MAY_I, PLAYERS, 0)
        url, game_id = f"/g/{game.id}/{game.edit_token}", game.id
        db.session.remove()
        other = create_engine(db.engine.url)  # another phone's connection
    try:
        with one_connection.test_request_context(url):
            one_connection.preprocess_request()  # the link check reads the version
            seen = db.session.scalar(select(Game.version).where(Game.id == game_id))
            with other.begin() as connection:  # another phone's buy commits meanwhile
                round_id = connection.execute(
                    insert(Round).values(game_id=game_id, number=1, dealer=0).returning(Round.id)
                ).scalar_one()
                connection.execute(insert(Buy).values(round_id=round_id, seat=1))
                connection.execute(update(Game).values(version=Game.version + 1))
            assert db.session.scalar(select(func.count()).select_from(Buy)) == 0
            assert db.session.scalar(select(Game.version).where(Game.id == game_id)) == seen
            db.session.remove()
    finally:
        other.dispose()
