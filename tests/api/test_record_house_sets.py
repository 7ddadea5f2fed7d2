"""The record's rule-set filter offers the house sets a table has played, by name (issue 20):
filtering by one keeps its games on the record page, on a person's page and in the API."""

from __future__ import annotations

import html
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.rules.presets import MAY_I
from tests.web.test_games import TIED_GAME, text

from .conftest import Api, assert_problem
from .tables import BEN_WINS, TableApi, play
from .test_table_people import as_shown, page_record

# Tables and games written and read back: on both databases.
pytestmark = pytest.mark.storage


def house_game(app: Flask, tables: TableApi, name: str, players: list[str]) -> Api:
    """Save a house set (May I?'s rules under a name) and start a game with it at the table."""
    with app.app_context():
        saved = house_rules.create(name, MAY_I)
        key, token = house_rules.key_of(saved), saved.token
        db.session.remove()
    return tables.start(players, ruleset=key, ruleset_token=token)


@pytest.fixture
def played(app: Flask, tables: TableApi) -> TableApi:
    """Ben wins a May I? game; Anna wins one of "At Oma's"; Eve beats Ben at a house set
    named "May I?" as the preset is, which the preset's filter must not count."""
    tables.open()
    play(tables.start(["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    play(house_game(app, tables, "At Oma's", ["Anna", "Ben", "Carla", "Dan"]), TIED_GAME)
    play(house_game(app, tables, "May I?", ["Eve", "Ben"]), [("Eve", {"Ben": 30})] * 7)
    house_game(app, tables, "Never finished", ["Anna", "Ben"])
    return tables


def played_and_won(record: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Games played and won by name, for those who played any."""
    people = record["people"]
    return {row["person"]["name"]: (row["played"], row["won"]) for row in people if row["played"]}


def test_the_api_lists_the_played_house_sets_and_filters_by_one(played: TableApi) -> None:
    record = played.ok("get", "/record")
    assert record["house_sets"] == ["At Oma's", "May I?", "Never finished"]
    omas = played.ok("get", "/record?ruleset=house:At Oma's")
    assert omas["filters"]["ruleset"] == "house:At Oma's"
    assert played_and_won(omas) == {"Anna": (1, 1), "Ben": (1, 0), "Carla": (1, 0), "Dan": (1, 0)}
    same_name = played.ok("get", "/record?ruleset=house:May I?")
    assert played_and_won(same_name) == {"Eve": (1, 1), "Ben": (1, 0)}
    preset = played.ok("get", "/record?ruleset=may-i")
    assert played_and_won(preset) == {"Anna": (1, 0), "Ben": (1, 1), "Carla": (1, 0), "Dan": (1, 0)}
    assert played_and_won(played.ok("get", "/record?ruleset=house:Never finished")) == {}
    ben = played.ok("get", f"/people/{played.person('Ben')}?ruleset=house:May I?")
    assert (ben["figures"]["played"], [v["other"]["name"] for v in ben["versus"]]) == (1, ["Eve"])


@pytest.mark.parametrize("ruleset", ["house:Nobody's", "house:", "house", "May I?", "house-1"])
def test_a_house_set_the_table_has_not_played_is_refused_at_the_field(
    played: TableApi, ruleset: str
) -> None:
    problem = assert_problem(played.call("get", f"/record?ruleset={ruleset}"), 422, "ruleset")
    assert problem["errors"]["ruleset"] == ["Choose one of the rule sets."]


def test_a_table_without_house_sets_lists_none(tables: TableApi) -> None:
    tables.open()
    play(tables.start(["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    assert tables.ok("get", "/record")["house_sets"] == []
    page = tables.client.get(f"/t/{tables.id}/{tables.links['edit_token']}/record")
    assert "<optgroup" not in page.get_data(as_text=True)


def test_the_record_page_offers_the_house_sets_and_shows_the_apis_figures(
    client: FlaskClient, played: TableApi
) -> None:
    page = client.get(f"/t/{played.id}/{played.links['edit_token']}/record")
    form = html.unescape(page.get_data(as_text=True))
    group = form[form.index('<optgroup label="House rules">') : form.index("</optgroup>")]
    assert "<option value=\"house:At Oma's\">At Oma's</option>" in group
    assert '<option value="house:May I?">May I?</option>' in group
    query = "?ruleset=house%3AAt+Oma%27s"
    shown = page_record(client, played, query)
    figures = played.ok("get", "/record" + query)["people"]
    assert shown == {row["person"]["name"]: as_shown(row) for row in figures}
    assert shown["Anna"][:2] == ["1", "1"]
    selected = html.unescape(client.get(page.request.path + query).get_data(as_text=True))
    assert '<option value="house:At Oma\'s" selected>' in selected
    refused = client.get(page.request.path + "?ruleset=house%3ANobody")
    assert refused.status_code == 422
    assert "Choose one of the rule sets." in refused.get_data(as_text=True)


def test_a_persons_page_filters_by_a_house_set(client: FlaskClient, played: TableApi) -> None:
    person = f"/t/{played.id}/{played.links['edit_token']}/people/{played.person('Eve')}"
    page = html.unescape(client.get(person + "?ruleset=house%3AMay+I%3F").get_data(as_text=True))
    assert '<option value="house:May I?" selected>' in page
    assert "Played 1 Won 1" in text(page)
    assert "Played 0" in text(client.get(person + "?ruleset=may-i").get_data(as_text=True))
