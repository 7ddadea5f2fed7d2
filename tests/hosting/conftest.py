"""Fixtures for hosting: apps made from the environment, and whole `scorekeeper` processes."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask

from scorekeeper.config import PREFIX, SETTINGS, UNPREFIXED
from scorekeeper.extensions import db
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
