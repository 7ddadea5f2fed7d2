"""What one table may learn of another, what reaches logs, and the headers on private pages."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.pages import games as game_pages
from tests.conftest import Table
from tests.databases import apps
from tests.tables.helpers import open_table


@pytest.fixture
def app_with(database_url: str, tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Makes the app with deployment settings; closes its connections after."""
    with apps(database_url, str(tmp_path)) as make:
        yield make


def start(client: FlaskClient, names: list[str]) -> str:
    """Start a game in this browser; its URL."""
    data = {"ruleset": "may-i", **{f"players-{i}": n for i, n in enumerate(names)}}
    response = client.post("/games/", data=data)
    assert response.status_code == 303
    return str(response.headers["Location"])


def test_the_new_game_form_offers_only_names_this_browser_can_open(app: Flask) -> None:
    ours, theirs = app.test_client(), app.test_client()
    start(ours, ["Ourfriend", "Ben"])
    start(theirs, ["Secretneighbour", "Carla"])
    page = ours.get("/games/new").get_data(as_text=True)
    assert "Ourfriend" in page and "Secretneighbour" not in page
    assert "Ourfriend" not in app.test_client().get("/games/new").get_data(as_text=True)


def test_a_replaced_link_no_longer_shows_its_game_at_home(app: Flask) -> None:
    scorer, guest = app.test_client(), app.test_client()
    url = start(scorer, ["Hidden", "Ben"])
    share = scorer.get(url + "/share").get_data(as_text=True)
    view_url = share.split('id="view-url" type="text" readonly value="')[1].split('"')[0]
    assert guest.get(view_url.removeprefix("http://localhost")).status_code == 200
    assert "Hidden" in guest.get("/").get_data(as_text=True)
    assert scorer.post(url + "/links/view").status_code == 303
    assert "Hidden" not in guest.get("/").get_data(as_text=True)
    assert "Hidden" not in guest.get("/games/new").get_data(as_text=True)


def test_a_server_error_on_a_game_url_logs_no_link_token(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = table.start(["Anna", "Ben"])
    token = url.rsplit("/", 1)[1]

    def broken(*_args: object) -> None:
        raise RuntimeError(f"failed on {url}")

    monkeypatch.setattr(game_pages, "open_for_read", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR):
        response = table.client.get(url + "/sheet")
    assert response.status_code == 500
    assert caplog.records and "Exception on /g/" in caplog.text
    assert token not in caplog.text


def test_private_pages_and_the_api_are_never_cached(table: Table, client: FlaskClient) -> None:
    url = table.start(["Anna", "Ben"])
    for path in (url, url + "/sheet", url + "/share", "/api/v1/rulesets", "/games/new", "/"):
        response = client.get(path)
        assert response.headers["Cache-Control"] == "no-store", path
        assert "camera=()" in response.headers["Permissions-Policy"]
    with client.get("/static/css/app.css") as static:
        assert "no-store" not in static.headers.get("Cache-Control", "")


def test_table_pages_are_never_cached(client: FlaskClient) -> None:
    url = open_table(client)
    for path in (url, url + "/record", url + "/share"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "no-store", path


def test_the_session_cookie_is_secure_behind_https(app_with: Callable[..., Flask]) -> None:
    app = app_with(PROXY_HOPS=1)
    client = app.test_client()
    data = {"ruleset": "may-i", "players-0": "Anna", "players-1": "Ben"}
    over_https = client.post("/games/", data=data, headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in over_https.headers["Set-Cookie"]
    plain = app.test_client().post("/games/", data=data)
    assert "Secure" not in plain.headers["Set-Cookie"]
    language = client.post("/language", data={"language": "de"}, base_url="https://localhost")
    assert "Secure" in language.headers["Set-Cookie"]


def test_share_links_use_the_public_address_not_the_host_header(
    app_with: Callable[..., Flask],
) -> None:
    app = app_with(PUBLIC_URL="https://scores.example.org")
    client = app.test_client()
    url = start(client, ["Anna", "Ben"])
    page = client.get(url + "/share", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in page
    assert 'value="https://scores.example.org/g/' in page


def test_table_share_links_use_the_public_address_not_the_host_header(
    app_with: Callable[..., Flask],
) -> None:
    app = app_with(PUBLIC_URL="https://scores.example.org")
    client = app.test_client()
    url = open_table(client)
    page = client.get(url + "/share", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in page
    assert 'value="https://scores.example.org/t/' in page


def test_trusted_hosts_refuse_a_forged_host(app_with: Callable[..., Flask]) -> None:
    app = app_with(TRUSTED_HOSTS=["scores.example.org"])
    client = app.test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"Host": "scores.example.org"}).status_code == 200
