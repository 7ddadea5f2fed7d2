"""Buys and the "May I?" arbiter through the JSON API (RULES.md 4)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict

from .conftest import POINTS, Api, assert_problem, buys_of


def test_a_buy_is_added_with_201_and_counted_against_the_cap(api: Api) -> None:
    api.start()
    response = api.buy("Ben")
    assert response.status_code == 201
    current = response.json["current_round"]
    assert current["buys"][1] == {"seat": 1, "bought": 1, "left": 2}
    assert current["last_buyer"] == 1
    assert response.json["version"] == 2


def test_a_seat_written_1_0_is_seat_1_as_json_schema_reads_it(api: Api) -> None:
    api.start()
    response = api.call("post", f"{api.url}/buys", {"seat": 1.0, "version": 1.0})
    assert response.status_code == 201
    assert response.json["current_round"]["buys"][1]["bought"] == 1


def test_fourth_buy_in_a_round_is_refused_and_the_count_stays_three(api: Api) -> None:
    api.start()
    for _ in range(3):
        assert api.buy("Ben").status_code == 201
    problem = assert_problem(api.buy("Ben"), 422, "seat")
    assert problem["errors"]["seat"] == ["The limit of 3 buys per round is reached."]
    assert problem["detail"] == "The limit of 3 buys per round is reached."
    state = api.state()
    assert buys_of(state) == [0, 3, 0, 0]
    assert state["version"] == 4


def test_a_double_tap_with_one_action_id_adds_one_buy(api: Api) -> None:
    api.start()
    assert api.buy("Carla", action_id="tap-1").status_code == 201
    again = api.buy("Carla", action_id="tap-1")
    assert again.status_code == 200
    assert buys_of(again.json) == [0, 0, 1, 0]


def test_a_mis_tapped_buy_is_taken_back(api: Api) -> None:
    api.start()
    api.buy("Dev")
    state = api.ok("post", f"{api.url}/buys/remove", {"seat": 3})
    assert buys_of(state) == [0, 0, 0, 0]
    assert api.history()[0] == "Round 1: a buy by Dev taken back"


def test_taking_back_a_buy_nobody_made_is_refused(api: Api) -> None:
    api.start()
    problem = assert_problem(api.call("post", f"{api.url}/buys/remove", {"seat": 2}), 422, "seat")
    assert problem["errors"]["seat"] == ["This player has no buy to take back."]


def test_no_buys_rules_refuse_every_buy(api: Api) -> None:
    api.start(ruleset="no-buys")
    problem = assert_problem(api.buy("Ben"), 422, "seat")
    assert problem["errors"]["seat"] == ["There is no buying in this round."]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"seat": 4}, "seat", "There is no seat 4 at this table."),
        ({"seat": -1}, "seat", "There is no seat -1 at this table."),
        ({"seat": "1"}, "seat", "Must be a whole number."),
        ({"seat": True}, "seat", "Must be a whole number."),
        ({"seat": 1.5}, "seat", "Must be a whole number."),
        ({}, "seat", "Required."),
        ({"seat": 1, "action_id": ""}, "action_id", "Must be 1 to 64 characters."),
        ({"seat": 1, "action_id": "x" * 65}, "action_id", "Must be 1 to 64 characters."),
        ({"seat": 1, "player": 2}, "player", "Unknown field."),
    ],
)
def test_a_buy_with_a_bad_seat_is_refused_and_changes_nothing(
    api: Api, body: dict[str, Any], field: str, message: str
) -> None:
    api.start()
    problem = assert_problem(api.call("post", f"{api.url}/buys", body), 422, field)
    assert problem["errors"][field] == [message]
    state = api.state()
    assert buys_of(state) == [0, 0, 0, 0] and state["version"] == 1


def test_the_nearest_caller_clockwise_from_the_discarder_gets_the_card(api: Api) -> None:
    api.start()
    ruling = api.ok("post", f"{api.url}/arbiter", {"discarder": 0, "callers": [3, 2]})
    assert ruling["winner"] == 2 and ruling["is_buy"] is True
    assert ruling["refusals"] == [
        {"seat": 3, "reason": "A caller nearer the discarder's left gets the card."}
    ]
    assert ruling["explanation"] == (
        "The nearest caller clockwise buys the card and takes 1 penalty card."
    )
    assert ruling["recorded"] is False and ruling["game"] is None
    assert buys_of(api.state()) == [0, 0, 0, 0]


def test_the_player_at_turn_who_draws_the_discard_makes_no_buy(api: Api) -> None:
    api.start()
    body = {"discarder": 0, "callers": [1, 3], "turn_player_draws": True, "add_buy": True}
    ruling = api.ok("post", f"{api.url}/arbiter", body)
    assert (ruling["winner"], ruling["is_buy"], ruling["recorded"]) == (1, False, False)
    assert ruling["explanation"] == "The player at turn takes the card as their draw."
    assert ruling["refusals"] == [
        {"seat": 3, "reason": "The player at turn takes the card as their draw."}
    ]


def test_the_arbiter_passes_over_a_caller_out_of_buys_and_adds_the_winners_buy(api: Api) -> None:
    api.start()
    for _ in range(3):
        api.buy("Ben")
    body = {"discarder": 0, "callers": [0, 1, 2], "add_buy": True, "action_id": "call-7"}
    response = api.call("post", f"{api.url}/arbiter", body)
    assert response.status_code == 201
    ruling = response.json
    assert ruling["winner"] == 2 and ruling["recorded"] is True
    assert ruling["refusals"] == [
        {"seat": 0, "reason": "Nobody may buy back their own discard."},
        {"seat": 1, "reason": "The limit of 3 buys per round is reached."},
    ]
    assert buys_of(ruling["game"]) == [0, 3, 1, 0]
    assert api.history()[0] == "Round 1: Carla bought a card"


def test_contract_rummy_refuses_the_buyer_of_the_card_above_the_next_card_down(api: Api) -> None:
    api.start(ruleset="contract-rummy")
    body = {"discarder": 3, "callers": [1], "add_buy": True}
    assert api.call("post", f"{api.url}/arbiter", body).status_code == 201
    below = {"discarder": 3, "callers": [1], "bought_above": 1}
    ruling = api.ok("post", f"{api.url}/arbiter", below)
    assert ruling["winner"] is None
    assert ruling["refusals"] == [{"seat": 1, "reason": "Nobody may buy twice in a row."}]
    assert ruling["explanation"] == "Nobody who called may buy the card."


def test_contract_rummy_lets_the_last_buyer_buy_at_a_later_discard(api: Api) -> None:
    api.start(ruleset="contract-rummy")
    assert api.buy("Ben").status_code == 201
    assert api.buy("Ben").status_code == 201
    ruling = api.ok("post", f"{api.url}/arbiter", {"discarder": 3, "callers": [1, 2]})
    assert (ruling["winner"], ruling["is_buy"]) == (1, True)
    assert buys_of(api.state()) == [0, 2, 0, 0]


def test_the_next_card_down_goes_to_another_caller_and_is_added(api: Api) -> None:
    api.start(ruleset="contract-rummy")
    api.buy("Ben")
    body = {"discarder": 3, "callers": [1, 2], "bought_above": 1, "add_buy": True}
    ruling = api.ok("post", f"{api.url}/arbiter", body, status=201)
    assert ruling["winner"] == 2
    assert buys_of(ruling["game"]) == [0, 1, 1, 0]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"discarder": 9, "callers": [1]}, "discarder"),
        ({"discarder": 0, "callers": [1, 9]}, "callers.1"),
        ({"discarder": 0, "callers": "1"}, "callers"),
        ({"discarder": 0, "callers": [1], "turn_player_draws": "yes"}, "turn_player_draws"),
        ({"callers": [1]}, "discarder"),
        ({"discarder": 0, "callers": [1], "bought_above": 9}, "bought_above"),
    ],
)
def test_the_arbiter_refuses_bad_calls(api: Api, body: dict[str, Any], field: str) -> None:
    api.start()
    assert_problem(api.call("post", f"{api.url}/arbiter", body), 422, field)


def test_after_five_of_five_buys_a_game_the_api_says_none_are_left(api: Api) -> None:
    rules = ruleset_to_dict(MAY_I)
    api.start(ruleset=rules | {"buys": rules["buys"] | {"cap_per_game": 5}})
    for _ in range(3):
        assert api.buy("Ben").status_code == 201
    assert api.state()["current_round"]["buys"][1] == {"seat": 1, "bought": 3, "left": 0}
    api.ok("put", f"{api.url}/rounds/1", {"went_out": 0, "hands": POINTS})
    assert api.state()["current_round"]["buys"][1] == {"seat": 1, "bought": 0, "left": 2}
    assert api.buy("Ben").status_code == 201
    current = api.buy("Ben").json["current_round"]
    assert current["buys"][1] == {"seat": 1, "bought": 2, "left": 0}
    assert current["buys"][2] == {"seat": 2, "bought": 0, "left": 3}
    problem = assert_problem(api.buy("Ben"), 422, "seat")
    assert problem["errors"]["seat"] == ["The limit of 5 buys per game is reached."]


def test_once_the_stock_ended_the_round_the_api_says_no_buy_is_left(api: Api) -> None:
    api.start()
    for seen in (0, 1):
        api.ok("post", f"{api.url}/run-outs", {"seen": seen}, status=201)
    assert [entry["left"] for entry in api.state()["current_round"]["buys"]] == [0, 0, 0, 0]


@pytest.mark.parametrize("field", ["add_buy", "record"])  # record: its deprecated old name
def test_the_arbiter_adds_the_buy_for_the_edit_link_under_either_name(api: Api, field: str) -> None:
    api.start()
    body = {"discarder": 0, "callers": [2], field: True}
    assert_problem(api.with_link(api.links["view_token"], "post", f"{api.url}/arbiter", body), 403)
    ruling = api.ok("post", f"{api.url}/arbiter", body, status=201)
    assert ruling["recorded"] is True and buys_of(ruling["game"]) == [0, 0, 1, 0]
