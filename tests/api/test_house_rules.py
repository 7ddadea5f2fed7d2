"""Saved house rule sets through /api/v1/rulesets/saved, and rule sets checked by /validate."""

from __future__ import annotations

from scorekeeper.rules.presets import ACES_HIGH, MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict

from .conftest import Api, assert_problem

HOUSE = ruleset_to_dict(MAY_I) | {"buys": ruleset_to_dict(MAY_I)["buys"] | {"cap_per_game": 5}}


def test_a_saved_set_is_created_listed_read_updated_and_deleted(api: Api) -> None:
    assert api.ok("get", "/rulesets/saved") == []
    response = api.call("post", "/rulesets/saved", {"name": "  Friday  ", "rules": HOUSE})
    assert response.status_code == 201
    created = response.json
    assert response.headers["Location"].endswith(f"/api/v1/rulesets/saved/{created['id']}")
    assert created["name"] == created["rules"]["name"] == "Friday"
    assert created["key"] == f"house-{created['id']}"
    assert created["rules"]["buys"]["cap_per_game"] == 5
    url = f"/rulesets/saved/{created['id']}"
    assert api.ok("get", url) == created
    assert [entry["name"] for entry in api.ok("get", "/rulesets/saved")] == ["Friday"]
    updated = api.ok("put", url, {"name": "Saturday", "rules": "aces-high"})
    assert updated["name"] == "Saturday" and updated["rules"]["melds"]["aces"] == "high_or_low"
    assert updated["created_at"] == created["created_at"]
    assert updated["updated_at"] >= created["updated_at"]
    assert api.ok("delete", url)["name"] == "Saturday"
    assert_problem(api.call("get", url), 404)
    assert_problem(api.call("delete", url), 404)
    assert api.ok("get", "/rulesets/saved") == []


def test_a_game_keeps_its_copy_when_the_saved_set_changes(api: Api) -> None:
    saved = api.ok("post", "/rulesets/saved", {"name": "Ours", "rules": HOUSE}, status=201)
    api.start(ruleset=saved["rules"])
    api.ok("put", f"/rulesets/saved/{saved['id']}", {"name": "Ours", "rules": "may-i"})
    api.ok("delete", f"/rulesets/saved/{saved['id']}")
    assert api.state()["rules"]["buys"]["cap_per_game"] == 5


def test_a_bad_rule_set_is_refused_at_its_field_and_nothing_is_saved(api: Api) -> None:
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
    assert api.ok("get", "/rulesets/saved") == []


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


def test_an_id_past_the_columns_range_is_not_found(api: Api) -> None:
    for method in ("get", "put", "delete"):
        body = {"name": "x", "rules": "may-i"} if method == "put" else None
        assert_problem(api.call(method, "/rulesets/saved/17031732711", body), 404)


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
