"""Saved house rule sets through /api/v1/rulesets/saved (each opened by its own token), and
rule sets checked by /validate."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.games.actions import create_game
from scorekeeper.models import Game, HouseRules
from scorekeeper.rules.presets import ACES_HIGH, MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict

from .conftest import PLAYERS, Api, assert_problem

pytestmark = pytest.mark.storage

HOUSE = ruleset_to_dict(MAY_I) | {"buys": ruleset_to_dict(MAY_I)["buys"] | {"cap_per_game": 5}}


def set_call(api: Api, method: str, url: str, token: str | None, body: Any = None) -> Any:
    """Call a saved set's URL with its own token as the bearer token (None: with no token)."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return getattr(api.client, method)(f"/api/v1{url}", json=body, headers=headers)


def test_a_saved_set_is_created_read_updated_and_deleted_with_its_token(api: Api) -> None:
    response = api.call("post", "/rulesets/saved", {"name": "  Friday  ", "rules": HOUSE})
    assert response.status_code == 201
    created = response.json
    assert response.headers["Location"].endswith(f"/api/v1/rulesets/saved/{created['id']}")
    assert created["name"] == created["rules"]["name"] == "Friday"
    assert created["key"] == f"house-{created['id']}"
    assert created["rules"]["buys"]["cap_per_game"] == 5
    token = created["token"]
    assert len(token) >= 32
    url = f"/rulesets/saved/{created['id']}"
    assert set_call(api, "get", url, token).json == created
    updated = set_call(api, "put", url, token, {"name": "Saturday", "rules": "aces-high"}).json
    assert updated["name"] == "Saturday" and updated["rules"]["melds"]["aces"] == "high_or_low"
    assert updated["created_at"] == created["created_at"]
    assert updated["updated_at"] >= created["updated_at"]
    assert set_call(api, "delete", url, token).json["name"] == "Saturday"
    assert_problem(set_call(api, "get", url, token), 401)  # its token opens nothing now
    assert_problem(set_call(api, "delete", url, token), 401)


def test_there_is_no_list_of_every_set(api: Api) -> None:
    api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": HOUSE}, status=201)
    listed = api.client.get("/api/v1/rulesets/saved")  # the URL takes a new set only
    assert listed.status_code == 405 and "Ours" not in listed.get_data(as_text=True)


def test_a_set_is_not_read_changed_or_deleted_without_its_token(app: Flask, api: Api) -> None:
    api.start()  # a game's link opens no rule set either
    saved = api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": HOUSE}, status=201)
    other = api.ok("post", "/rulesets/saved", {"name": "Theirs", "rules": HOUSE}, status=201)
    url = f"/rulesets/saved/{saved['id']}"
    body = {"name": "Stolen", "rules": "may-i"}
    for method in ("get", "put", "delete"):
        sent = body if method == "put" else None
        no_token = set_call(api, method, url, None, sent)
        assert_problem(no_token, 401)
        assert no_token.headers["WWW-Authenticate"].startswith("Bearer")
        assert_problem(set_call(api, method, url, "x" * len(saved["token"]), sent), 401)
        assert_problem(set_call(api, method, url, other["token"], sent), 401)
        assert_problem(set_call(api, method, url, api.links["edit_token"], sent), 401)
    with app.app_context():
        assert db.session.get_one(HouseRules, saved["id"]).name == "Ours"


def test_a_game_keeps_its_copy_when_the_saved_set_changes(api: Api) -> None:
    saved = api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": HOUSE}, status=201)
    api.start(ruleset=saved["rules"])
    url = f"/rulesets/saved/{saved['id']}"
    set_call(api, "put", url, saved["token"], {"name": "Ours", "rules": "may-i"})
    assert set_call(api, "delete", url, saved["token"]).status_code == 200
    assert api.state()["rules"]["buys"]["cap_per_game"] == 5


def test_a_bad_rule_set_is_refused_at_its_field_and_nothing_is_saved(app: Flask, api: Api) -> None:
    rules = ruleset_to_dict(MAY_I)
    rules["rounds"][0]["deal"] = 3
    rules["buys"]["cap_per_round"] = 0  # no buy brings the cards the deal lacks
    problem = assert_problem(
        api.call("post", "/rulesets/saved", {"name": "Bad", "rules": rules}),
        422,
        "rules.rounds.0.deal",
    )
    assert "cannot make a contract" in problem["errors"]["rules.rounds.0.deal"][0]
    assert_problem(api.call("post", "/rulesets/saved", {"name": "", "rules": "may-i"}), 422, "name")
    assert_problem(
        api.call("post", "/rulesets/saved", {"name": "x" * 81, "rules": "may-i"}), 422, "name"
    )
    with app.app_context():
        assert db.session.query(HouseRules).count() == 0


def test_validate_answers_the_rule_set_as_read_or_every_problem(api: Api) -> None:
    checked = api.ok("post", "/rulesets/validate", {"rules": "aces-high"})
    assert checked == {"valid": True, "rules": ruleset_to_dict(ACES_HIGH)}
    rules = ruleset_to_dict(MAY_I) | {"min_players": 1}
    rules["scoring"]["values"]["K"] = -1
    problem = assert_problem(api.call("post", "/rulesets/validate", {"rules": rules}), 422)
    assert {"rules.min_players", "rules.scoring.values.K"} <= set(problem["errors"])


def test_problems_come_in_the_requests_language(api: Api) -> None:
    response = api.client.post(
        "/api/v1/rulesets/saved",
        json={"name": "", "rules": "may-i"},
        headers={"Accept-Language": "de"},
    )
    problem = assert_problem(response, 422, "name")
    assert problem["errors"]["name"] != ["Must be 1 to 80 characters."]


