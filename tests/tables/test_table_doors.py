"""A table's pages, and a game's sheet, never answer 500 (issues 18.3, 20.1): a round under
way, house rules, odd input.

The record read each game through light rows that lacked the round's down marks, so every
record and person page answered 500 while any game had a fact in its current round; the
table's own start form took only presets (a saved set it offered answered 500) and read
"Move up" as text; a huge `before` overflowed the id column.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select

from scorekeeper.extensions import db
from scorekeeper.models import Buy, Game, Round, RoundResult
from scorekeeper.rules.game_facts import BuyFacts, GameFacts, ResultFacts, RoundFacts
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_from_dict, ruleset_to_dict
from tests.tables.helpers import BEN_WINS, open_table, play, start_at
from tests.tables.test_tables import person_id
from tests.web.test_games import HX, text
from tests.web.test_house_rules import form_of

pytestmark = pytest.mark.storage

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


def every_page(client: FlaskClient, url: str, app: Flask) -> list[int]:
    """The status of the table's page, its record, and each person's page."""
    pages = [url, f"{url}/record", f"{url}/games.csv", f"{url}/backup.json"]
    pages += [f"{url}/people/{person_id(app, name)}" for name in PLAYERS]
    return [client.get(page).status_code for page in pages]


@pytest.mark.parametrize("fact", ["buy", "down", "run-out"])
def test_every_page_of_a_table_opens_while_a_round_is_under_way(
    app: Flask, client: FlaskClient, fact: str
) -> None:
    url = open_table(client)
    play(start_at(client, url, PLAYERS), BEN_WINS)
    game = start_at(client, url, PLAYERS)
    play(game, BEN_WINS[:2])
    if fact == "buy":
        assert game.buy("Carla").status_code == 303
    elif fact == "down":
        marked = client.post(f"{game.url}/down", data={"seat": "2", "down": "1"}, headers=HX)
        assert marked.status_code == 200
    else:
        assert game.run_out().status_code == 303
    assert every_page(client, url, app) == [200] * 8
    record = text(client.get(f"{url}/record").get_data(as_text=True))
    assert "Ben" in record  # the finished game still counts


def test_a_games_facts_carry_every_fact_of_a_game_a_round_a_hand_and_a_buy() -> None:
    """Every state (the record's too) is derived from GameFacts: each must carry what is stored."""
    pairs = ((Game, GameFacts), (Round, RoundFacts), (RoundResult, ResultFacts), (Buy, BuyFacts))
    for model, value in pairs:
        facts = {column.key for column in inspect(model).columns} - {"game_id", "round_id"}
        facts -= {"ended_at", "rules_json"}  # when, not what; the rules are kept as their text
        if model is Buy:
            facts -= {"created_at"}  # when a buy was made decides nothing
        if model is RoundResult:
            facts -= {"id"}
        assert facts <= {f.name for f in dataclasses.fields(value)}, model
    assert "rules_text" in {f.name for f in dataclasses.fields(GameFacts)}


def house_rules(client: FlaskClient) -> str:
    """Save May I? with five buys a game as this browser's house rules; their key."""
    data = ruleset_to_dict(MAY_I) | {"name": "Friday rules"}
    response = client.post("/house-rules/", data=form_of(data, buys__cap_per_game="5"))
    assert response.status_code == 303
    return "house-1"


def test_a_table_plays_a_saved_house_rule_set_into_its_record(
    app: Flask, client: FlaskClient
) -> None:
    key, url = house_rules(client), open_table(client)
    form = client.get(f"{url}/games/new").get_data(as_text=True)
    assert f'value="{key}"' in form and "Friday rules" in form
    data = {"ruleset": key, "first_dealer": "0"}
    data |= {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    response = client.post(f"{url}/games", data=data)
    assert response.status_code == 303, text(response.get_data(as_text=True))
    with app.app_context():
        game = db.session.scalars(select(Game)).one()
        assert game.table_id == 1
        assert ruleset_from_dict(game.rules_json, stored=True).buys.cap_per_game == 5
    played = start_at(client, url, PLAYERS)  # a preset game beside it
    played.url = response.headers["Location"]
    play(played, BEN_WINS)
    record = text(client.get(f"{url}/record").get_data(as_text=True))
    assert "Ben" in record
    body = client.get(f"{url}/games.csv").get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert sum(key in row for row in rows) == len(PLAYERS)  # a row per player of the game
    backup = json.loads(client.get(f"{url}/backup.json").get_data(as_text=True))
    caps = [g["rules"]["buys"]["cap_per_game"] for g in backup["games"]]
    assert 5 in caps


def test_a_tables_start_form_refuses_a_set_this_browser_cannot_open(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    data = {"ruleset": "house-9", "players-0": "Anna", "players-1": "Ben"}
    response = client.post(f"{url}/games", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'value="Anna"' in html and 'value="Ben"' in html  # nothing typed is lost
    with app.app_context():
        assert db.session.query(Game).count() == 0


@pytest.mark.parametrize("move", ["2", "x", "99", "-1", "²", "99999999999999999999"])
def test_move_up_on_a_tables_start_form_keeps_what_was_typed(
    client: FlaskClient, move: str
) -> None:
    url = open_table(client)
    data = {"ruleset": "may-i", "players-0": "Anna", "players-1": "Ben", "players-2": "Carla"}
    response = client.post(f"{url}/games", data={**data, "move": move})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    order = [name for name in ("Anna", "Ben", "Carla") if f'value="{name}"' in html]
    assert len(order) == 3
    if move == "2":
        assert html.index('value="Carla"') < html.index('value="Ben"')


@pytest.mark.parametrize("at_table", [False, True])
def test_a_game_and_a_tables_game_move_up_and_start_with_a_saved_set_in_one_flow(
    app: Flask, client: FlaskClient, at_table: bool
) -> None:
    # Both doors are pages/games.start_from_form: the same answers for the same form.
    key = house_rules(client)
    door = f"{open_table(client)}/games" if at_table else "/games/"
    data = {"ruleset": key, "first_dealer": "0", "players-0": "Anna", "players-1": "Ben"}
    moved = client.post(door, data={**data, "players-2": "Carla", "move": "2"})
    html = moved.get_data(as_text=True)
    assert moved.status_code == 200, text(html)
    assert html.index('value="Carla"') < html.index('value="Ben"')
    assert f'<option selected value="{key}">' in html  # the saved set stays chosen
    started = client.post(door, data={**data, "players-1": "Carla", "players-2": "Ben"})
    assert started.status_code == 303, text(started.get_data(as_text=True))
    with app.app_context():
        game = db.session.scalars(select(Game)).one()
        assert game.table_id == (1 if at_table else None)
        assert ruleset_from_dict(game.rules_json, stored=True).buys.cap_per_game == 5
    assert "Carla" in client.get(started.headers["Location"]).get_data(as_text=True)


@pytest.mark.parametrize(
    "before",
    ["-99999999999999999999", "99999999999999999999", "-1", "0", "2147483648", "x", "1e9", "١"],
)
def test_a_table_page_takes_any_before(client: FlaskClient, before: str) -> None:
    url = open_table(client)
    start_at(client, url, PLAYERS)
    response = client.get(f"{url}?before={before}")
    assert response.status_code == 200


@pytest.mark.parametrize("before", ["-99999999999999999999", "99999999999999999999", "-5"])
def test_a_games_sheet_takes_any_before(client: FlaskClient, before: str) -> None:
    game = start_at(client, open_table(client), PLAYERS)
    assert client.get(f"{game.url}/sheet?before={before}").status_code == 200
