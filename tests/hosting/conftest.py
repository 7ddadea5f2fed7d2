"""Fixtures for hosting: apps made from the environment, and whole `scorekeeper` processes."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
import redis
from flask import Flask

from scorekeeper.config import PREFIX, SETTINGS, UNPREFIXED
from scorekeeper.extensions import db
from tests.conftest import ADMIN_URL
from tests.databases import make_app


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No SCOREKEEPER_* setting from the shell that runs the tests; set the ones a test needs."""
    for setting in SETTINGS:
        monkeypatch.delenv(PREFIX + setting.name, raising=False)
        monkeypatch.delenv(UNPREFIXED.get(setting.name, PREFIX + setting.name), raising=False)
    return monkeypatch


@pytest.fixture
def app_from(
    database_url: str, tmp_path: Path, clean_environment: pytest.MonkeyPatch
) -> Iterator[Callable[..., Flask]]:
    """Makes the app once the test has set its environment; closes its connections after."""
    made: list[Flask] = []

    def make(**overrides: object) -> Flask:
        made.append(make_app(database_url, str(tmp_path), **overrides))
        return made[-1]

    yield make
    for app in made:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture(scope="session")
def redis_url() -> str:
    """Redis on 127.0.0.1:6379; skipped (or failed in CI) when it does not answer."""
    url = "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.ConnectionError:
        if os.environ.get("SCOREKEEPER_REQUIRE_REDIS"):
            pytest.fail(f"Redis not reachable at {url}")
        pytest.skip(f"Redis not reachable at {url}")
    return url


@pytest.fixture
def empty_url(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A database of the same kind that nothing ever touched: the instance to restore into."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored' / 'scorekeeper.db'}"
        return
    name = f"scorekeeper_restore_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
