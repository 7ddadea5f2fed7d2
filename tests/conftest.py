"""Fixtures: the app on each database backend, a client, the CLI runner."""

from __future__ import annotations

import os
import re
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings
from sqlalchemy import func, make_url, select
from werkzeug.serving import WSGIRequestHandler, make_server
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.games import actions, seat_links
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I
from tests import figures
from tests.databases import PostgresDatabase, close, make_app, sqlite_copy, sqlite_template

Call = TypeVar("Call")
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
BACKENDS = ("sqlite", "postgresql")


def xdist_worker() -> str | None:
    """This process's pytest-xdist worker id ("gw0", …), None when the run is not split."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def _require(variable: str) -> bool:
    """Whether CI asked for this dependency to fail rather than skip when missing."""
    return bool(os.environ.get(variable))


def _unavailable(reason: str, variable: str) -> None:
    """Skip with a one-line reason, or fail when CI requires the dependency."""
    if _require(variable):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL database for this run: the one CI made, else a temporary one.

    Under pytest-xdist each worker empties its database before every test, so each gets
    its own: CI's database name with the worker's id appended, on the same server.
    """
    given, worker = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL"), xdist_worker()
    if given:
        try:
            psycopg.connect(given, connect_timeout=3).close()
        except psycopg.OperationalError as error:
            _unavailable(f"PostgreSQL unreachable at the test URL: {error}", "CI")
        if worker is None:
            yield given
            return
    server = make_url(given or ADMIN_URL)
    name = f"{server.database}_{worker}" if given else f"scorekeeper_test_{uuid.uuid4().hex[:8]}"
    admin_url = server.render_as_string(hide_password=False)
    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=3) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            admin.execute(f"CREATE DATABASE {name}")
            # A test's commit need not wait for the disk: the server is not what a test
            # crashes (tests/attacks/test_crash.py kills the app), and nothing outlives the run.
            admin.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
    except psycopg.OperationalError:
        _unavailable(
            "PostgreSQL not reachable on 127.0.0.1:5432; PostgreSQL tests skipped",
            "SCOREKEEPER_REQUIRE_POSTGRES",
        )
    yield server.set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def postgres_database(
    postgres_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[PostgresDatabase]:
    """The run's PostgreSQL database, migrated once."""
    database = PostgresDatabase(postgres_url, str(tmp_path_factory.mktemp("postgres")))
    yield database
    database.close()


@pytest.fixture(scope="session")
def sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated once, for each test to copy."""
    return sqlite_template(tmp_path_factory.mktemp("template"))


def pytest_addoption(parser: pytest.Parser) -> None:
    """--both-databases: the PostgreSQL twin of every database test, to check a test's mark."""
    parser.addoption(
        "--both-databases",
        action="store_true",
        help="run every database test on SQLite and PostgreSQL, not only those marked storage",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The PostgreSQL twin: a storage test runs on both databases, any other on SQLite alone.

    A test that only checks what a page or an answer says, given the facts, gains nothing from
    a second database; one whose outcome the database decides is marked `storage`.
    """
    if "database_url" not in metafunc.fixturenames:
        return
    both = metafunc.config.getoption("both_databases") or metafunc.definition.get_closest_marker(
        "storage"
    )
    metafunc.parametrize("database_url", BACKENDS if both else BACKENDS[:1], indirect=True)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """An empty, migrated database: SQLite, or PostgreSQL too for a storage test.

    The migrations run once per run (tests/web/test_migrations.py checks them from empty to
    head and back): SQLite gives each test its own copy, PostgreSQL is emptied before each test.
    """
    if request.param == "sqlite":
        template = request.getfixturevalue("sqlite_migrated")
        return sqlite_copy(template, tmp_path_factory.mktemp("db"))
    database: PostgresDatabase = request.getfixturevalue("postgres_database")
    return database.clean()


# The files that take longest (make test's --durations list, docs/TESTING.md), run first: each
# file stays on one worker, and one of these started last would leave the others idle.
LONGEST_FIRST = (
    "tests/api/test_fuzz.py",
    "tests/api/test_fuzz_off_document.py",
    "tests/attacks/test_form_fuzz.py",
    "tests/browser/",
    "tests/hosting/",
)


def _start_rank(item: pytest.Item) -> int:
    """Where an item's file comes in LONGEST_FIRST; after all of them if it is not there."""
    path = item.nodeid.split("::", 1)[0]
    ranks = (rank for rank, start in enumerate(LONGEST_FIRST) if path.startswith(start))
    return next(ranks, len(LONGEST_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (a stable sort: each file's own order is kept)."""
    items.sort(key=_start_rank)


class QuietHandler(WSGIRequestHandler):
    """Serve requests without logging each one to the test output."""

    def log_request(self, *args: object, **kwargs: object) -> None:
        pass


@contextmanager
def serving(app: Flask, handler: type[WSGIRequestHandler] = QuietHandler) -> Iterator[str]:
    """Serve the app on a free local port in threads, as a real server would; yield its URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=handler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


def count(app: Flask, model: type, *where: object) -> int:
    """Rows of a model in the database, read afresh."""
    with app.app_context():
        found = db.session.scalar(select(func.count()).select_from(model).where(*where)) or 0
        db.session.remove()
        return found


def seat_tokens(app: Flask, game_id: int = 1) -> dict[int, str]:
    """Each seat's current link token."""
    with app.app_context():
        found = seat_links.links_of(game_id)
        db.session.remove()
        return found


def game_links(app: Flask, game_id: int = 1) -> tuple[str, str]:
    """A game's edit and view tokens."""
    with app.app_context():
        game = db.session.get_one(Game, game_id)
        return game.edit_token, game.view_token


def version_of(app: Flask, game_id: int = 1) -> int:
    """A game's version as stored."""
    with app.app_context():
        found = db.session.scalar(select(Game.version).where(Game.id == game_id))
        db.session.remove()
        assert found is not None
        return int(found)


@dataclass
class LiveGame:
    """A four-player game on a real threaded server, and how to reach it."""

    app: Flask
    base: str
    game_id: int
    token: str

    def count(self, model: type, *where: object) -> int:
        """Rows of a model, read afresh."""
        return count(self.app, model, *where)


@pytest.fixture
def live_game(database_url: str, tmp_path: Path) -> Iterator[LiveGame]:
    """A game served for real, with request logging on, on each database."""
    app = make_app(database_url, str(tmp_path))
    with app.app_context():
        game = actions.create_game(MAY_I, ["Anna", "Ben", "Carla", "Dan"], 0)
        game_id, token = game.id, game.edit_token
    with serving(app, WSGIRequestHandler) as base:
        yield LiveGame(app, base, game_id, token)
    close(app)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keep a 303 as the answer: it is how a plain form says "done"."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


OPENER = urllib.request.build_opener(_NoRedirect)


def status_of(
    request: urllib.request.Request | str, timeout: float = 30, opener: Any = urllib.request.urlopen
) -> int:
    """Send a request to a live server; its status code, an HTTP error's too."""
    try:
        with opener(request, timeout=timeout) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as answer:
        return int(answer.code)


def at_once(send: Callable[[Call], int], calls: list[Call]) -> list[int]:
    """Send every call from its own thread, released together; the status codes in order."""
    start, codes = threading.Barrier(len(calls)), [0] * len(calls)

    def phone(index: int) -> None:
        start.wait()
        codes[index] = send(calls[index])

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return codes


@pytest.fixture
def app(database_url: str, tmp_path: os.PathLike[str]) -> Iterator[Flask]:
    """The app on an empty database with the migrations' schema; its connections closed after."""
    app = make_app(database_url, str(tmp_path))
    yield app
    close(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for the app's CLI commands."""
    return app.test_cli_runner()


class Table:
    """Plays steps of a game through the web forms, as a table would."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.url = ""
        self.names: list[str] = []

    def start(self, players: list[str], ruleset: str = "may-i", first_dealer: str = "0") -> str:
        """Start a game and remember its URL."""
        data = {f"players-{i}": name for i, name in enumerate(players)}
        response = self.client.post(
            "/games/", data={"ruleset": ruleset, "first_dealer": first_dealer, **data}
        )
        assert response.status_code == 303, response.get_data(as_text=True)
        self.url, self.names = response.headers["Location"], players
        return self.url

    def seat(self, name: str) -> int:
        """The seat of a player by name."""
        return self.names.index(name)

    def buy(self, name: str, **extra: str) -> TestResponse:
        """Press a player's Buy button."""
        return self.client.post(f"{self.url}/buys", data={"seat": self.seat(name), **extra})

    def run_out(self, seen: int | None = None) -> TestResponse:
        """Press "The stock ran out"."""
        data = {} if seen is None else {"seen": str(seen)}
        return self.client.post(f"{self.url}/run-outs", data=data)

    def end_round(
        self,
        number: int,
        out: str | None,
        hands: dict[str, int | str],
        cut: str | None = None,
        anyway: bool = False,
    ) -> TestResponse:
        """Submit the end-of-round form: points as ints, tapped cards as "K JK" strings;
        `anyway` presses "Save anyway" when the round is held for its warnings."""
        data = {"went_out": "stock" if out is None else str(self.seat(out))}
        for name, hand in hands.items():
            key = "cards" if isinstance(hand, str) else "points"
            data[f"{key}_{self.seat(name)}"] = str(hand)
        if cut is not None:
            data["cut_bonus_seat"] = str(self.seat(cut))
        response = self.client.post(f"{self.url}/rounds/{number}", data=data)
        held = re.search(r'name="confirm_warnings" value="([^"]*)"', response.get_data(True))
        if anyway and response.status_code == 422 and held:
            confirmed = {**data, "confirm_warnings": held.group(1)}
            response = self.client.post(f"{self.url}/rounds/{number}", data=confirmed)
        return response

    def page(self, path: str = "") -> str:
        """The text of a page of this game."""
        response = self.client.get(self.url + path)
        assert response.status_code == 200
        return response.get_data(as_text=True)


@pytest.fixture
def table(client: FlaskClient) -> Table:
    """A table that plays through the web forms."""
    return Table(client)


# A shared, loaded machine can take longer than hypothesis' 200 ms for one example; the
# properties are what these tests check, never the time (speed lives in bench/).
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands its attacks' figures to the controller, which prints them."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["figures"] = dict(figures.FIGURES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """The controller adds up the figures of each worker as it finishes."""
    figures.merge(node.workeroutput.get("figures", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print what the attacks sent and what they found, one line each, for the CI log."""
    for line in figures.lines():
        terminalreporter.write_line(line)
