"""GET /healthz: 200 with a small JSON when the database answers at the migrations' head, 503
when not; never counted as a link miss, and a healthy answer never logged."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import __version__
from scorekeeper.hosting import schema
from tests.databases import migrate

pytestmark = pytest.mark.storage

App = Callable[..., Flask]


def test_a_healthy_instance_answers_200_with_its_version_and_revision(app_from: App) -> None:
    answer = app_from().test_client().get("/healthz")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    [head] = schema.heads()
    assert answer.get_json() == {
        "status": "ok",
        "database": "reachable",
        "schema": "at head",
        "revision": head,
        "version": __version__,
    }


def test_a_schema_behind_the_migrations_answers_503(
    app_from: App, database_url: str, tmp_path: Path
) -> None:
    migrate(database_url, str(tmp_path), revision="-1")
    answer = app_from().test_client().get("/healthz")
    assert answer.status_code == 503
    found = answer.get_json()
    assert found["status"] == "unavailable" and found["schema"] == "not at head"
    assert found["database"] == "reachable" and found["revision"] not in schema.heads()


UNREACHABLE = [
    "postgresql://postgres@127.0.0.1:1/nowhere",
    "sqlite:////no/such/folder/scorekeeper.db",
]


@pytest.mark.parametrize("url", UNREACHABLE)
def test_an_unreachable_database_answers_503(app_from: App, url: str) -> None:
    answer = app_from(SQLALCHEMY_DATABASE_URI=url).test_client().get("/healthz")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert answer.get_json() == {
        "status": "unavailable",
        "database": "unreachable",
        "version": __version__,
    }


@pytest.mark.parametrize("url", UNREACHABLE)
def test_without_a_database_polls_pages_and_changes_answer_503(app_from: App, url: str) -> None:
    client = app_from(SQLALCHEMY_DATABASE_URI=url).test_client()
    token = "Zx9_secretToken-0123456789abcdef"
    bearer = {"Authorization": f"Bearer {token}"}
    answers = [
        client.get(f"/g/1/{token}/version?v=3&on=round", headers={"HX-Request": "true"}),
        client.get(f"/s/1/{token}/version?v=3"),
        client.get(f"/g/1/{token}/sheet"),
        client.get(f"/t/1/{token}"),
        client.post(f"/g/1/{token}/buys", data={"seat": "1"}),
        client.get("/api/v1/games/1", headers=bearer),
        client.post("/api/v1/games", json={"ruleset": "may-i", "players": ["Ann", "Ben"]}),
    ]
    assert [(a.status_code, a.headers.get("Retry-After")) for a in answers] == [(503, "5")] * 7


def test_health_checks_are_never_link_misses(app_from: App) -> None:
    app = app_from(RATELIMIT_ENABLED=True, RATELIMIT_LINK_MISSES="2 per minute")
    client = app.test_client()
    assert all(client.get("/healthz").status_code == 200 for _ in range(20))
    assert [client.get(f"/g/1/guess{i}").status_code for i in range(3)] == [404, 404, 429]


def test_a_healthy_answer_is_never_logged_a_failing_one_is(
    app_from: App, caplog: pytest.LogCaptureFixture
) -> None:
    healthy = app_from().test_client()
    broken = app_from(SQLALCHEMY_DATABASE_URI="sqlite:////no/such/folder/x.db").test_client()
    with caplog.at_level(logging.DEBUG):
        for _ in range(5):
            healthy.get("/healthz").close()
        assert caplog.records == []
        broken.get("/healthz").close()
    assert [r.getMessage().split(" ")[1:4] for r in caplog.records] == [["GET", "/healthz", "503"]]