def test_an_id_past_the_columns_range_opens_nothing(api: Api) -> None:
    for method in ("get", "put", "delete"):
        body = {"name": "x", "rules": "may-i"} if method == "put" else None
        assert_problem(set_call(api, method, "/rulesets/saved/17031732711", "x", body), 401)


def test_who_is_down_is_marked_shown_and_refuses_a_buy(api: Api) -> None:
    rules = ruleset_to_dict(MAY_I)
    rules["buys"]["no_buy_after_contract_down"] = True
    api.start(ruleset=rules)
    marked = api.ok("post", f"{api.url}/down", {"seat": 1, "action_id": "d1"}, status=201)
    assert marked["current_round"]["down"] == [1]
    assert api.ok("post", f"{api.url}/down", {"seat": 1, "action_id": "d1"})["version"] == 2
    problem = assert_problem(api.buy("Ben"), 422, "seat")
    assert problem["errors"]["seat"] == ["Nobody may buy once their contract is down."]
    api.ok("post", f"{api.url}/down", {"seat": 1, "down": False}, status=201)
    assert api.state()["current_round"]["down"] == []
    assert api.buy("Ben").status_code == 201
    assert "Round 1: Ben laid down the contract" in api.history()
    assert_problem(api.call("post", f"{api.url}/down", {"seat": 9}), 422, "seat")


def with_rounds(count: int) -> dict[str, Any]:
    """May I? as JSON with its rounds cut or repeated to `count`."""
    rules = ruleset_to_dict(MAY_I)
    rules["rounds"] = (rules["rounds"] * 2)[:count]
    return rules


@pytest.mark.parametrize("count", [5, 13])
def test_a_round_count_outside_6_to_12_is_refused_at_rounds_and_nothing_is_saved(
    app: Flask, api: Api, count: int
) -> None:
    saved = api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": HOUSE}, status=201)
    rules = with_rounds(count)
    sent = [
        ("post", "/rulesets/saved", {"name": "Long", "rules": rules}, "rules.rounds"),
        ("post", "/rulesets/validate", {"rules": rules}, "rules.rounds"),
        ("post", "/games", {"ruleset": rules, "players": PLAYERS}, "ruleset.rounds"),
    ]
    for method, url, body, field in sent:
        problem = assert_problem(api.call(method, url, body), 422, field)
        assert problem["errors"][field] == ["Play 6 to 12 rounds."]
    url = f"/rulesets/saved/{saved['id']}"
    changed = set_call(api, "put", url, saved["token"], {"name": "Long", "rules": rules})
    assert assert_problem(changed, 422, "rules.rounds")["errors"]["rules.rounds"]
    assert set_call(api, "get", url, saved["token"]).json == saved
    with app.app_context():
        assert db.session.query(HouseRules).count() == 1
        assert db.session.query(Game).count() == 0


@pytest.mark.parametrize("count", [6, 12])
def test_six_and_twelve_rounds_are_played(api: Api, count: int) -> None:
    saved = api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": with_rounds(count)}, 201)
    assert len(saved["rules"]["rounds"]) == count
    assert api.ok("post", "/rulesets/validate", {"rules": with_rounds(count)})["valid"] is True
    assert len(api.start(ruleset=with_rounds(count))["rules"]["rounds"]) == count


def test_a_saved_set_stored_with_three_rounds_still_reads(app: Flask, api: Api) -> None:
    saved = api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": HOUSE}, status=201)
    with app.app_context():  # as saved while 1 to 20 rounds were allowed
        row = db.session.get_one(HouseRules, saved["id"])
        row.rules_json = {**row.rules_json, "rounds": row.rules_json["rounds"][:3]}
        db.session.commit()
    shown = set_call(api, "get", f"/rulesets/saved/{saved['id']}", saved["token"]).json
    assert len(shown["rules"]["rounds"]) == 3
    assert shown["rules"]["buys"]["cap_per_game"] == 5


def test_a_game_stored_with_three_rounds_plays_to_its_end(app: Flask, api: Api) -> None:
    with app.app_context():  # as started while 1 to 20 rounds were allowed
        game = create_game(replace(MAY_I, rounds=MAY_I.rounds[:3]), PLAYERS, 0)
        api.game_id, api.links = game.id, {"edit_token": game.edit_token}
    api.names = PLAYERS
    assert len(api.state()["rules"]["rounds"]) == 3
    for number in (1, 2, 3):
        response = api.end_round(number, "Anna", {"Ben": 10, "Carla": 20, "Dev": 30})
        assert response.status_code == 200, response.get_data(as_text=True)
    state = api.state()
    assert state["finished"] is True and state["totals"] == [0, 30, 60, 90]
    assert len(api.history()) == 4


def test_a_game_starts_with_a_saved_set_by_its_key_and_token(api: Api) -> None:
    saved = api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": HOUSE}, status=201)
    key = f"house-{saved['id']}"
    state = api.start(ruleset=key, ruleset_token=saved["token"])
    assert state["rules"]["name"] == "Ours" and state["rules"]["buys"]["cap_per_game"] == 5
    body = {"ruleset": key, "players": PLAYERS}
    for token in ("not-its-token", None):  # a wrong token and none answer alike
        assert_problem(api.call("post", "/games", {**body, "ruleset_token": token}), 422, "ruleset")
    assert_problem(api.call("post", "/games", {**body, "ruleset": "house-x"}), 422, "ruleset")
