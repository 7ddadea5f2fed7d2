"""The app shell: home page, security headers, language choice, configuration."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.config import database_url
from scorekeeper.extensions import db
from scorekeeper.rules.presets import PRESETS
from tests.conftest import make_app


def test_home_page_lists_every_rule_set(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for preset in PRESETS.values():
        assert preset.name.replace("?", "") in page.replace("?", "")


def test_every_page_sends_a_strict_content_security_policy(client: FlaskClient) -> None:
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_pages_carry_no_inline_script_or_style(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "<script>" not in page
    assert "style=" not in page
    assert "<style" not in page


def test_htmx_is_served_from_static(client: FlaskClient) -> None:
    response = client.get("/static/vendor/htmx-2.0.11.min.js")
    assert response.status_code == 200
    assert b"htmx" in response.data
    response.close()


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE,de;q=0.9", "de"),
        ("nl", "nl"),
        ("es-ES", "es"),
        ("fr-FR,fr;q=0.9", "fr"),
        ("it", "en"),
        ("", "en"),
    ],
)
def test_language_follows_accept_language(client: FlaskClient, header: str, expected: str) -> None:
    page = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{expected}">' in page


def test_chosen_language_is_remembered_in_a_cookie(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "nl", "next": "/"})
    assert response.status_code == 303
    page = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="nl">' in page


def test_language_switch_refuses_to_redirect_off_site(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "xx", "next": "//evil.example"})
    assert response.headers["Location"] == "/"


def test_sqlite_connections_use_wal_and_foreign_keys(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'pragmas.db'}", str(tmp_path))
    with app.app_context(), db.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize(
    ("variable", "url", "expected"),
    [
        ("SCOREKEEPER_DATABASE_URL", "postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("DATABASE_URL", "postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("DATABASE_URL", "sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
    ],
)
def test_database_url_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, variable: str, url: str, expected: str
) -> None:
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv(variable, url)
    assert database_url("/instance") == expected


def test_database_url_defaults_to_sqlite_in_the_instance_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url("/srv/instance") == "sqlite:////srv/instance/scorekeeper.db"
