"""Rule sets stored while 1 to 20 rounds were allowed: they load and play; an edit asks 6 to 12."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game, HouseRules
from tests.conftest import Table
from tests.web.test_games import text
from tests.web.test_house_rules import link_of, may_i_form, saved_rules

pytestmark = pytest.mark.storage

HX = {"HX-Request": "true"}


def three_round_set(app: Flask, client: FlaskClient) -> str:
    """A set saved before rule sets were held to 6 to 12 rounds, cut to 3; its link."""
    assert client.post("/house-rules/", data=may_i_form()).status_code == 303
    link = link_of(app)
    with app.app_context():
        saved = db.session.get_one(HouseRules, int(link.split("/")[2]))
        saved.rules_json = {**saved.rules_json, "rounds": saved.rules_json["rounds"][:3]}
        db.session.commit()
    return link


def test_a_three_round_set_opens_with_the_reason_at_rounds(app: Flask, client: FlaskClient) -> None:
    link = three_round_set(app, client)
    assert "Our rules" in client.get("/house-rules/").get_data(as_text=True)
    exported = client.get(f"{link}/rules.json")
    assert exported.status_code == 200 and len(exported.json["rounds"]) == 3
    html = client.get(f"{link}/edit").get_data(as_text=True)
    reason = re.search(r'id="error-rounds">([^<]*)<', html)
    assert reason is not None and reason.group(1) == "Play 6 to 12 rounds."
    assert "Add a round" in html


def test_a_three_round_set_is_copied_as_it_is_but_saved_only_with_six_rounds(
    app: Flask, client: FlaskClient
) -> None:
    link = three_round_set(app, client)
    copy = client.post(f"{link}/duplicate")
    assert copy.status_code == 303
    assert [len(rules.rounds) for _, rules in saved_rules(app)] == [3, 3]
    form = may_i_form()
    for path in [key for key in form if re.match(r"rounds\.[3-6]\.", key)]:
        del form[path]
    refused = client.post(link, data=form)
    assert refused.status_code == 422
    assert "Play 6 to 12 rounds." in refused.get_data(as_text=True)
    assert client.post(link, data=may_i_form()).status_code == 303
    assert sorted(len(rules.rounds) for _, rules in saved_rules(app)) == [3, 7]


def test_a_game_started_with_a_three_round_set_plays_to_its_end(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    link = three_round_set(app, client)
    table.start(["Anna", "Ben"], ruleset=f"house-{link.split('/')[2]}")
    for number in (1, 2, 3):
        assert table.end_round(number, "Anna", {"Ben": 10 * number}).status_code == 303
    page = text(table.page())
    assert "Final standings" in page and "Ben 60" in page
    assert "Round 3" in text(table.page("/sheet"))
    assert "Won by Anna" in text(client.get("/").get_data(as_text=True))


def test_a_game_stored_with_an_older_sets_texts_and_values_still_opens_and_plays(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    """Before texts and values had a top, the editor took 80 characters and any value."""
    table.start(["Anna", "Ben"])
    call = "Darf ich die Karte haben, liebe Oma, bitte?"  # 43 characters, over today's 30
    with app.app_context():
        game = db.session.get_one(Game, int(table.url.split("/")[2]))
        values = {**game.rules_json["scoring"]["values"], "JK": 150}
        scoring = {**game.rules_json["scoring"], "values": values}
        game.rules_json = {**game.rules_json, "buy_call": call, "scoring": scoring}
        db.session.commit()
    assert call in text(table.page())
    assert table.end_round(1, "Anna", {"Ben": "JK JK"}).status_code == 303
    assert "0 300 300" in text(table.page("/sheet"))  # JK JK at 150 each
