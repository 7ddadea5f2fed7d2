"""Fixtures: the app on each database backend, a client, the CLI runner."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


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
    """A PostgreSQL database for this run: the one CI made, else a temporary one."""
    given = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")
    if given:
        try:
            psycopg.connect(given, connect_timeout=3).close()
        except psycopg.OperationalError as error:
            _unavailable(f"PostgreSQL unreachable at the test URL: {error}", "CI")
        yield given
        return
    name = f"scorekeeper_test_{uuid.uuid4().hex[:8]}"
    try:
        with psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3) as admin:
            admin.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError:
        _unavailable(
            "PostgreSQL not reachable on 127.0.0.1:5432; PostgreSQL tests skipped",
            "SCOREKEEPER_REQUIRE_POSTGRES",
        )
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Each database test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'scorekeeper.db'}"
    return str(request.getfixturevalue("postgres_url"))


def make_app(database_url: str, instance_path: str, **overrides: object) -> Flask:
    """An app for tests on the given database, CSRF off unless asked for."""
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-only-secret",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "WTF_CSRF_ENABLED": False,
        **overrides,
    }
    app = create_app(config)
    app.instance_path = instance_path
    return app


@pytest.fixture
def app(database_url: str, tmp_path: os.PathLike[str]) -> Iterator[Flask]:
    """The app with its schema built by the real migrations, torn down after."""
    app = make_app(database_url, str(tmp_path))
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        from scorekeeper.extensions import db

        db.session.remove()
        downgrade(revision="base")
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for the app's CLI commands."""
    return app.test_cli_runner()
