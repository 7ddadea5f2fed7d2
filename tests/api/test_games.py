"""Rule sets and starting a game through the JSON API."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I, PRESETS
from scorekeeper.rules.ruleset_json import ruleset_to_dict

from .conftest import PLAYERS, Api, assert_problem


def games_stored(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Game.id))) or 0


def test_rulesets_lists_every_preset_in_full(api: Api) -> None:
    listed = api.ok("get", "/rulesets")
    assert [entry["key"] for entry in listed] == list(PRESETS)
    assert listed[0] == {"key": "may-i", "name": "May I?", "rules": ruleset_to_dict(MAY_I)}


def test_one_ruleset_is_shown_by_its_key(api: Api) -> None:
    shown = api.ok("get", "/rulesets/shanghai")
    assert shown["name"] == "Shanghai Rummy"
    assert shown["rules"]["scoring"]["values"]["JK"] == 50


def test_an_unknown_ruleset_key_is_not_found(api: Api) -> None:
    problem = assert_problem(api.call("get", "/rulesets/poker"), 404)
    assert problem["detail"] == "There is no rule set poker."


def test_starting_a_game_answers_201_with_its_location_and_state(api: Api) -> None:
    response = api.call(
        "post", "/games", {"ruleset": "may-i", "players": PLAYERS, "first_dealer": 1}
    )
    assert response.status_code == 201
    state = response.json
    links = state.pop("links")
    assert response.headers["Location"] == f"/api/v1/games/{state['id']}"
    assert len(links["edit_token"]) >= 32 and links["edit_token"] != links["view_token"]
    seats = state.pop("seat_links")  # the creator holds the edit link: each seat's link too
    assert [seat["name"] for seat in seats] == PLAYERS
    headers = {"Authorization": f"Bearer {links['view_token']}"}
    assert api.client.get(response.headers["Location"], headers=headers).json == {
        **state,
        "seat_links": None,  # never for the view link
    }
    assert state["players"] == [{"seat": i, "name": name} for i, name in enumerate(PLAYERS)]
    assert state["version"] == 1
    assert state["finished"] is False
    assert state["rounds"] == [] and state["totals"] == [0, 0, 0, 0]
    assert state["rules"] == ruleset_to_dict(MAY_I)
    assert state["dealer_was_cut"] is False


def test_the_first_round_shows_its_contract_deal_decks_and_seats(api: Api) -> None:
    current = api.start(first_dealer=1)["current_round"]
    assert current["contract"] == {"books": 2, "runs": 0, "book_length": 3, "run_length": 4}
    assert current["contract_text"] == "2 books"
    assert (current["deal"], current["decks"], current["jokers"]) == (10, 2, 4)
    assert current["total_cards"] == 108
    assert (current["dealer"], current["first_player"], current["cutter"]) == (1, 2, None)
    assert current["buy_cap"] == 3
    assert current["buys"][0] == {"seat": 0, "bought": 0, "left": 3}
    assert (current["number"], current["is_tiebreaker"], current["seats"]) == (
        1,
        False,
        [0, 1, 2, 3],
    )
    assert (current["run_outs"], current["ended_by_stock"], current["warnings"]) == (0, False, [])


def test_liverpool_names_the_cutter_on_the_dealers_right(api: Api) -> None:
    current = api.start(ruleset="liverpool", first_dealer=0)["current_round"]
    assert (current["dealer"], current["cutter"], current["jokers"]) == (0, 3, 3)


def test_eight_players_play_with_three_decks_and_six_jokers(api: Api) -> None:
    names = [f"P{n}" for n in range(8)]
    current = api.start(players=names)["current_round"]
    assert (current["decks"], current["jokers"], current["total_cards"]) == (3, 6, 162)


def test_two_players_are_warned_that_the_call_rarely_triggers(api: Api) -> None:
    current = api.start(players=["Anna", "Ben"])["current_round"]
    assert current["warnings"] == ["The out-of-turn call rarely triggers with 2 players."]


def test_a_null_first_dealer_cuts_for_the_deal_at_random(api: Api) -> None:
    body = {"ruleset": "may-i", "players": PLAYERS, "first_dealer": None}
    state = api.ok("post", "/games", body, status=201)
    assert state["dealer_was_cut"] is True
    assert state["current_round"]["dealer"] in range(4)


def test_a_whole_rule_set_object_starts_a_house_game(api: Api) -> None:
    house = ruleset_to_dict(MAY_I) | {"key": "house", "name": "House rules"}
    house["buys"] = house["buys"] | {"cap_per_round": 1}
    state = api.start(ruleset=house)
    assert state["rules"]["name"] == "House rules"
    assert state["current_round"]["buy_cap"] == 1


def test_a_bad_rule_set_object_is_refused_with_every_field(app: Flask, api: Api) -> None:
    house = ruleset_to_dict(MAY_I) | {"key": "House Rules!", "colour": "red"}
    house["rounds"][0]["deal"] = 0
    problem = assert_problem(
        api.call("post", "/games", {"ruleset": house, "players": PLAYERS}), 422
    )
    assert problem["errors"] == {"ruleset.colour": ["Unknown setting."]}
    del house["colour"]
    problem = assert_problem(
        api.call("post", "/games", {"ruleset": house, "players": PLAYERS}), 422
    )
    assert set(problem["errors"]) == {"ruleset.key", "ruleset.rounds.0.deal"}
    assert games_stored(app) == 0


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"ruleset": "poker"}, "ruleset", "There is no rule set poker."),
        ({"ruleset": 7}, "ruleset", "Give a rule set's key or a whole rule set."),
        ({"players": ["Anna"]}, "players", "At least 2 players sit at one table."),
        (
            {"players": [f"P{n}" for n in range(9)]},
            "players",
            "At most 8 players sit at one table.",
        ),
        ({"players": []}, "players", "Name the players."),
        ({"players": "Anna, Ben"}, "players", "Must be a list."),
        ({"players": ["Anna", "anna"]}, "players.1", "Each player needs a different name."),
        ({"players": ["Anna", " "]}, "players.1", "Must be 1 to 40 characters."),
        ({"players": ["Anna", "x" * 41]}, "players.1", "Must be 1 to 40 characters."),
        ({"players": ["Anna", 7]}, "players.1", "Must be text."),
        ({"first_dealer": 4}, "first_dealer", "There is no seat 4 at this table."),
        ({"first_dealer": "0"}, "first_dealer", "Must be a whole number."),
        ({"decks": 1}, "decks", "May I? is not played with 1 decks by 4."),
        ({"decks": 5}, "decks", "Must be a whole number from 0 to 4."),
        ({"decks": 10**12}, "decks", "Must be a whole number from 0 to 4."),
        ({"colour": "red"}, "colour", "Unknown field."),
    ],
)
def test_a_bad_new_game_is_refused_and_nothing_is_stored(
    app: Flask, api: Api, change: dict[str, Any], field: str, message: str
) -> None:
    body = {"ruleset": "may-i", "players": PLAYERS, "first_dealer": 0} | change
    problem = assert_problem(api.call("post", "/games", body), 422, field)
    assert problem["errors"][field] == [message]
    assert games_stored(app) == 0


def test_a_new_game_without_ruleset_or_players_names_both_as_required(api: Api) -> None:
    problem = assert_problem(api.call("post", "/games", {}), 422)
    assert problem["errors"] == {"ruleset": ["Required."], "players": ["Required."]}


def test_an_unknown_game_opens_with_no_link(api: Api) -> None:
    api.start()
    problem = assert_problem(
        api.call("get", "/games/999"), 401
    )  # as a wrong link: ids tell nothing
    assert problem["detail"] == "No game 999 opens with that link."
    assert_problem(api.call("get", f"/games/{2**63}"), 404)  # past the URL's range: no such URL
    assert_problem(api.call("post", "/games/999/buys", {"seat": 0}), 401)
