"""A share page whose links point at this computer says so, and how to serve the phones (21.12)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.pages.template_helpers import points_at_this_machine
from tests.attacks.test_privacy import app_with, start  # noqa: F401 (a fixture)
from tests.tables.helpers import open_table
from tests.web.test_games import text

NOTE = "These links point at this computer itself: no other phone can open them."
COMMAND = "scorekeeper serve --lan"


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:5000/g/1/x", True),
        ("http://127.8.9.10/g/1/x", True),
        ("http://localhost:5000/g/1/x", True),
        ("http://[::1]:5000/g/1/x", True),
        ("http://192.168.1.20:5000/g/1/x", False),
        ("https://scores.example.org/g/1/x", False),
        ("http://localhost.example.org/g/1/x", False),
    ],
)
def test_a_loopback_address_is_told_from_one_other_phones_reach(url: str, loopback: bool) -> None:
    assert points_at_this_machine(url) is loopback


def test_share_pages_on_localhost_say_so_and_name_the_command(client: FlaskClient) -> None:
    game = start(client, ["Anna", "Ben"])
    table = open_table(client)
    for page in (client.get(f"{game}/share"), client.get(f"{table}/share")):
        said = text(page.get_data(as_text=True))
        assert NOTE in said and COMMAND in said


def test_share_pages_on_a_public_address_say_nothing_of_it(
    app_with: Callable[..., Flask],  # noqa: F811
) -> None:
    client = app_with(PUBLIC_URL="https://scores.example.org").test_client()
    game = start(client, ["Anna", "Ben"])
    assert NOTE not in text(client.get(f"{game}/share").get_data(as_text=True))
