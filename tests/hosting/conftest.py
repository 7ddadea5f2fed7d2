"""Fixtures for hosting: apps made from the environment, and whole `scorekeeper` processes."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import redis
from flask import Flask

from scorekeeper.config import PREFIX, SETTINGS, UNPREFIXED
from tests.conftest import ADMIN_URL
from tests.databases import apps


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
    with apps(database_url, str(tmp_path)) as make:
        yield make


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


@contextmanager
def new_postgres_database() -> Iterator[str]:
    """A PostgreSQL database nothing touched yet, dropped afterwards; its URL."""
    name = f"scorekeeper_hosting_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def empty_url(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A database of the same kind that nothing ever touched: the instance to restore into."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored' / 'scorekeeper.db'}"
        return
    with new_postgres_database() as url:
        yield url
