"""Share links never come from a client's Host header (issue 18, item 8).

By default the app answers only the hosts it is served on (what `scorekeeper serve` binds,
`--lan`'s address) and localhost, so every link it builds names one of those; with
SCOREKEEPER_PUBLIC_URL it builds every link from that address, whatever Host is asked.
Each share page (a game's, a table's, a rule set's), on both databases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.databases import apps
from tests.tables.helpers import open_table

EVIL = {"Host": "evil.example"}
LAN = "192.0.2.7"  # the address `serve --lan` would bind


def game_share(client: FlaskClient) -> str:
    """A new game's share page."""
    data = {"ruleset": "may-i", "players-0": "Bartholomeus", "players-1": "Guðmundur"}
    response = client.post("/games/", data=data)
    assert response.status_code == 303
    return str(response.headers["Location"]) + "/share"


def table_share(client: FlaskClient) -> str:
    """A new table's share page."""
    return open_table(client) + "/share"


def rule_set_share(client: FlaskClient) -> str:
    """A new saved rule set's share page."""
    body = {"name": "Marie-Claire's rules", "rules": ruleset_to_dict(MAY_I)}
    saved = client.post("/api/v1/rulesets/saved", json=body)
    assert saved.status_code == 201, saved.get_data(as_text=True)
    created = saved.get_json()
    return f"/house-rules/{created['id']}/{created['token']}/share"


SHARE_PAGES = {"game": game_share, "table": table_share, "rule set": rule_set_share}
LINKED = {"game": "/g/", "table": "/t/", "rule set": "/house-rules/shared?r="}


@pytest.fixture
def app_with(database_url: str, tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Makes the app as a deployment would; closes its connections after."""
    with apps(database_url, str(tmp_path)) as make:
        yield make


@pytest.mark.parametrize("page", SHARE_PAGES)
def test_by_default_a_share_page_asked_with_another_host_is_refused(
    app_with: Callable[..., Flask], page: str
) -> None:
    client = app_with().test_client()
    url = SHARE_PAGES[page](client)
    answer = client.get(url, headers=EVIL)
    assert answer.status_code == 400
    assert "evil.example" not in answer.get_data(as_text=True)
    assert f"http://localhost{LINKED[page]}" in client.get(url).get_data(as_text=True)


@pytest.mark.parametrize("page", SHARE_PAGES)
def test_served_on_the_lan_a_share_page_names_the_lan_address_only(
    app_with: Callable[..., Flask], page: str
) -> None:
    client = app_with(served_on=(LAN,)).test_client()
    url = SHARE_PAGES[page](client)
    shown = client.get(url, headers={"Host": f"{LAN}:8000"}).get_data(as_text=True)
    assert f"http://{LAN}:8000{LINKED[page]}" in shown
    assert client.get(url, headers=EVIL).status_code == 400


@pytest.mark.parametrize("page", SHARE_PAGES)
def test_with_a_public_url_every_host_gets_links_to_it(
    app_with: Callable[..., Flask], page: str
) -> None:
    client = app_with(PUBLIC_URL="https://scores.example.org/scores").test_client()
    url = SHARE_PAGES[page](client)
    # Served under /scores/ (as behind the proxy recipe), asked with a forged Host.
    answer = client.get(url, base_url="http://evil.example/scores")
    shown = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "evil.example" not in shown and 'href="/scores/static/' in shown
    assert f"https://scores.example.org/scores{LINKED[page]}" in shown
    assert "/scores/scores/" not in shown


def test_trusted_hosts_keep_localhost_for_the_machines_own_health_check(
    app_with: Callable[..., Flask],
) -> None:
    client = app_with(TRUSTED_HOSTS=["scores.example.org"]).test_client()
    assert client.get("/healthz", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    assert client.get("/healthz", headers=EVIL).status_code == 400
