"""The family rating switch: off by default, shown after 5 games, gone when turned off."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.tables.helpers import open_table, start_at
from tests.tables.party_helpers import finish
from tests.web.test_games import text

pytestmark = pytest.mark.storage

NOTE = "a skill estimate from the places of every finished game"


def record(client: FlaskClient, table_url: str) -> str:
    """The table's record as its page fetches it."""
    return text(client.get(f"{table_url}/record").get_data(as_text=True))


def play_games(client: FlaskClient, table_url: str, games: int) -> None:
    """Finish games at the table: Anna first, Ben second, Carla last, each time."""
    for _ in range(games):
        finish(start_at(client, table_url, ["Anna", "Ben", "Carla"]), ["Anna", "Ben", "Carla"])


def test_the_rating_is_off_by_default_and_shows_nothing(client: FlaskClient) -> None:
    table_url = open_table(client)
    play_games(client, table_url, 5)
    assert "Rating" not in record(client, table_url) and NOTE not in record(client, table_url)
    assert "Turn the family rating on" in client.get(table_url).get_data(as_text=True)


def test_a_rating_shows_after_five_games_beside_won_and_played(client: FlaskClient) -> None:
    table_url = open_table(client)
    assert client.post(f"{table_url}/rating", data={"rating": "on"}).status_code == 303
    play_games(client, table_url, 4)
    early = record(client, table_url)
    assert "Played Won Rating" in early and NOTE in early
    assert re.search(r"Anna 4 4 – ", early)  # four games: not shown yet
    play_games(client, table_url, 1)
    shown = record(client, table_url)
    anna = re.search(r"Anna 5 5 (-?\d+\.\d) ", shown)
    carla = re.search(r"Carla 5 0 (-?\d+\.\d) ", shown)
    assert anna and carla and float(anna.group(1)) > float(carla.group(1))
    assert client.post(f"{table_url}/rating", data={"rating": "off"}).status_code == 303
    gone = record(client, table_url)
    assert "Rating" not in gone and NOTE not in gone and anna.group(1) not in gone


def test_expected_places_show_before_an_evenings_round_when_the_rating_is_on(
    client: FlaskClient,
) -> None:
    table_url = open_table(client)
    client.post(f"{table_url}/rating", data={"rating": "on"})
    play_games(client, table_url, 2)
    data = {"new_names": "Dan", "people": ["1", "2", "3"], "ruleset": "may-i"}
    response = client.post(
        f"{table_url}/party", data=data | {"rotation": "mix", "rotate_every": "1"}
    )
    page = text(client.get(response.headers["Location"]).get_data(as_text=True))
    assert "Anna expected place 1" in page and "Carla expected place 4" in page


@pytest.mark.parametrize("value", ["", "maybe", "ON"])
def test_a_bad_rating_switch_is_refused(app: Flask, client: FlaskClient, value: str) -> None:
    table_url = open_table(client)
    assert client.post(f"{table_url}/rating", data={"rating": value}).status_code == 422
    assert "Turn the family rating on" in client.get(table_url).get_data(as_text=True)
