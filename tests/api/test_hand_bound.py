"""A total past what the decks' most valuable cards make for that hand is refused at the
hand through the API as on the form (issue 21.4, docs/RULES.md 6)."""

from __future__ import annotations

from flask import Flask

from scorekeeper.models import RoundResult
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.web.test_games import count
from tests.web.test_hand_bound import HOUSE_300, ROUND_ONE

from .conftest import Api, assert_problem


def test_the_api_refuses_the_same_totals_at_the_hand(app: Flask, api: Api) -> None:
    rules = ruleset_to_dict(MAY_I)
    house = rules | {
        "key": "house",
        "buys": rules["buys"] | {"cap_per_round": 2},
        "scoring": rules["scoring"] | {"values": rules["scoring"]["values"] | {"JK": 25}},
    }
    api.start(ruleset=house)
    api.buy("Carla")
    api.buy("Carla")
    problem = assert_problem(
        api.end_round(1, "Anna", {"Ben": 20, "Carla": 300, "Dev": 30}), 422, "hands.2"
    )
    assert problem["errors"]["hands.2"] == [HOUSE_300]
    assert count(app, RoundResult) == 0
    api.ok(
        "put",
        f"{api.url}/rounds/1",
        {"went_out": 0, "hands": {"1": {"points": 20}, "2": {"points": 250}, "3": {"points": 30}}},
    )


def test_the_api_refuses_166_in_may_i_round_one(api: Api) -> None:
    api.start()
    problem = assert_problem(
        api.end_round(1, "Anna", {"Ben": 166, "Carla": 5, "Dev": 5}), 422, "hands.1"
    )
    assert problem["errors"]["hands.1"] == [ROUND_ONE]
