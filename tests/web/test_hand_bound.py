"""A total past what the decks' most valuable cards make for that hand is refused at the
hand of the end-of-round form (issue 21.4, docs/RULES.md 6; the API's: tests/api)."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.models import RoundResult
from tests.conftest import Table
from tests.web.test_games import PLAYERS, count
from tests.web.test_house_rules import may_i_form, saved_rules

HOUSE = {"scoring.values.JK": "25", "buys.cap_per_round": "2"}
ROUND_ONE = (
    "No hand is worth 166: with 0 buys this player holds at most 11 cards at the end of this "
    "round, and the decks' 11 most valuable cards make 165."
)
HOUSE_300 = (
    "No hand is worth 300: with 2 buys this player holds at most 15 cards at the end of this "
    "round, and the decks' 15 most valuable cards make 250."
)


def hand_errors(html: str, seat: int) -> list[str]:
    """The error messages inside one hand's fieldset of the end-of-round form."""
    found = re.search(rf'<fieldset id="hand-{seat}".*?</fieldset>', html, re.S)
    assert found is not None
    return [unescape(text) for text in re.findall(r'role="alert">(.*?)</p>', found.group(0))]


def test_may_i_round_one_refuses_166_at_the_hand_and_takes_165(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    refused = table.end_round(1, "Anna", {"Ben": 166, "Carla": 20, "Dan": 30})
    assert refused.status_code == 422
    assert hand_errors(refused.get_data(as_text=True), 1) == [ROUND_ONE]
    assert count(app, RoundResult) == 0
    assert (
        table.end_round(1, "Anna", {"Ben": 165, "Carla": 20, "Dan": 30}, anyway=True).status_code
        == 303
    )


def test_a_house_sets_hand_with_two_buys_refuses_300_and_takes_250(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    assert client.post("/house-rules/", data=may_i_form(**HOUSE)).status_code == 303
    [(_, rules)] = saved_rules(app)
    table.start(PLAYERS, ruleset=rules.key)
    table.buy("Carla")
    table.buy("Carla")
    refused = table.end_round(1, "Anna", {"Ben": 20, "Carla": 300, "Dan": 30})
    assert refused.status_code == 422
    assert hand_errors(refused.get_data(as_text=True), 2) == [HOUSE_300]
    assert count(app, RoundResult) == 0
    # Ben made no buy: 11 cards, 4 × 25 + 7 × 15 = 205 at most.
    refused = table.end_round(1, "Anna", {"Ben": 206, "Carla": 250, "Dan": 30})
    assert hand_errors(refused.get_data(as_text=True), 1)[0].endswith("make 205.")
    assert hand_errors(refused.get_data(as_text=True), 2) == []
    assert (
        table.end_round(1, "Anna", {"Ben": 205, "Carla": 250, "Dan": 30}, anyway=True).status_code
        == 303
    )
