"""From a table's game back to its table, the table named on its new-game form, printing (21.13)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.tables.helpers import open_table, start_at
from tests.web.test_games import text


def test_a_tables_game_links_back_to_the_table_this_browser_opened(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client, "Familie Öztürk")
    client.get(url)  # this browser opens the table: its link is remembered
    game = start_at(client, url, ["Anna", "Ben"])
    page = client.get(game.url).get_data(as_text=True)
    assert f'<a class="button" href="{url}">Back to the table</a>' in page
    # A phone with only the game's link is not given the table's.
    elsewhere = app.test_client().get(game.url).get_data(as_text=True)
    assert "Back to the table" not in elsewhere


def test_a_game_without_a_table_has_no_way_to_one(client: FlaskClient) -> None:
    data = {"ruleset": "may-i", "players-0": "Anna", "players-1": "Ben", "first_dealer": "0"}
    game_url = client.post("/games/", data=data).headers["Location"]
    assert "Back to the table" not in client.get(game_url).get_data(as_text=True)


def test_the_new_game_form_of_a_table_names_the_table(client: FlaskClient) -> None:
    url = open_table(client, "Familie Öztürk")
    page = client.get(f"{url}/games/new").get_data(as_text=True)
    assert "At the table “Familie Öztürk”. Back to the table" in text(page)
    assert f'href="{url}"' in page
    assert "At the table" not in text(client.get("/games/new").get_data(as_text=True))


def test_the_print_page_has_a_print_button_from_a_script_file(client: FlaskClient) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Anna", "Ben"])
    page = client.get(f"{game.url}/print").get_data(as_text=True)
    assert '<button type="button" class="primary" data-print hidden>Print</button>' in page
    assert "/static/js/print.js" in page and "onclick" not in page
