"""The game's version as polls and pages read it: right answers, one moment, the pool intact;
a game's and a seat's unchanged poll answered before Flask, anything else as Flask answers it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine, func, insert, select, text, update
from werkzeug.test import Client

from scorekeeper.config import with_psycopg
from scorekeeper.extensions import db
from scorekeeper.games import actions, seat_links
from scorekeeper.models import Buy, Game, Round
from scorekeeper.rules.presets import MAY_I
from scorekeeper.unchanged_poll import Links, LinksReader, UnchangedPoll
from tests.databases import close, make_app
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
    close(app)


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


def test_a_read_whose_prepared_statement_was_dropped_prepares_it_again(
    one_connection: Flask,
) -> None:
    """psycopg sends DEALLOCATE ALL after a rollback when it has prepared statements of its
    own, which drops the reader's too (libpq_reads)."""
    with one_connection.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLite prepares no statement on its connection")
        game = actions.create_game(MAY_I, PLAYERS, 0)
        reader = LinksReader(db.engine)
        assert reader.read(game.id) == links_of(game)
        live = [row for row in reader.seat_links(game.id) or () if row[1] is not None]
        with db.engine.connect() as connection:  # the pool's one connection, the reader's
            connection.exec_driver_sql("DEALLOCATE ALL")
        assert reader.read(game.id) == links_of(game)
        assert [row for row in reader.seat_links(game.id) or () if row[1] is not None] == live
        assert len(live) == len(PLAYERS)


def test_with_psycopgs_prepare_threshold_none_a_read_prepares_nothing(
    database_url: str, tmp_path: Path
) -> None:
    """Behind PgBouncer before 1.21 in transaction mode an operator turns psycopg's prepared
    statements off (docs/PERFORMANCE.md, PgBouncer); the poll's read then prepares none either."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite prepares no statement on its connection")
    options = {"pool_size": 1, "max_overflow": 0, "connect_args": {"prepare_threshold": None}}
    app = make_app(database_url, str(tmp_path), SQLALCHEMY_ENGINE_OPTIONS=options)
    try:
        with app.app_context():
            game = actions.create_game(MAY_I, PLAYERS, 0)
            reader = LinksReader(db.engine)
            assert reader.read(game.id) == links_of(game)
            live = [row for row in reader.seat_links(game.id) or () if row[1] is not None]
            assert len(live) == len(PLAYERS)
            with db.engine.connect() as connection:  # the pool's one connection, the reader's
                prepared = connection.exec_driver_sql("SELECT name FROM pg_prepared_statements")
                assert prepared.all() == []
    finally:
        close(app)


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
        assert LinksReader(engine).seat_links(1) is None
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


def fast_path(app: Flask) -> UnchangedPoll:
    """The middleware that answers unchanged polls, inside the access log."""
    poll: Any = app.wsgi_app
    while not isinstance(poll, UnchangedPoll):
        poll = poll.inner
    return poll


def answer_of(wsgi: Any, url: str) -> tuple[str, list[tuple[str, str]], bytes]:
    """Status, headers and body a WSGI app gives a poll (htmx's)."""
    answer = Client(wsgi).get(url, headers=HX)
    return answer.status, sorted(answer.headers.to_wsgi_list()), answer.get_data()


@pytest.fixture
def seat_game(app: Flask) -> tuple[int, int, str]:
    """A game with its seats' links: its id, version, and seat 1's link."""
    with app.app_context():
        game = actions.create_game(MAY_I, PLAYERS, 0)
        found = game.id, game.version, seat_links.links_of(game.id)[1]
        db.session.remove()
    return found


def test_a_seats_unchanged_poll_is_answered_before_flask_as_flask_answers_it(
    app: Flask, seat_game: tuple[int, int, str]
) -> None:
    game_id, version, token = seat_game
    url = f"/s/{game_id}/{token}/version?v={version}"
    contexts: list[object] = []
    request_context = app.request_context

    def counted(environ: dict[str, Any]) -> Any:
        contexts.append(environ)
        return request_context(environ)

    app.request_context = counted  # type: ignore[method-assign]
    answered = answer_of(app.wsgi_app, url)
    assert contexts == []  # no request context: Flask never saw it
    assert answered == answer_of(fast_path(app).inner, url)  # Flask's own answer, to the byte
    assert answered[0] == "200 OK" and answered[2] == b""
    assert answer_of(app.wsgi_app, f"/s/{game_id}/{token}/version?v={version - 1}") != answered
    assert len(contexts) == 2  # Flask's own answer, then another version's: Flask's alone


def test_a_seat_link_that_opens_nothing_is_answered_as_flask_answers_it(
    app: Flask, seat_game: tuple[int, int, str]
) -> None:
    """Never "unchanged": an unknown link 404, a replaced one 410, another game's 404."""
    game_id, version, token = seat_game
    with app.app_context():
        other = actions.create_game(MAY_I, PLAYERS, 0)
        others = seat_links.links_of(other.id)[1]
        seat_links.rotate(game_id, 1)
        db.session.remove()
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    for link, status in ((token, "410 GONE"), (wrong, "404 NOT FOUND"), (others, "404 NOT FOUND")):
        url = f"/s/{game_id}/{link}/version?v={version}"
        answered = answer_of(app.wsgi_app, url)
        assert answered[0] == status and answered == answer_of(fast_path(app).inner, url)
